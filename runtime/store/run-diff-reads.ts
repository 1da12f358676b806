// What a diff of two runs reads (runtime/services/thread-diff.ts, API.md "Replay, fork and diff"): a
// run's threads (the root and every descendant, by level), their top-level messages, the registry
// links that pair children by spawn call, and the model calls' count and latency over the run.
import type { SqlExecutor } from "@/lib/db/sql-client";

/** The root and its descendants by level (at most `limit`), with the columns a diff shows; empty when no such root. */
export async function runThreadRows(
  db: SqlExecutor,
  { rootId, limit }: { rootId: string; limit: number },
): Promise<Record<string, unknown>[]> {
  return db.query<Record<string, unknown>>(
    `WITH RECURSIVE subtree AS (
       SELECT id, parent_id, 0 AS level FROM threads WHERE id = $1
       UNION ALL SELECT t.id, t.parent_id, s.level + 1 FROM threads t JOIN subtree s ON t.parent_id = s.id
     )
     SELECT t.id, t.parent_id, t.project_id, t.agent_name, t.name, t.status, t.input_tokens, t.output_tokens,
            t.cost_usd, t.created_at, t.updated_at, t.finished_at
     FROM subtree s JOIN threads t ON t.id = s.id ORDER BY s.level LIMIT ${Math.trunc(limit)}`,
    [rootId],
  );
}

/** The top-level messages of the threads, by thread then seq (at most `limit`). */
export async function topLevelMessageRows(
  db: SqlExecutor,
  { threadIds, limit }: { threadIds: readonly string[]; limit: number },
): Promise<Record<string, unknown>[]> {
  return db.query<Record<string, unknown>>(
    `SELECT id, thread_id, seq, role, side, content, name, tool_calls, tool_call_id, tool_status, silent, attachments
     FROM messages WHERE thread_id = ANY($1::uuid[]) AND depth = 0 ORDER BY thread_id, seq LIMIT ${Math.trunc(limit)}`,
    [threadIds],
  );
}

export interface SpawnLink {
  child_id: string;
  parent_id: string;
  spawn_call_id: string;
  created_at: unknown;
}

/** The registry links of the children of these threads. */
export async function spawnLinksOf(db: SqlExecutor, parentIds: readonly string[]): Promise<SpawnLink[]> {
  return db.query<SpawnLink>(
    "SELECT child_id, parent_id, spawn_call_id, created_at FROM subagents WHERE parent_id = ANY($1::uuid[])",
    [parentIds],
  );
}

/** How many model calls these threads made and their summed latency (ms). */
export async function modelCallTotalsOf(
  db: SqlExecutor,
  threadIds: readonly string[],
): Promise<{ count: number; latencyMs: number }> {
  const [row] = await db.query<{ count: unknown; latency: unknown }>(
    "SELECT count(*)::int AS count, COALESCE(sum(latency_ms), 0)::bigint AS latency FROM model_calls WHERE thread_id = ANY($1::uuid[])",
    [threadIds],
  );
  return { count: Number(row?.count ?? 0), latencyMs: Number(row?.latency ?? 0) };
}
