// What a spawn of subagent children reads before it writes (subagents/spawn-child.ts): the parent's
// row under a share lock, and the counts a batch of one-off children is checked against.
import type { SqlExecutor } from "@/lib/db/sql-client";

/** The parent as a spawn needs it. */
export interface SpawningParent {
  id: string;
  rootId: string;
  depth: number;
  projectId: string;
  projectVersion: number;
  terminatedAt: number | null;
  /** The source thread it replays, if it is a replay. */
  replayOf: string | null;
}

/**
 * The parent's row FOR SHARE: a concurrent terminate of the parent waits for the spawn's commit and
 * then sees the children. Null when the parent is gone.
 */
export async function lockParentForSpawn(tx: SqlExecutor, parentId: string): Promise<SpawningParent | null> {
  const [parent] = await tx.query<Record<string, unknown>>(
    "SELECT id, root_id, depth, project_id, project_version, terminated_at, execution->>'replayOf' AS replay_of FROM threads WHERE id = $1 FOR SHARE",
    [parentId],
  );
  if (!parent) return null;
  return {
    id: String(parent.id),
    rootId: String(parent.root_id),
    depth: Number(parent.depth),
    projectId: String(parent.project_id),
    projectVersion: Number(parent.project_version),
    terminatedAt:
      parent.terminated_at === null || parent.terminated_at === undefined
        ? null
        : Number(parent.terminated_at),
    replayOf: typeof parent.replay_of === "string" ? parent.replay_of : null,
  };
}

/** The counts a batch of one-off spawns is checked against (`spawnOneOffBatch`), in one statement. */
export interface SpawnBatchCounts {
  /** The parent's children at work (queued or running). */
  children: number;
  /** Threads at work across the database. */
  everywhere: number;
  /** Children these call ids spawned before (a re-run). */
  spawned: number;
  /** Variables requests these call ids stored before (a re-run). */
  deferred: number;
}

export async function spawnBatchCounts(
  tx: SqlExecutor,
  batch: { parentId: string; callIds: readonly string[] },
): Promise<SpawnBatchCounts | null> {
  const [counts] = await tx.query<Record<string, number>>(
    `SELECT (SELECT count(*)::int FROM threads WHERE parent_id = $1 AND status IN ('queued', 'running')) AS children,
              (SELECT count(*)::int FROM threads WHERE status IN ('queued', 'running')) AS everywhere,
              (SELECT count(*)::int FROM subagents WHERE parent_id = $1 AND spawn_call_id = ANY($2)) AS spawned,
              (SELECT count(*)::int FROM subagent_env_requests WHERE parent_id = $1 AND call_id = ANY($2)) AS deferred`,
    [batch.parentId, [...batch.callIds]],
  );
  if (!counts) return null;
  return {
    children: Number(counts.children),
    everywhere: Number(counts.everywhere),
    spawned: Number(counts.spawned),
    deferred: Number(counts.deferred),
  };
}
