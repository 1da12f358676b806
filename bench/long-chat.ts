// Benchmark: a long conversation (issue 43, "the long-conversation growth stays flat"). One ai_human
// thread whose prompt includes the whole chat, driven turn by turn for TURNS turns (post a message,
// wait until the thread is idle again), as in benchmark 2b but 1,500 turns long: its last 100 turns
// must be no slower than its first 100, and the first page of its message list (GET
// /api/threads/:id/messages, the runtime's `threads.messages`) as fast at the end as after 100 turns.
// It also reads the first page once after each turn of both windows, as a viewer refreshing the list
// would. BENCH_LONG_CHAT_TURNS changes the length. It prints where a turn's time goes at each end
// (the runtime's statements, this process's CPU per turn), and the threads table's dead row versions
// at the end (1,500 turns take seconds here, less than autovacuum's default one-minute round;
// vacuuming every second did not change the ratios: docs/benchmarks.md, session 44). Session 45
// found the growth in this process's CPU between statements (a CPU profile split by time), and made
// a step build and compare only its new messages (docs/runtime.md "Long conversations").

import { chatBundle } from "../test/support/bench-bundles";
import { monotonicMs } from "../test/support/clock";
import { topStatements } from "../test/support/instrumented-database";
import { type BaselineResult, printBaselineBeside } from "./baseline";
import type { Cluster } from "./cluster";
import { printTable, SUMMARY_HEADER, section, summaryCells } from "./format";
import { openBenchRuntime, startWarmChat, waitForStatus } from "./harness";
import { type Summary, summarize } from "./stats";

/** The turns compared at each end of the conversation. */
const WINDOW = 100;
const TURNS = wholeNumber("BENCH_LONG_CHAT_TURNS", 1_500);
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
  /** The first page read once after each turn of the first and of the last window. */
  pageAfterEarlyTurns: Summary;
  pageAfterLateTurns: Summary;
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
    const threadId = await startWarmChat(bench);
    const readFirstPage = async () => {
      const started = monotonicMs();
      const page = await runtime.threads.messages(threadId, { includeSilent: false, limit: PAGE_SIZE });
      if (page.messages.length !== Math.min(PAGE_SIZE, page.total))
        throw new Error(`a first page of ${page.messages.length} messages`);
      return monotonicMs() - started;
    };
    const firstPage = async () => {
      const reads: number[] = [];
      for (let read = 0; read < PAGE_READS; read += 1) reads.push(await readFirstPage());
      return summarize(reads);
    };
    // The first page read once after each turn of a window, as a viewer refreshing the list would
    // (outside the turn's time): the list changed since the last read every time.
    const pagesAfterTurn: number[][] = [[], []];
    const turns: number[] = [];
    let pageEarly: Summary | null = null;
    // Where each window's time goes: the runtime's statements, and this process's CPU (the
    // runtime's) per turn, post to idle (its p50: the first turns' mean includes the JIT warming up).
    type Window = { statements: ReturnType<typeof topStatements>; cpuMs: Summary };
    const windows: Window[] = [];
    let turnCpu: number[] = [];
    const opensWindow = (turn: number) => turn === 1 || turn === TURNS - WINDOW + 1;
    const closesWindow = (turn: number) => turn === WINDOW || turn === TURNS;
    for (let turn = 1; turn <= TURNS; turn += 1) {
      if (opensWindow(turn)) {
        bench.statements.clear();
        turnCpu = [];
      }
      const cpuAt = process.cpuUsage();
      const started = monotonicMs();
      await runtime.threads.postMessage(threadId, { content: `Question ${turn}` });
      const idleAt = await waitForStatus(bench, threadId, ["idle"]);
      turns.push(idleAt - started);
      const cpu = process.cpuUsage(cpuAt);
      turnCpu.push((cpu.user + cpu.system) / 1000);
      if (turn <= WINDOW) pagesAfterTurn[0]?.push(await readFirstPage());
      else if (turn > TURNS - WINDOW) pagesAfterTurn[1]?.push(await readFirstPage());
      if (closesWindow(turn))
        windows.push({ statements: topStatements(bench.statements, 12), cpuMs: summarize(turnCpu) });
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
      pageAfterEarlyTurns: summarize(pagesAfterTurn[0] ?? []),
      pageAfterLateTurns: summarize(pagesAfterTurn[1] ?? []),
    };
    printTable(
      `Long conversation: post → idle per turn, and the message list's first page (${PAGE_SIZE} messages; ${total.toLocaleString("en-US")} messages at the end)`,
      ["measure", ...SUMMARY_HEADER],
      [
        [`turns 1–${WINDOW}`, ...summaryCells(result.firstTurns)],
        [`turns ${TURNS - WINDOW + 1}–${TURNS}`, ...summaryCells(result.lastTurns)],
        [`first page after ${WINDOW} turns`, ...summaryCells(result.pageEarly)],
        [`first page after ${TURNS} turns`, ...summaryCells(result.pageLate)],
        [`first page after each of turns 1–${WINDOW}`, ...summaryCells(result.pageAfterEarlyTurns)],
        [
          `first page after each of turns ${TURNS - WINDOW + 1}–${TURNS}`,
          ...summaryCells(result.pageAfterLateTurns),
        ],
      ],
    );
    const [early, late] = windows as [Window, Window];
    const lateByText = new Map(late.statements.map((entry) => [entry.statement, entry]));
    printTable(
      `Long conversation: where a turn's time goes, turns 1–${WINDOW} against ${TURNS - WINDOW + 1}–${TURNS} (per turn)`,
      ["measure", "first turns", "last turns"],
      [
        ["this process's CPU (runtime) per turn, p50 ms", early.cpuMs.p50, late.cpuMs.p50],
        ...early.statements.map((entry) => {
          const other = lateByText.get(entry.statement);
          return [
            `${entry.statement.slice(0, 70)}${entry.statement.length > 70 ? "…" : ""} ms`,
            entry.ms / WINDOW,
            other ? other.ms / WINDOW : Number.NaN,
          ];
        }),
      ],
    );
    // The thread's row is updated twice a turn, almost never as a heap-only (HOT) update (runnable and
    // the lease are indexed): without a vacuum in between, its dead versions pile up.
    await new Promise((resolve) => setTimeout(resolve, 1_000)); // statistics are flushed at most once a second
    const [versions] = await bench.raw.sql.query<{
      updates: number;
      hot: number;
      dead: number;
      vacuums: number;
    }>(
      `SELECT n_tup_upd::int AS updates, n_tup_hot_upd::int AS hot, n_dead_tup::int AS dead,
         (vacuum_count + autovacuum_count)::int AS vacuums
       FROM pg_stat_user_tables WHERE relname = 'threads'`,
    );
    if (versions)
      console.log(
        `  the threads table at the end: ${versions.updates.toLocaleString("en-US")} row updates (${versions.hot.toLocaleString("en-US")} heap-only), ${versions.dead.toLocaleString("en-US")} dead row versions, ${versions.vacuums} vacuums during the run`,
      );
    const ratio = (late: Summary, early: Summary) => `${(late.p50 / early.p50).toFixed(2)}×`;
    console.log(
      `  last ${WINDOW} turns ÷ first ${WINDOW} (p50): ${ratio(result.lastTurns, result.firstTurns)}; first page at the end ÷ after ${WINDOW} turns (p50): ${ratio(result.pageLate, result.pageEarly)}; read after each turn, last ${WINDOW} ÷ first ${WINDOW} (p50): ${ratio(result.pageAfterLateTurns, result.pageAfterEarlyTurns)}`,
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
