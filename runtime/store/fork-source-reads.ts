// What a fork reads of the source's children (runtime/services/fork-subtree.ts): the children spawned
// by the copied calls with all their descendants, and their rows locked FOR SHARE until the fork
// commits, so none of them moves meanwhile.
import type { SqlExecutor } from "@/lib/db/sql-client";
import { THREAD_COLUMNS, type ThreadRow, toThreadRow } from "./thread-row";

/** The children of `parentId` spawned under one of `spawnKeys` and all their descendants (ids). */
export async function descendantsOfSpawns(
  tx: SqlExecutor,
  { parentId, spawnKeys }: { parentId: string; spawnKeys: readonly string[] },
): Promise<string[]> {
  const found = await tx.query<{ id: string }>(
    `WITH RECURSIVE tree AS (
       SELECT s.child_id AS id FROM subagents s WHERE s.parent_id = $1 AND s.spawn_call_id = ANY($2::text[])
       UNION ALL SELECT t.id FROM threads t JOIN tree ON t.parent_id = tree.id
     ) SELECT id FROM tree`,
    [parentId, spawnKeys],
  );
  return found.map((row) => String(row.id));
}

/** The threads' rows, locked FOR SHARE (in id order) until the transaction ends. */
export async function lockThreadsForShare(
  tx: SqlExecutor,
  threadIds: readonly string[],
): Promise<ThreadRow[]> {
  const rows = await tx.query<Record<string, unknown>>(
    `SELECT ${THREAD_COLUMNS} FROM threads WHERE id = ANY($1::uuid[]) ORDER BY id FOR SHARE`,
    [threadIds],
  );
  return rows.map(toThreadRow);
}
