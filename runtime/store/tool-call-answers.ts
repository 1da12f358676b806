// Whether a tool call of a thread has its answer: a `tool` message with the call's id (a blocking
// subagent call answered by its child's report, or answered otherwise, by a user stop).
import type { SqlExecutor } from "@/lib/db/sql-client";

export async function isToolCallAnswered(
  db: SqlExecutor,
  call: { threadId: string; callId: string },
): Promise<boolean> {
  const rows = await db.query(
    "SELECT 1 FROM messages WHERE thread_id = $1 AND role = 'tool' AND tool_call_id = $2 LIMIT 1",
    [call.threadId, call.callId],
  );
  return rows.length > 0;
}
