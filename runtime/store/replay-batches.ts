// "Replay runs" batches (docs/live.md "Replay"): a project page's replay of its latest runs is one
// batch row, and each replayed root it started names it (thread_replays.batch_id), so the page reads
// the batch's progress and results back from the server, also after a reload.
import type { SqlExecutor } from "@/lib/db/sql-client";
import { nowMicroseconds } from "./thread-row";

export interface SkippedRun {
  thread_id: string;
  reason: string;
  /** The run's agent, name and creation time, so the page names it as the run list does. */
  agent_id?: string;
  name?: string | null;
  created_at?: number;
}

export interface ReplayBatchRow {
  id: string;
  from_version: "same" | "latest";
  created_at: number;
  skipped: SkippedRun[];
  /** The batch's replays in the order they started, each with the run it replays. */
  replays: { thread_id: string; source: { id: string; name: string | null; agent_id: string } }[];
}

const json = (value: unknown) => (typeof value === "string" ? JSON.parse(value) : value);

export async function insertReplayBatch(
  db: SqlExecutor,
  batch: { id: string; projectId: string; fromVersion: "same" | "latest" },
): Promise<void> {
  await db.query(
    "INSERT INTO replay_batches (id, project_id, from_version, created_at) VALUES ($1, $2, $3, $4)",
    [batch.id, batch.projectId, batch.fromVersion, nowMicroseconds()],
  );
}

/** Names the batch on a replay root it started and keeps the runs it skipped. */
export async function recordBatchReplay(
  db: SqlExecutor,
  batchId: string,
  replayRootId: string,
): Promise<void> {
  await db.query("UPDATE thread_replays SET batch_id = $1 WHERE thread_id = $2", [batchId, replayRootId]);
}

export async function recordBatchSkipped(
  db: SqlExecutor,
  batchId: string,
  skipped: readonly SkippedRun[],
): Promise<void> {
  await db.query("UPDATE replay_batches SET skipped = $2::text::jsonb WHERE id = $1", [
    batchId,
    JSON.stringify(skipped),
  ]);
}

/** The project's latest batch with its replays (a replay whose thread was deleted is left out). */
export async function latestReplayBatch(db: SqlExecutor, projectId: string): Promise<ReplayBatchRow | null> {
  const [batch] = await db.query<Record<string, unknown>>(
    `SELECT id, from_version, created_at, skipped FROM replay_batches
      WHERE project_id = $1 ORDER BY created_at DESC, id LIMIT 1`,
    [projectId],
  );
  if (!batch) return null;
  const replays = await db.query<Record<string, unknown>>(
    `SELECT r.thread_id, r.source_thread_id, s.name AS source_name,
            COALESCE(s.agent_name, '') AS source_agent
       FROM thread_replays r LEFT JOIN threads s ON s.id = r.source_thread_id
      WHERE r.batch_id = $1 ORDER BY r.created_at, r.thread_id`,
    [String(batch.id)],
  );
  return {
    id: String(batch.id),
    from_version: batch.from_version === "same" ? "same" : "latest",
    created_at: Number(batch.created_at),
    skipped: (json(batch.skipped) as SkippedRun[]) ?? [],
    replays: replays.map((row) => ({
      thread_id: String(row.thread_id),
      source: {
        id: String(row.source_thread_id),
        name: row.source_name === null || row.source_name === undefined ? null : String(row.source_name),
        agent_id: String(row.source_agent),
      },
    })),
  };
}
