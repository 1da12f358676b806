// The work NOTIFY a thread creation sends with its transaction's deferred statements (a thread
// inserted runnable that no process here takes: every scheduler is told it has work). Making a
// thread runnable is a transition: `wakeThread` (thread-scheduling.ts) or a status transition of
// thread-lifecycle.ts.
import type { SqlExecutor } from "@/lib/db/sql-client";
import { WORK_CHANNEL } from "./thread-store";

/** Tells every scheduler the thread has work (NOTIFY on WORK_CHANNEL), sent with the transaction's commit (deferred). */
export async function deferWorkNotification(tx: SqlExecutor, threadId: string): Promise<void> {
  await tx.defer("SELECT pg_notify($1, $2)", [WORK_CHANNEL, threadId]);
}
