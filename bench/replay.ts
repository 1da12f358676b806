// Benchmark 14, replay (issue 21): a 200-child fan-out (the subagents benchmark's bundle: scripted
// models, no model latency) runs once, then is replayed from its recording — every model call of the
// 201 threads answered from the recorded responses, children following their counterparts — and the
// two wall times are printed side by side with the database baseline of the same run. The replay
// must reproduce the run — every call answered from the recording, no divergence, every child
// following the source child with the same task — or the benchmark fails: the parent's drains take
// the reports the original's took (runtime/engine/step/replay-gate.ts), whatever order they arrive in.
import { monotonicMs } from "../test/support/clock";
import { type BaselineResult, printBaselineBeside } from "./baseline";
import type { Cluster } from "./cluster";
import { printTable, section } from "./format";
import { openBenchRuntime, waitUntil } from "./harness";
import { fanOutAndSettle, fanOutBundle, parentSettled } from "./subagents";

export const REPLAY_CHILDREN = 200;

export interface ReplayBenchResult {
  children: number;
  originalMs: number;
  replayMs: number;
  replayedCalls: number;
  liveCalls: number;
  divergences: number;
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
    const { threadId, wallMs: originalMs } = await fanOutAndSettle(
      bench,
      bench.projectId,
      REPLAY_CHILDREN,
      120_000,
    );

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
    if (
      status.threads !== REPLAY_CHILDREN + 1 ||
      !(await parentSettled(bench, replay.threadId, REPLAY_CHILDREN))
    )
      throw new Error(
        `The replay did not run every child to its report: ${JSON.stringify(status).slice(0, 500)}`,
      );
    // Each replayed child must follow the source child that got the same task.
    const mismatched = await bench.raw.sql.query<{ count: number }>(
      `SELECT count(*)::int AS count FROM thread_replays r
         JOIN messages mine ON mine.thread_id = r.thread_id AND mine.seq = 1
         JOIN messages theirs ON theirs.thread_id = r.source_thread_id AND theirs.seq = 1
        WHERE r.root_id = $1 AND r.thread_id <> $1 AND mine.content <> theirs.content`,
      [replay.threadId],
    );
    console.log(`children following a source child with another task: ${mismatched[0]?.count ?? "?"}`);
    const childDivergences = status.divergences.filter(
      (divergence) => divergence.thread_id !== replay.threadId,
    );
    printTable(
      `${REPLAY_CHILDREN} non-blocking dual_ai children, all reported`,
      ["run", "wall, s", "model calls"],
      [
        ["original (scripted models)", originalMs / 1000, status.calls.replayed + status.calls.live],
        ["replay: answered from the recording", replayMs / 1000, status.calls.replayed],
        ["replay: answered by the model after a divergence", "", status.calls.live],
        ["replay / original", replayMs / originalMs, ""],
      ],
    );
    console.log(`divergences: ${status.divergences.length} (${childDivergences.length} in children)`);
    for (const divergence of status.divergences.slice(0, 3))
      console.log(
        `  ${divergence.agent_id} side ${divergence.side} call ${divergence.call_index}: ${divergence.reason} at ${divergence.path}; was ${JSON.stringify(divergence.recorded)?.slice(0, 160)}; now ${JSON.stringify(divergence.replayed)?.slice(0, 160)}`,
      );
    const wrongTasks = Number(mismatched[0]?.count ?? 0);
    if (status.divergences.length > 0 || status.calls.live > 0 || wrongTasks > 0)
      throw new Error(
        `The replay did not reproduce the run: ${status.divergences.length} divergences, ${status.calls.live} live calls, ${wrongTasks} children following another task`,
      );
    printBaselineBeside("Replay", baseline, (measured) => [
      ["single-row INSERT/s, one connection", measured.insertOneConnection.perSecond],
      ["single-row INSERT/s, ten connections", measured.insertTenConnections.perSecond],
    ]);
    return {
      children: REPLAY_CHILDREN,
      originalMs,
      replayMs,
      replayedCalls: status.calls.replayed,
      liveCalls: status.calls.live,
      divergences: status.divergences.length,
    };
  } finally {
    await bench.close();
  }
}
