// The rows of `thread_replays` read and written by the replay service (runtime/services/thread-replay.ts;
// docs/runtime.md "Replay"): a replayed root's row with the inputs it re-posts, whether a thread is a
// replay, a replay's progress, and the runs of a project a batch replay may pick. The inputs' posting
// (replay-inputs.ts), batches (replay-batches.ts) and followed children (subagents/replay-children.ts)
// keep their own statements.
import type { SqlExecutor } from "@/lib/db/sql-client";
import { nowMicroseconds } from "./thread-row";

/** Records a new replayed root: its source, which version it runs, its inputs (the first posted). */
export async function insertReplayRoot(
  tx: SqlExecutor,
  replay: { threadId: string; sourceThreadId: string; fromVersion: string; inputs: unknown },
): Promise<void> {
  await tx.query(
    `INSERT INTO thread_replays (thread_id, root_id, source_thread_id, from_version, inputs, inputs_posted, created_at)
     VALUES ($1, $1, $2, $3, $4::text::jsonb, 1, $5)`,
    [
      replay.threadId,
      replay.sourceThreadId,
      replay.fromVersion,
      JSON.stringify(replay.inputs),
      nowMicroseconds(),
    ],
  );
}

/** Whether the thread has a replay row (a replayed root or a followed child). */
export async function isReplayThread(db: SqlExecutor, threadId: string): Promise<boolean> {
  return (await db.query("SELECT 1 FROM thread_replays WHERE thread_id = $1", [threadId])).length > 0;
}

/** The root of the replayed tree the thread belongs to; null when it is no replay. */
export async function replayRootOf(db: SqlExecutor, threadId: string): Promise<string | null> {
  const [own] = await db.query<{ root_id: string }>(
    "SELECT root_id FROM thread_replays WHERE thread_id = $1",
    [threadId],
  );
  return own ? String(own.root_id) : null;
}

export interface ReplayProgressRows {
  /** The root's row with the number of threads in its tree; undefined when it has none. */
  root: Record<string, unknown> | undefined;
  /** The recorded divergences of the tree's threads (JSON as the driver returned it). */
  divergences: unknown[];
  /** The tree's model calls answered from the recording and live. */
  calls: { replayed: number; live: number };
}

/** What a replay's progress is computed from (three reads, in parallel). */
export async function replayProgressRows(db: SqlExecutor, rootId: string): Promise<ReplayProgressRows> {
  const [root, divergences, calls] = await Promise.all([
    db.query<Record<string, unknown>>(
      `SELECT source_thread_id, from_version, inputs, inputs_posted, finished_at,
              (SELECT count(*)::int FROM threads WHERE root_id = $1) AS threads
         FROM thread_replays WHERE thread_id = $1`,
      [rootId],
    ),
    db.query<{ divergence: unknown }>(
      "SELECT divergence FROM thread_replays WHERE root_id = $1 AND divergence IS NOT NULL",
      [rootId],
    ),
    db.query<{ replayed: number; live: number }>(
      `SELECT count(*) FILTER (WHERE m.replayed_from IS NOT NULL)::int AS replayed,
              count(*) FILTER (WHERE m.replayed_from IS NULL)::int AS live
         FROM model_calls m JOIN threads t ON t.id = m.thread_id WHERE t.root_id = $1`,
      [rootId],
    ),
  ]);
  return {
    root: root[0],
    divergences: divergences.map((row) => row.divergence),
    calls: { replayed: Number(calls[0]?.replayed ?? 0), live: Number(calls[0]?.live ?? 0) },
  };
}

/** The project's latest `limit` finished root threads that are not replays themselves, newest first. */
export async function latestReplayableRoots(
  db: SqlExecutor,
  { projectId, limit }: { projectId: string; limit: number },
): Promise<string[]> {
  const rows = await db.query<{ id: string }>(
    `SELECT t.id FROM threads t
      WHERE t.project_id = $1 AND t.parent_id IS NULL AND t.status IN ('idle', 'completed', 'failed', 'stopped')
        AND NOT EXISTS (SELECT 1 FROM thread_replays r WHERE r.thread_id = t.id)
      ORDER BY t.created_at DESC, t.id LIMIT $2`,
    [projectId, limit],
  );
  return rows.map((row) => String(row.id));
}

/** The id of the message the first external input posted to `threadId` became (its drain stored it). */
export async function firstInputMessageId(db: SqlExecutor, threadId: string): Promise<string | null> {
  const [first] = await db.query<{ message_id: string | null }>(
    `SELECT payload->>'messageId' AS message_id FROM inbox_items
      WHERE thread_id = $1 AND consumed_at IS NOT NULL
        AND (payload->>'external' = 'true' OR payload->>'fromHuman' = 'true')
        AND EXISTS (SELECT 1 FROM messages m WHERE m.thread_id = $1 AND m.id::text = payload->>'messageId')
      ORDER BY seq LIMIT 1`,
    [threadId],
  );
  return first?.message_id ?? null;
}
