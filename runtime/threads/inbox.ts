// A thread's durable inbox. Every input (a human message, a queued message, a child's report) is a
// row here, committed before the API answers; the step loop drains it in order at the start of a
// step. An idempotency key makes a redelivered input a no-op.
import { randomUUID } from "node:crypto";
import { z } from "zod";
import type { SqlExecutor } from "@/lib/db/sql-client";
import { AttachmentRefSchema } from "../engine/messages";
import { nowMicroseconds } from "./thread-row";
import { notifyWork } from "./thread-store";

export const InboxMessagePayloadSchema = z.object({
  role: z.enum(["user", "assistant"]),
  content: z.string(),
  attachments: z.array(AttachmentRefSchema).default([]),
  silent: z.boolean().default(false),
  metadata: z.record(z.string(), z.unknown()).default({}),
  /** Set when the message comes from a human (ai_human side B), not from a parent or a hook. */
  fromHuman: z.boolean().default(false),
  messageId: z.string(),
});
export type InboxMessagePayload = z.infer<typeof InboxMessagePayloadSchema>;

export interface InboxItem {
  id: string;
  seq: number;
  kind: "message";
  payload: InboxMessagePayload;
}

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
  await tx.query("UPDATE threads SET runnable = true WHERE id = $1", [threadId]);
  await notifyWork(tx, threadId);
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
  return rows
    .map((row) => ({
      id: String(row.id),
      seq: Number(row.seq),
      kind: "message" as const,
      payload: InboxMessagePayloadSchema.parse(
        typeof row.payload === "string" ? JSON.parse(row.payload) : row.payload,
      ),
    }))
    .sort((left, right) => left.seq - right.seq);
}

export async function hasPendingInput(db: SqlExecutor, threadId: string): Promise<boolean> {
  const rows = await db.query(
    "SELECT 1 FROM inbox_items WHERE thread_id = $1 AND consumed_at IS NULL LIMIT 1",
    [threadId],
  );
  return rows.length > 0;
}
