// Queues an input for a thread under its row lock (spec queueMessage: durable and ordered; an idle
// thread starts running; a user-stopped thread keeps non-human input parked until a human writes).
import type { SqlExecutor } from "@/lib/db/sql-client";
import { TandemError } from "../errors";
import { appendEvents, type NewEvent } from "./event-log";
import { enqueue, type InboxItem, type InboxMessagePayload } from "./inbox";
import { threadEvent } from "./thread-events";
import { wakeForInput } from "./thread-lifecycle";
import type { ThreadRow } from "./thread-row";

export class ThreadTerminatedError extends TandemError {
  constructor(threadId: string, terminatedAt: number) {
    super(
      "terminated",
      "thread_terminated",
      `Thread ${threadId} is terminated (terminated_at=${terminatedAt}); it accepts no new work.`,
    );
  }
}

/** The caller holds `row`'s lock (lockThread) in `tx`. Returns null for a repeated idempotency key. */
export async function queueThreadInput(
  tx: SqlExecutor,
  row: ThreadRow,
  payload: InboxMessagePayload,
  idempotencyKey: string | null = null,
  /** Collects the events instead of appending them (the caller appends last in its transaction). */
  collect?: NewEvent[],
): Promise<InboxItem | null> {
  if (row.terminated_at !== null) throw new ThreadTerminatedError(row.id, row.terminated_at);
  const item = await enqueue(tx, row.id, payload, idempotencyKey);
  if (!item) return null;
  const updated = await wakeForInput(tx, row, payload);
  if (updated) {
    if (collect) collect.push(threadEvent(updated));
    else await appendEvents(tx, [threadEvent(updated)]);
  }
  return item;
}
