// Queues an input for a thread under its row lock (spec queueMessage: durable and ordered; an idle
// thread starts running; a user-stopped thread keeps non-human input parked until a human writes).
import type { SqlExecutor } from "@/lib/db/sql-client";
import { TandemError } from "../errors";
import { appendEvents, type NewEvent } from "./event-log";
import { enqueue, type InboxItem, type InboxMessagePayload } from "./inbox";
import { threadEvent } from "./thread-events";
import type { ThreadRow } from "./thread-row";
import { updateThread } from "./thread-store";

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
  const parked = row.user_stopped && !payload.fromHuman;
  if (row.status !== "running" && row.status !== "queued" && !parked) {
    const updated = await updateThread(tx, row.id, { status: "queued" });
    if (collect) collect.push(threadEvent(updated));
    else await appendEvents(tx, [threadEvent(updated)]);
  }
  return item;
}
