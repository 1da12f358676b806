// Waking a thread's scheduling outside a status transition: marking it runnable (input waits for it
// and nothing else set the flag, as after the after_thread_created hook) and the work NOTIFY a
// creation sends in its transaction's deferred statements. The status transitions that set
// `runnable` themselves are in thread-lifecycle.ts.
import type { SqlExecutor, SqlStatement } from "@/lib/db/sql-client";
import { WORK_CHANNEL } from "./thread-store";

/** Marks the thread runnable (its status unchanged), in the caller's transaction. */
export async function markRunnable(tx: SqlExecutor, threadId: string): Promise<void> {
  await tx.query("UPDATE threads SET runnable = true WHERE id = $1", [threadId]);
}

/** The statement that tells every scheduler the thread has work (NOTIFY on WORK_CHANNEL), for a deferred send. */
export function workNotificationStatement(threadId: string): SqlStatement {
  return { text: "SELECT pg_notify($1, $2)", params: [WORK_CHANNEL, threadId] };
}
