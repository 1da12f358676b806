// Benchmark 4, inbox-to-step-start latency: the time from a postMessage commit (the promise
// resolved, so the message is durable) until the runtime starts the step that answers it. "Step
// start" is the step's model call as seen in this process (µs resolution; later than the step's
// start by the drain commit, when there is one, and the request's building), the figure the summary
// reports. Also printed: the user message's persisted created_at (ms resolution, compared on a wall
// clock aligned to Date.now). A drain writes it as the step starts; a post to a thread parked in
// this process stores the message itself, with the run started (docs/runtime.md "A message posted
// to a thread parked here"), so there it precedes the commit and the figure is ≤ 0. Three loads:
// one message at a time, a steady paced stream, a burst.

import { chatBundle } from "../test/support/bench-bundles";
import { alignedWallClockUs, monotonicMs, sleep } from "../test/support/clock";
import { type BaselineResult, printBaselineBeside } from "./baseline";
import type { Cluster } from "./cluster";
import { type Cell, printTable, SUMMARY_HEADER, section, summaryCells } from "./format";
import {
  type BenchRuntime,
  countThreads,
  createThreads,
  ModelCallProbe,
  openBenchRuntime,
  waitForStatus,
  waitUntil,
} from "./harness";
import { type Summary, summarize } from "./stats";

const THREADS = 100;
const SEQUENTIAL_MESSAGES = 200;
const PACED_PER_SECOND = 50;
const PACED_MESSAGES = 200;
const BURST_MESSAGES = 100;

export interface LatencyPhase {
  name: string;
  /**
   * Commit → the user message's created_at (ms resolution, +0.5 ms midpoint correction): its drain,
   * or ≤ 0 when the post stored it.
   */
  toDrain: Summary;
  /** Commit → the step's model call (µs resolution). */
  toModelCall: Summary;
}

export interface InboxLatencyResult {
  phases: LatencyPhase[];
}

interface Posted {
  threadId: string;
  messageId: string;
  committedWallUs: number;
  committedMonotonicMs: number;
  modelCallsBefore: number;
}

export async function runInboxLatency(
  cluster: Cluster,
  baseline: BaselineResult | null,
): Promise<InboxLatencyResult> {
  section(`4. Inbox → step start latency (${THREADS} idle ai_human threads)`);
  const bench = await openBenchRuntime(cluster, { database: "bench_inbox", bundle: chatBundle(10) });
  try {
    const { runtime } = bench;
    await runtime.scheduler.start();
    const threadIds = await createThreads(bench, THREADS, "chat", (index) => `Warm-up ${index}`);
    await waitUntil(
      "every thread to park idle",
      async () => (await countThreads(bench.raw.sql, ["idle"])) === THREADS,
      60_000,
    );
    const probe = new ModelCallProbe(runtime);
    for (const threadId of threadIds) await probe.watch(threadId);
    const wallUs = alignedWallClockUs();
    const post = async (threadId: string, content: string): Promise<Posted> => {
      const modelCallsBefore = probe.calls.get(threadId)?.length ?? 0;
      const { messageId } = await runtime.threads.postMessage(threadId, { content });
      return {
        threadId,
        messageId,
        committedWallUs: wallUs(),
        committedMonotonicMs: monotonicMs(),
        modelCallsBefore,
      };
    };
    const allIdle = () =>
      waitUntil(
        "every thread to be idle again",
        async () => (await countThreads(bench.raw.sql, ["idle"])) === THREADS,
        60_000,
      );

    const phases: LatencyPhase[] = [];
    // a) One message at a time: post, wait for the answer, next thread.
    const sequential: Posted[] = [];
    for (let index = 0; index < SEQUENTIAL_MESSAGES; index++) {
      const threadId = threadIds[index % THREADS]!;
      sequential.push(await post(threadId, `Sequential ${index}`));
      await waitForStatus(bench, threadId, ["idle"]);
    }
    phases.push(await measure(bench, probe, "one at a time", sequential));

    // b) A steady stream (open loop): posts on a fixed schedule, whatever the runtime is doing.
    const paced: Promise<Posted>[] = [];
    const interval = 1000 / PACED_PER_SECOND;
    const start = monotonicMs();
    for (let index = 0; index < PACED_MESSAGES; index++) {
      const due = start + index * interval;
      const wait = due - monotonicMs();
      if (wait > 0) await sleep(wait);
      paced.push(post(threadIds[index % THREADS]!, `Paced ${index}`));
    }
    const pacedPosted = await Promise.all(paced);
    await allIdle();
    phases.push(await measure(bench, probe, `steady ${PACED_PER_SECOND} messages/s`, pacedPosted));

    // c) A burst: one message to each of BURST_MESSAGES idle threads at once.
    const burst = await Promise.all(
      threadIds.slice(0, BURST_MESSAGES).map((threadId, index) => post(threadId, `Burst ${index}`)),
    );
    await allIdle();
    phases.push(await measure(bench, probe, `burst of ${BURST_MESSAGES} at once`, burst));
    probe.close();

    const result = { phases };
    printInboxLatency(result, baseline);
    return result;
  } finally {
    await bench.close();
  }
}

async function measure(
  bench: BenchRuntime,
  probe: ModelCallProbe,
  name: string,
  posted: Posted[],
): Promise<LatencyPhase> {
  const rows = await bench.raw.sql.query<{ id: string; created_at: string }>(
    "SELECT id, created_at::text AS created_at FROM messages WHERE id = ANY($1)",
    [posted.map((entry) => entry.messageId)],
  );
  const createdAt = new Map(rows.map((row) => [row.id, Number(row.created_at)]));
  const toDrain: number[] = [];
  const toModelCall: number[] = [];
  for (const entry of posted) {
    const drained = createdAt.get(entry.messageId);
    if (drained === undefined) throw new Error(`Message ${entry.messageId} was never stored`);
    // created_at is Date.now() × 1000: the true instant lies in [created_at, created_at + 1 ms).
    toDrain.push((drained + 500 - entry.committedWallUs) / 1000);
    const call = probe.calls.get(entry.threadId)?.[entry.modelCallsBefore];
    if (call === undefined) throw new Error(`No model call after message ${entry.messageId}`);
    toModelCall.push(call - entry.committedMonotonicMs);
  }
  return { name, toDrain: summarize(toDrain), toModelCall: summarize(toModelCall) };
}

export function printInboxLatency(result: InboxLatencyResult, baseline: BaselineResult | null): void {
  printTable(
    "4. postMessage commit → step start",
    ["load", "measured to", ...SUMMARY_HEADER],
    result.phases.flatMap((phase): Cell[][] => [
      [phase.name, "message stored, created_at (ms res.)", ...summaryCells(phase.toDrain)],
      ["", "step's model call (µs res.)", ...summaryCells(phase.toModelCall)],
    ]),
  );
  printBaselineBeside("4. Inbox latency", baseline, (base) => [
    [
      "statement round trip, unprepared (runtime's path), p50 (ms)",
      base.unpreparedStatement.latency?.p50 ?? Number.NaN,
    ],
    ["one durable commit: INSERT + COMMIT p50 (ms)", base.insertOneConnection.latency?.p50 ?? Number.NaN],
    ["BEGIN; INSERT; COMMIT p50 (ms)", base.transactionOneConnection.latency?.p50 ?? Number.NaN],
  ]);
}
