// Benchmark 14, replay (issue 21): a 200-child fan-out (the subagents benchmark's bundle: scripted
// models, no model latency) runs once, then is replayed from its recording — every model call of the
// 201 threads answered from the recorded responses, children following their counterparts — and the
// two wall times are printed side by side with the database baseline of the same run. The replay
// must match the recording exactly (no divergence, no live call) or the benchmark fails.
import { monotonicMs } from "../test/support/clock";
import { type BaselineResult, printBaselineBeside } from "./baseline";
import type { Cluster } from "./cluster";
import { printTable, section } from "./format";
import { openBenchRuntime, waitUntil } from "./harness";
import { fanOutBundle, parentSettled } from "./subagents";

export const REPLAY_CHILDREN = 200;

export interface ReplayBenchResult {
  children: number;
  originalMs: number;
  replayMs: number;
  replayedCalls: number;
}

export async function runReplay(
  cluster: Cluster,
  baseline: BaselineResult | null,
): Promise<ReplayBenchResult> {
  section(`14. Replay of a ${REPLAY_CHILDREN}-child tree from its recording (no model latency)`);
  const bench = await openBenchRuntime(cluster, {
    database: "bench_replay",
    bundle: fanOutBundle(REPLAY_CHILDREN),
    concurrency: 32,
    maxConnections: 20,
  });
  try {
    await bench.runtime.scheduler.start();
    const started = monotonicMs();
    const { threadId } = await bench.runtime.threads.create({
      projectId: bench.projectId,
      agentName: "orchestrator",
      message: `Fan out to ${REPLAY_CHILDREN} workers.`,
    });
    await waitUntil(
      "the original run's reports all delivered",
      () => parentSettled(bench, threadId, REPLAY_CHILDREN),
      120_000,
      5,
    );
    const originalMs = monotonicMs() - started;

    const replayStarted = monotonicMs();
    const replay = await bench.runtime.replays.replay(threadId, { from_version: "same" });
    await waitUntil(
      "the replay finished",
      async () => {
        const rows = await bench.raw.sql.query<{ finished_at: unknown }>(
          "SELECT finished_at FROM thread_replays WHERE thread_id = $1",
          [replay.threadId],
        );
        return rows[0]?.finished_at !== null && rows[0]?.finished_at !== undefined;
      },
      120_000,
      5,
    );
    const replayMs = monotonicMs() - replayStarted;
    const status = await bench.runtime.replays.status(replay.threadId);
    if (status.divergences.length > 0 || status.calls.live > 0 || status.threads !== REPLAY_CHILDREN + 1)
      throw new Error(`The replay did not match its recording: ${JSON.stringify(status).slice(0, 500)}`);
    printTable(
      `${REPLAY_CHILDREN} non-blocking dual_ai children, all reported`,
      ["run", "wall, s", "model calls"],
      [
        ["original (scripted models)", originalMs / 1000, status.calls.replayed],
        ["replay (answered from the recording)", replayMs / 1000, status.calls.replayed],
        ["replay / original", replayMs / originalMs, ""],
      ],
    );
    printBaselineBeside("Replay", baseline, (measured) => [
      ["single-row INSERT/s, one connection", measured.insertOneConnection.perSecond],
      ["single-row INSERT/s, ten connections", measured.insertTenConnections.perSecond],
    ]);
    return { children: REPLAY_CHILDREN, originalMs, replayMs, replayedCalls: status.calls.replayed };
  } finally {
    await bench.close();
  }
}
