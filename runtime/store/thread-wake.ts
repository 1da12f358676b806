// Waking a thread's scheduling outside a status transition: marking it runnable (input waits for it
// and nothing else set the flag, as after the after_thread_created hook) and the work NOTIFY a
// creation sends in its transaction's deferred statements. The status transitions that set
// `runnable` themselves are in thread-lifecycle.ts.
import type { SqlExecutor } from "@/lib/db/sql-client";
import { WORK_CHANNEL } from "./thread-store";

/** Marks the thread runnable (its status unchanged), in the caller's transaction. */
export async function markRunnable(tx: SqlExecutor, threadId: string): Promise<void> {
  await tx.query("UPDATE threads SET runnable = true WHERE id = $1", [threadId]);
}

/** Tells every scheduler the thread has work (NOTIFY on WORK_CHANNEL), sent with the transaction's commit (deferred). */
export async function deferWorkNotification(tx: SqlExecutor, threadId: string): Promise<void> {
  await tx.defer("SELECT pg_notify($1, $2)", [WORK_CHANNEL, threadId]);
}
