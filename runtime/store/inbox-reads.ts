// Reads of a thread's inbox for its step: whether a human's input waits, the input waiting in
// order, and the input drained so far in drain order (a replay compares its drains with them).
import type { SqlExecutor } from "@/lib/db/sql-client";

/** Whether a human's input waits in the thread's inbox (a user-stopped thread runs again for it). */
export async function hasHumanInputWaiting(tx: SqlExecutor, threadId: string): Promise<boolean> {
  const human = await tx.query(
    "SELECT 1 FROM inbox_items WHERE thread_id = $1 AND consumed_at IS NULL AND (payload->>'fromHuman')::boolean LIMIT 1",
    [threadId],
  );
  return human.length > 0;
}

/** The thread's input waiting to be drained, in order (raw payloads). */
export function waitingInputOf(
  db: SqlExecutor,
  threadId: string,
): Promise<{ id: string; payload: unknown }[]> {
  return db.query<{ id: string; payload: unknown }>(
    "SELECT id, payload FROM inbox_items WHERE thread_id = $1 AND consumed_at IS NULL ORDER BY seq",
    [threadId],
  );
}

/** The thread's drained input, in drain order (raw payloads, each with its drain's time). */
export function drainedInputOf(
  db: SqlExecutor,
  threadId: string,
): Promise<{ payload: unknown; consumed_at: string | number }[]> {
  return db.query<{ payload: unknown; consumed_at: string | number }>(
    "SELECT payload, consumed_at FROM inbox_items WHERE thread_id = $1 AND consumed_at IS NOT NULL ORDER BY consumed_at, seq",
    [threadId],
  );
}
