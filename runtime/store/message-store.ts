// Messages of a thread: insert (under the thread's row lock, so sequence numbers never collide),
// read in order, and the API shape (the spec's message model; tool_calls JSON-encoded as in the spec).

import { randomUUID } from "node:crypto";
import type { z } from "zod";
import type { MessageView, MessageViewSchema } from "@/lib/contracts/message";
import type { SqlExecutor } from "@/lib/db/sql-client";
import type { MessageTotals } from "./message-totals";
import type { AttachmentRef, Side, StoredMessage, StoredToolCall } from "./messages";
import { nowMicroseconds } from "./thread-row";

export interface NewMessage {
  role: StoredMessage["role"];
  side: Side | null;
  content: string | null;
  name?: string | null;
  tool_calls?: StoredToolCall[] | null;
  tool_call_id?: string | null;
  tool_status?: "success" | "error" | null;
  parent_id?: string | null;
  depth?: number;
  silent?: boolean;
  metadata?: Record<string, unknown>;
  subagent_id?: string | null;
  attachments?: AttachmentRef[];
  prompt?: string | null;
  id?: string;
}

const MESSAGE_COLUMNS = `id, seq, role, side, content, name, tool_calls, tool_call_id, tool_status, parent_id, depth,
  silent, metadata, subagent_id, attachments, prompt, created_at`;

function toStoredMessage(raw: Record<string, unknown>): StoredMessage {
  const json = (value: unknown) => (typeof value === "string" ? JSON.parse(value) : value);
  return {
    ...(raw as unknown as StoredMessage),
    seq: Number(raw.seq),
    tool_calls: (json(raw.tool_calls) ?? null) as StoredToolCall[] | null,
    metadata: (json(raw.metadata) ?? {}) as Record<string, unknown>,
    attachments: (json(raw.attachments) ?? []) as AttachmentRef[],
    created_at: Number(raw.created_at),
  };
}

/**
 * Inserts messages in order, numbered from the thread's message_seq (one statement reserves the
 * numbers, one inserts every row). The caller holds the thread's row lock (see lockThread).
 */
export async function insertMessages(
  tx: SqlExecutor,
  threadId: string,
  messages: NewMessage[],
): Promise<StoredMessage[]> {
  if (messages.length === 0) return [];
  const { values, rows, createdAt } = messageValues(messages, 3);
  // One statement: the numbers are reserved on the thread row and the rows inserted with them.
  const inserted = await tx.query(
    `WITH reserved AS (
       UPDATE threads SET message_seq = message_seq + $2::int WHERE id = $1::uuid RETURNING message_seq - $2::int AS base)
     ${insertFromReserved(rows)}
     RETURNING ${MESSAGE_COLUMNS}`,
    [threadId, messages.length, createdAt, ...values] as never[],
  );
  if (inserted.length !== messages.length) throw new Error(`Thread ${threadId} does not exist`);
  return inserted
    .map((row) => toStoredMessage(row as Record<string, unknown>))
    .sort((left, right) => left.seq - right.seq);
}

/**
 * The same insert when the caller knows the thread's last seq (it holds the row lock and counted
 * every message of its transaction): sent without waiting (SqlExecutor.defer), and the stored
 * messages are built here. The thread's `message_seq` is NOT moved: the caller sets it to the last
 * seq later in the same transaction (usually with the thread update its step makes anyway). Should
 * the numbering have moved after all, the (thread_id, seq) key refuses the rows and the
 * transaction fails rather than writing misnumbered messages.
 */
export async function insertMessagesAfter(
  tx: SqlExecutor,
  threadId: string,
  lastSeq: number,
  messages: NewMessage[],
): Promise<StoredMessage[]> {
  if (messages.length === 0) return [];
  const { values, rows, createdAt, ids } = messageValues(messages, 4);
  await tx.defer(
    `WITH reserved AS (SELECT $4::int AS base, $2::int AS count)
     ${insertFromReserved(rows)}`,
    [threadId, messages.length, createdAt, lastSeq, ...values] as never[],
  );
  return messages.map((message, index) =>
    storedMessageRow(message, ids[index]!, lastSeq + index + 1, createdAt),
  );
}

/**
 * A new message as it reads once stored: `message` with the defaults the insert writes for what it
 * leaves out, under the given id, seq and creation time.
 */
export function storedMessageRow(
  message: NewMessage,
  id: string,
  seq: number,
  createdAt: number,
): StoredMessage {
  return {
    id,
    seq,
    role: message.role,
    side: message.side,
    content: message.content,
    name: message.name ?? null,
    tool_calls: message.tool_calls ?? null,
    tool_call_id: message.tool_call_id ?? null,
    tool_status: message.tool_status ?? null,
    parent_id: message.parent_id ?? null,
    depth: message.depth ?? 0,
    silent: message.silent ?? false,
    metadata: message.metadata ?? {},
    subagent_id: message.subagent_id ?? null,
    attachments: message.attachments ?? [],
    prompt: message.prompt ?? null,
    created_at: createdAt,
  };
}

/** The VALUES rows (parameters from `$offset + 1` on) of a message insert. */
function messageValues(messages: NewMessage[], offset: number) {
  const createdAt = nowMicroseconds();
  const values: unknown[] = [];
  const ids: string[] = [];
  const rows = messages.map((message, index) => {
    const id = message.id ?? randomUUID();
    ids.push(id);
    values.push(
      id,
      message.role,
      message.side,
      message.content,
      message.name ?? null,
      message.tool_calls ? JSON.stringify(message.tool_calls) : null,
      message.tool_call_id ?? null,
      message.tool_status ?? null,
      message.parent_id ?? null,
      message.depth ?? 0,
      message.silent ?? false,
      JSON.stringify(message.metadata ?? {}),
      message.subagent_id ?? null,
      JSON.stringify(message.attachments ?? []),
      message.prompt ?? null,
    );
    const p = (at: number) => `$${offset + index * 15 + at}`;
    return `(${index + 1}, ${p(1)}::uuid, ${p(2)}::text, ${p(3)}::text, ${p(4)}::text, ${p(5)}::text, ${p(6)}::text::jsonb, ${p(7)}::text, ${p(8)}::text, ${p(9)}::uuid, ${p(10)}::int, ${p(11)}::boolean, ${p(12)}::text::jsonb, ${p(13)}::uuid, ${p(14)}::text::jsonb, ${p(15)}::text)`;
  });
  return { values, rows, createdAt, ids };
}

/** INSERT … SELECT of the message rows, numbered from the `reserved` CTE ($1 thread, $3 created_at). */
function insertFromReserved(rows: string[]): string {
  return `INSERT INTO messages (id, thread_id, seq, role, side, content, name, tool_calls, tool_call_id, tool_status,
       parent_id, depth, silent, metadata, subagent_id, attachments, prompt, created_at)
     SELECT v.id, $1::uuid, reserved.base + v.position, v.role, v.side, v.content, v.name, v.tool_calls, v.tool_call_id,
       v.tool_status, v.parent_id, v.depth, v.silent, v.metadata, v.subagent_id, v.attachments, v.prompt, $3::bigint
     FROM reserved, (VALUES ${rows.join(", ")}) AS v(position, id, role, side, content, name, tool_calls, tool_call_id,
       tool_status, parent_id, depth, silent, metadata, subagent_id, attachments, prompt)`;
}

/**
 * The first message of several new threads in one statement (seq 1 each); their rows were created
 * with message_seq = 1 in the same transaction.
 */
export async function insertFirstMessages(
  tx: SqlExecutor,
  items: readonly { threadId: string; message: NewMessage }[],
): Promise<StoredMessage[]> {
  if (items.length === 0) return [];
  const createdAt = nowMicroseconds();
  const values: unknown[] = [];
  const rows = items.map(({ threadId, message }, index) => {
    values.push(
      message.id ?? randomUUID(),
      threadId,
      message.role,
      message.side,
      message.content,
      JSON.stringify(message.metadata ?? {}),
      JSON.stringify(message.attachments ?? []),
      message.silent ?? false,
      createdAt,
    );
    const p = (offset: number) => `$${index * 9 + offset}`;
    return `(${p(1)}::uuid, ${p(2)}::uuid, 1, ${p(3)}, ${p(4)}, ${p(5)}, ${p(6)}::text::jsonb, ${p(7)}::text::jsonb, ${p(8)}::boolean, ${p(9)}::bigint)`;
  });
  const inserted = await tx.query(
    `INSERT INTO messages (id, thread_id, seq, role, side, content, metadata, attachments, silent, created_at)
     VALUES ${rows.join(", ")}
     RETURNING ${MESSAGE_COLUMNS}`,
    values as never[],
  );
  return inserted.map((row) => toStoredMessage(row as Record<string, unknown>));
}

/**
 * Marks the history as changed in place (an update or delete), so cached copies are re-read and
 * remembered counts of it are made anew (history_rewritten_seq, runtime/store/message-totals.ts).
 */
export async function bumpMessageSeq(tx: SqlExecutor, threadId: string): Promise<void> {
  await tx.query(
    "UPDATE threads SET message_seq = message_seq + 1, history_rewritten_seq = message_seq + 1 WHERE id = $1",
    [threadId],
  );
}

export async function readMessages(
  db: SqlExecutor,
  threadId: string,
  options: { includeSilent?: boolean; limit?: number; offset?: number; maxDepth?: number } = {},
): Promise<{ messages: StoredMessage[]; total: number }> {
  const where = messageFilter(options);
  const [{ total }] = (await db.query<{ total: number }>(
    `SELECT count(*)::int AS total FROM messages WHERE ${where}`,
    [threadId],
  )) as [{ total: number }];
  const limit = options.limit ?? 1_000_000;
  const rows = await db.query(
    `SELECT ${MESSAGE_COLUMNS} FROM messages WHERE ${where} ORDER BY seq LIMIT $2 OFFSET $3`,
    [threadId, limit, options.offset ?? 0],
  );
  return { messages: rows.map((row) => toStoredMessage(row as Record<string, unknown>)), total };
}

/**
 * A page of a thread's message list with its total, in one statement: the thread's row, the total
 * counted from where `totals` counted it last (message-totals.ts) and the page, read along the
 * (thread_id, seq) key in O(offset + limit) however long the thread is (migration
 * history_rewritten_seq). Null when the thread does not exist.
 */
export async function readMessageList(
  db: SqlExecutor,
  threadId: string,
  options: { includeSilent: boolean; limit?: number; offset?: number; maxDepth: number },
  totals: MessageTotals,
): Promise<{ messages: StoredMessage[]; total: number } | null> {
  const filter = {
    includeSilent: options.includeSilent,
    maxDepth: Math.max(0, Math.floor(options.maxDepth)),
  };
  const base = totals.base(threadId, filter);
  const rows = await db.query<Record<string, unknown>>(
    `SELECT t.message_seq AS list_message_seq, t.from_seq AS list_from_seq, t.counted AS list_counted,
       t.top AS list_top, ${PAGE_COLUMNS}
     FROM tandem_message_total($1::uuid, $2::boolean, $3::int, $4::int) AS t
     LEFT JOIN LATERAL tandem_message_page($1::uuid, $2::boolean, $3::int, $5::bigint, $6::bigint) AS p ON true`,
    [
      threadId,
      filter.includeSilent,
      filter.maxDepth,
      base?.seq ?? 0,
      options.limit ?? 1_000_000,
      options.offset ?? 0,
    ],
  );
  const [first] = rows;
  const total = totals.settle(
    threadId,
    filter,
    base,
    first
      ? {
          messageSeq: Number(first.list_message_seq),
          fromSeq: Number(first.list_from_seq),
          counted: Number(first.list_counted),
          top: Number(first.list_top),
        }
      : null,
  );
  if (total === null) return null;
  // An empty page is one row of the count with no message (the LEFT JOIN).
  const messages = rows
    .filter((row) => row.id !== null)
    .map(({ list_message_seq, list_from_seq, list_counted, list_top, ...message }) =>
      toStoredMessage(message),
    );
  return { messages, total };
}

/** MESSAGE_COLUMNS of the page `p` in readMessageList. */
const PAGE_COLUMNS = MESSAGE_COLUMNS.split(",")
  .map((column) => `p.${column.trim()}`)
  .join(", ");

/** The WHERE clause of a thread's message list (`$1` the thread id). */
function messageFilter(options: { includeSilent?: boolean; maxDepth?: number }): string {
  const conditions = ["thread_id = $1"];
  if (!options.includeSilent) conditions.push("silent = false");
  if (options.maxDepth !== undefined)
    conditions.push(`depth <= ${Math.max(0, Math.floor(options.maxDepth))}`);
  return conditions.join(" AND ");
}

/** A thread's history for a step: every message down to `maxDepth`, silent ones included, no count. */
export async function readHistory(db: SqlExecutor, threadId: string, maxDepth = 0): Promise<StoredMessage[]> {
  const rows = await db.query(
    `SELECT ${MESSAGE_COLUMNS} FROM messages WHERE thread_id = $1 AND depth <= $2 ORDER BY seq`,
    [threadId, maxDepth],
  );
  return rows.map((row) => toStoredMessage(row as Record<string, unknown>));
}

export type { MessageView };

export function toMessageView(message: StoredMessage): MessageView {
  const { prompt: _prompt, tool_calls, ...rest } = message;
  return {
    ...rest,
    tool_calls: tool_calls ? JSON.stringify(tool_calls) : null,
  } satisfies z.input<typeof MessageViewSchema>;
}

export async function findMessageById(
  db: SqlExecutor,
  threadId: string,
  messageId: string,
): Promise<StoredMessage | null> {
  const rows = await db.query(`SELECT ${MESSAGE_COLUMNS} FROM messages WHERE thread_id = $1 AND id = $2`, [
    threadId,
    messageId,
  ]);
  return rows[0] ? toStoredMessage(rows[0] as Record<string, unknown>) : null;
}

/** The whole histories of several threads (every depth, silent ones too), each in seq order. */
export async function readHistories(
  db: SqlExecutor,
  threadIds: readonly string[],
): Promise<Map<string, StoredMessage[]>> {
  const histories = new Map<string, StoredMessage[]>(threadIds.map((id) => [id, []]));
  if (threadIds.length === 0) return histories;
  const rows = await db.query<Record<string, unknown>>(
    `SELECT thread_id, ${MESSAGE_COLUMNS} FROM messages WHERE thread_id = ANY($1::uuid[]) ORDER BY thread_id, seq`,
    [[...threadIds]],
  );
  for (const row of rows) histories.get(String(row.thread_id))?.push(toStoredMessage(row));
  return histories;
}

/** A message copied into another thread under the same seq (a fork's copy of a subagent thread). */
export interface MessageCopy {
  threadId: string;
  message: StoredMessage;
}

/** Rows per statement (one JSON parameter each: binding thousands of parameters costs more). */
const COPY_BATCH = 5_000;

/**
 * Inserts copied messages as they are (seq, depth, creation time and all), a few thousand rows a
 * statement, sent as one JSON document. The threads are new in this transaction, their
 * `message_seq` already set by the caller.
 */
export async function insertMessageCopies(tx: SqlExecutor, copies: readonly MessageCopy[]): Promise<number> {
  for (let start = 0; start < copies.length; start += COPY_BATCH) {
    const rows = copies.slice(start, start + COPY_BATCH).map(({ threadId, message }) => ({
      id: message.id,
      thread_id: threadId,
      seq: message.seq,
      role: message.role,
      side: message.side,
      content: message.content,
      name: message.name,
      tool_calls: message.tool_calls,
      tool_call_id: message.tool_call_id,
      tool_status: message.tool_status,
      parent_id: message.parent_id,
      depth: message.depth,
      silent: message.silent,
      metadata: message.metadata,
      subagent_id: message.subagent_id,
      attachments: message.attachments,
      prompt: message.prompt,
      created_at: message.created_at,
    }));
    await tx.query(
      `INSERT INTO messages (id, thread_id, seq, role, side, content, name, tool_calls, tool_call_id, tool_status,
         parent_id, depth, silent, metadata, subagent_id, attachments, prompt, created_at)
       SELECT id, thread_id, seq, role, side, content, name, tool_calls, tool_call_id, tool_status,
         parent_id, depth, silent, metadata, subagent_id, attachments, prompt, created_at
       FROM jsonb_to_recordset($1::text::jsonb) AS x(id uuid, thread_id uuid, seq int, role text, side text,
         content text, name text, tool_calls jsonb, tool_call_id text, tool_status text, parent_id uuid, depth int,
         silent boolean, metadata jsonb, subagent_id uuid, attachments jsonb, prompt text, created_at bigint)`,
      [JSON.stringify(rows)],
    );
  }
  return copies.length;
}
