// A thread's durable inbox. Every input (a human message, a queued message, a child's report) is a
// row here, committed before the API answers; the step loop drains it in order at the start of a
// step. An idempotency key makes a redelivered input a no-op.
import { randomUUID } from "node:crypto";
import type { SqlExecutor } from "@/lib/db/sql-client";
import { type InboxItem, type InboxMessagePayload, toInboxItem } from "./inbox-item";
import { nowMicroseconds } from "./thread-row";
import { wakeThread } from "./thread-scheduling";
import { STALE_THREAD_MESSAGE } from "./thread-store";

export { type InboxItem, type InboxMessagePayload, InboxMessagePayloadSchema } from "./inbox-item";

/** Inserts an input row only (the caller makes the thread runnable); null for a repeated key. */
export async function insertInboxItem(
  tx: SqlExecutor,
  threadId: string,
  payload: InboxMessagePayload,
  idempotencyKey: string | null = null,
): Promise<InboxItem | null> {
  const id = randomUUID();
  const rows = await tx.query<{ seq: string | number }>(
    `INSERT INTO inbox_items (id, thread_id, kind, payload, idempotency_key, created_at)
     VALUES ($1, $2, 'message', $3::text::jsonb, $4, $5)
     ON CONFLICT (idempotency_key) DO NOTHING
     RETURNING seq`,
    [id, threadId, JSON.stringify(payload), idempotencyKey, nowMicroseconds()],
  );
  return rows[0] ? { id, seq: Number(rows[0].seq), kind: "message", payload } : null;
}

/**
 * Inserts an input row without reading anything back (pipelined, combinable into a one-statement
 * commit); a repeated idempotency key inserts nothing. The caller makes the thread runnable.
 */
export async function insertInboxItemDeferred(
  tx: SqlExecutor,
  threadId: string,
  payload: InboxMessagePayload,
  idempotencyKey: string,
): Promise<void> {
  await tx.defer(
    `INSERT INTO inbox_items (id, thread_id, kind, payload, idempotency_key, created_at)
     VALUES ($1, $2, 'message', $3::text::jsonb, $4, $5)
     ON CONFLICT (idempotency_key) DO NOTHING`,
    [randomUUID(), threadId, JSON.stringify(payload), idempotencyKey, nowMicroseconds()],
  );
}

/**
 * Queues an input without reading anything back (pipelined: it goes out with the transaction's next
 * statement or its COMMIT), for a thread this transaction created runnable (`createThread`).
 */
export async function enqueueDeferred(
  tx: SqlExecutor,
  threadId: string,
  payload: InboxMessagePayload,
): Promise<void> {
  await tx.defer(
    `INSERT INTO inbox_items (id, thread_id, kind, payload, created_at)
     VALUES ($1, $2, 'message', $3::text::jsonb, $4)`,
    [randomUUID(), threadId, JSON.stringify(payload), nowMicroseconds()],
  );
}

/**
 * Records an input consumed as it arrives (deferred, like `enqueueDeferred`): for a thread created
 * with its first message already stored (`createRunningThread`). The inbox stays the record of every
 * input and of the drain that took it, which a replay reads (`store/replay-inputs.ts`).
 */
export async function recordConsumedDeferred(
  tx: SqlExecutor,
  threadId: string,
  payload: InboxMessagePayload,
  at: number,
): Promise<void> {
  await tx.defer(
    `INSERT INTO inbox_items (id, thread_id, kind, payload, created_at, consumed_at)
     VALUES ($1, $2, 'message', $3::text::jsonb, $4, $4)`,
    [randomUUID(), threadId, JSON.stringify(payload), at],
  );
}

/**
 * `insertInboxItem` for a thread that may have been terminated meanwhile: one statement that inserts
 * nothing (null) unless the thread exists and is not terminated.
 */
export async function insertInboxItemUnlessTerminated(
  tx: SqlExecutor,
  threadId: string,
  payload: InboxMessagePayload,
  idempotencyKey: string,
): Promise<InboxItem | null> {
  const id = randomUUID();
  const rows = await tx.query<{ seq: string | number }>(
    `INSERT INTO inbox_items (id, thread_id, kind, payload, idempotency_key, created_at)
     SELECT $1, $2, 'message', $3::text::jsonb, $4, $5
     WHERE EXISTS (SELECT 1 FROM threads WHERE id = $2 AND terminated_at IS NULL)
     ON CONFLICT (idempotency_key) DO NOTHING
     RETURNING seq`,
    [id, threadId, JSON.stringify(payload), idempotencyKey, nowMicroseconds()],
  );
  return rows[0] ? { id, seq: Number(rows[0].seq), kind: "message", payload } : null;
}

/** Queues an input; returns null when the idempotency key was seen before. Marks the thread runnable. */
export async function enqueue(
  tx: SqlExecutor,
  threadId: string,
  payload: InboxMessagePayload,
  idempotencyKey: string | null = null,
): Promise<InboxItem | null> {
  const item = await insertInboxItem(tx, threadId, payload, idempotencyKey);
  if (!item) return null;
  await wakeThread(tx, threadId);
  return item;
}

/** Takes every pending input of the thread, oldest first, and marks them consumed. */
export async function drainInbox(tx: SqlExecutor, threadId: string): Promise<InboxItem[]> {
  const rows = await tx.query<Record<string, unknown>>(
    `UPDATE inbox_items SET consumed_at = $2
     WHERE id IN (SELECT id FROM inbox_items WHERE thread_id = $1 AND consumed_at IS NULL ORDER BY seq FOR UPDATE)
     RETURNING id, seq, kind, payload`,
    [threadId, nowMicroseconds()],
  );
  return rows.map(toInboxItem).sort((left, right) => left.seq - right.seq);
}

/** `drainInbox` for some of the waiting inputs only (a replay's gate, runtime/engine/step/replay-gate.ts). */
export async function drainInboxItems(
  tx: SqlExecutor,
  threadId: string,
  ids: readonly string[],
): Promise<InboxItem[]> {
  const rows = await tx.query<Record<string, unknown>>(
    `UPDATE inbox_items SET consumed_at = $3
     WHERE id IN (SELECT id FROM inbox_items WHERE thread_id = $1 AND consumed_at IS NULL AND id = ANY($2::uuid[]) ORDER BY seq FOR UPDATE)
     RETURNING id, seq, kind, payload`,
    [threadId, ids, nowMicroseconds()],
  );
  return rows.map(toInboxItem).sort((left, right) => left.seq - right.seq);
}

/**
 * Marks inputs read earlier (`ThreadForStep.pendingInput`, with the thread row whose version the
 * transaction checks) consumed, without reading them again: pipelined, combinable into a
 * one-statement commit. Only the thread's lease holder consumes input, under the thread's version
 * check; should an item have been consumed meanwhile all the same, the statement raises the stale
 * thread error (the caller retries under the row lock) rather than deliver it twice.
 */
export async function consumeInboxItems(tx: SqlExecutor, items: readonly InboxItem[]): Promise<void> {
  if (items.length === 0) return;
  // One item (most drains) by `id = $1`: by `id = ANY($1)`, the plan Postgres caches for the
  // statement estimates ten rows for an array of unknown length, costs more than a plan made for the
  // one id given, and is never kept, so the whole commit was planned again on every drain (0.4–0.7 ms
  // of the server's CPU each in bench 10a, more than the statement took to run).
  const one = items.length === 1;
  const text = `UPDATE inbox_items
     SET consumed_at = CASE WHEN tandem_expect(consumed_at IS NULL, '${STALE_THREAD_MESSAGE} ' || thread_id::text)
       THEN $2::bigint END
     WHERE ${one ? "id = $1::uuid" : "id = ANY($1::uuid[])"}`;
  const params = [one ? items[0]!.id : items.map((item) => item.id), nowMicroseconds()];
  await tx.defer(text, params);
}

export async function hasPendingInput(db: SqlExecutor, threadId: string): Promise<boolean> {
  const rows = await db.query(
    "SELECT 1 FROM inbox_items WHERE thread_id = $1 AND consumed_at IS NULL LIMIT 1",
    [threadId],
  );
  return rows.length > 0;
}
