// How many successful model calls threads made per side and model: what a fork's copy of a history
// stands for (ExecutionState.copiedModelCalls), so scripted models in the copy count on from there.
import type { SqlExecutor } from "@/lib/db/sql-client";

/** Successful calls per `"<side>|<model>"` (the key runtime/engine/step/model-calls.ts counts by). */
export type ModelCallCounts = Record<string, number>;

/** The sum of two counts, key by key. */
export function addModelCallCounts(
  left: ModelCallCounts | undefined,
  right: ModelCallCounts,
): ModelCallCounts {
  const sum: ModelCallCounts = { ...(left ?? {}) };
  for (const [key, count] of Object.entries(right)) sum[key] = (sum[key] ?? 0) + count;
  return sum;
}

/**
 * Successful model calls of each thread, per side and model, in one statement; of `cut.threadId`
 * only the calls started at or before `cut.startedThrough` (microseconds: a call's row holds its
 * start, before the reply message it wrote, and the next call starts after that reply is committed).
 */
export async function modelCallCounts(
  db: SqlExecutor,
  threadIds: readonly string[],
  cut?: { threadId: string; startedThrough: number },
): Promise<Map<string, ModelCallCounts>> {
  const counts = new Map<string, ModelCallCounts>(threadIds.map((id) => [id, {}]));
  if (threadIds.length === 0) return counts;
  const rows = await db.query<{ thread_id: string; side: string; model_name: string; count: number }>(
    `SELECT thread_id, side, model_name, count(*)::int AS count FROM model_calls
     WHERE thread_id = ANY($1::uuid[]) AND error IS NULL
       AND ($2::uuid IS NULL OR thread_id <> $2::uuid OR created_at <= $3::bigint)
     GROUP BY thread_id, side, model_name`,
    [[...threadIds], cut?.threadId ?? null, cut === undefined ? null : String(cut.startedThrough)],
  );
  for (const row of rows) {
    const thread = counts.get(String(row.thread_id));
    if (thread) thread[`${row.side}|${row.model_name}`] = Number(row.count);
  }
  return counts;
}
