// Benchmark: a long conversation (issue 43, "the long-conversation growth stays flat"). One ai_human
// thread whose prompt includes the whole chat, driven turn by turn for TURNS turns (post a message,
// wait until the thread is idle again), as in benchmark 2b but 1,500 turns long: its last 100 turns
// must be no slower than its first 100, and the first page of its message list (GET
// /api/threads/:id/messages, the runtime's `threads.messages`) as fast at the end as after 100 turns.
// BENCH_LONG_CHAT_TURNS changes the length.

import { chatBundle } from "../test/support/bench-bundles";
import { monotonicMs } from "../test/support/clock";
import { type BaselineResult, printBaselineBeside } from "./baseline";
import type { Cluster } from "./cluster";
import { printTable, SUMMARY_HEADER, section, summaryCells } from "./format";
import { openBenchRuntime, waitForStatus } from "./harness";
import { type Summary, summarize } from "./stats";

const TURNS = wholeNumber("BENCH_LONG_CHAT_TURNS", 1_500);
/** The turns compared at each end of the conversation. */
const WINDOW = 100;
/** Reads of the message list's first page at each point. */
const PAGE_READS = 50;
const PAGE_SIZE = 50;

function wholeNumber(name: string, fallback: number): number {
  const raw = process.env[name]?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 2 * WINDOW)
    throw new Error(`${name} must be a whole number ≥ ${2 * WINDOW}; got "${raw}".`);
  return value;
}

export interface LongChatResult {
  turns: number;
  firstTurns: Summary;
  lastTurns: Summary;
  /** The message list's first page after WINDOW turns, and at the end. */
  pageEarly: Summary;
  pageLate: Summary;
}

export async function runLongChat(
  cluster: Cluster,
  baseline: BaselineResult | null,
): Promise<LongChatResult> {
  section(`Long conversation: one ai_human thread, ${TURNS.toLocaleString("en-US")} turns`);
  const bench = await openBenchRuntime(cluster, {
    database: "bench_long_chat",
    bundle: chatBundle(TURNS + 1),
  });
  try {
    const { runtime } = bench;
    await runtime.scheduler.start();
    const { threadId } = await runtime.threads.create({
      projectId: bench.projectId,
      agentName: "chat",
      message: "Warm-up turn.",
    });
    await waitForStatus(bench, threadId, ["idle"]);
    const firstPage = async () => {
      const reads: number[] = [];
      for (let read = 0; read < PAGE_READS; read += 1) {
        const started = monotonicMs();
        const page = await runtime.threads.messages(threadId, { includeSilent: false, limit: PAGE_SIZE });
        reads.push(monotonicMs() - started);
        if (page.messages.length !== PAGE_SIZE)
          throw new Error(`a first page of ${page.messages.length} messages`);
      }
      return summarize(reads);
    };
    const turns: number[] = [];
    let pageEarly: Summary | null = null;
    for (let turn = 1; turn <= TURNS; turn += 1) {
      const started = monotonicMs();
      await runtime.threads.postMessage(threadId, { content: `Question ${turn}` });
      const idleAt = await waitForStatus(bench, threadId, ["idle"]);
      turns.push(idleAt - started);
      if (turn === WINDOW) pageEarly = await firstPage();
    }
    const pageLate = await firstPage();
    const { total } = await runtime.threads.messages(threadId, { includeSilent: false, limit: 1 });
    const result: LongChatResult = {
      turns: TURNS,
      firstTurns: summarize(turns.slice(0, WINDOW)),
      lastTurns: summarize(turns.slice(-WINDOW)),
      pageEarly: pageEarly as Summary,
      pageLate,
    };
    printTable(
      `Long conversation: post → idle per turn, and the message list's first page (${PAGE_SIZE} messages; ${total.toLocaleString("en-US")} messages at the end)`,
      ["measure", ...SUMMARY_HEADER],
      [
        [`turns 1–${WINDOW}`, ...summaryCells(result.firstTurns)],
        [`turns ${TURNS - WINDOW + 1}–${TURNS}`, ...summaryCells(result.lastTurns)],
        [`first page after ${WINDOW} turns`, ...summaryCells(result.pageEarly)],
        [`first page after ${TURNS} turns`, ...summaryCells(result.pageLate)],
      ],
    );
    const ratio = (late: Summary, early: Summary) => `${(late.p50 / early.p50).toFixed(2)}×`;
    console.log(
      `  last ${WINDOW} turns ÷ first ${WINDOW} (p50): ${ratio(result.lastTurns, result.firstTurns)}; first page at the end ÷ after ${WINDOW} turns (p50): ${ratio(result.pageLate, result.pageEarly)}`,
    );
    console.log("  targets: both ≤ 1.0× (no slower at the end; this machine's noise is a few percent)");
    printBaselineBeside("Long conversation", baseline, (measured) => [
      ["SELECT 1 round trip p50 ms", measured.roundTrip.latency?.p50 ?? Number.NaN],
      ["single-row INSERT/s, one connection", measured.insertOneConnection.perSecond],
    ]);
    return result;
  } finally {
    await bench.close();
  }
}
