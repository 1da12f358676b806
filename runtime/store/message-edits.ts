// Messages changed in place, as the step and its hooks' ThreadState change them: a message's
// content, flags, metadata or tool calls rewritten, a message deleted with its calls' results, and
// the top-level tool results stored after a message (the stop rules read them).
import type { SqlExecutor } from "@/lib/db/sql-client";
import type { StoredMessage, StoredToolCall } from "./messages";

/** Writes a message's content, silent flag and metadata as `message` has them. */
export async function rewriteMessage(
  tx: SqlExecutor,
  threadId: string,
  message: StoredMessage,
): Promise<void> {
  await tx.query(
    "UPDATE messages SET content = $1, silent = $2, metadata = $3::text::jsonb WHERE thread_id = $4 AND id = $5",
    [message.content, message.silent, JSON.stringify(message.metadata), threadId, message.id],
  );
}

/** Deletes a message and the tool results of its calls (the spec's cascade). */
export async function deleteMessageWithResults(
  tx: SqlExecutor,
  threadId: string,
  messageId: string,
  callIds: readonly string[],
): Promise<void> {
  await tx.query(
    "DELETE FROM messages WHERE thread_id = $1 AND (id = $2 OR (role = 'tool' AND tool_call_id = ANY($3::text[])))",
    [threadId, messageId, [...callIds]],
  );
}

/** Sets a message's tool calls (none: null). */
export async function setMessageToolCalls(
  tx: SqlExecutor,
  messageId: string,
  toolCalls: readonly StoredToolCall[] | null,
): Promise<void> {
  await tx.query("UPDATE messages SET tool_calls = $1::text::jsonb WHERE id = $2", [
    toolCalls ? JSON.stringify(toolCalls) : null,
    messageId,
  ]);
}

/** Sets a message's content. */
export async function setMessageContent(tx: SqlExecutor, messageId: string, content: string): Promise<void> {
  await tx.query("UPDATE messages SET content = $1 WHERE id = $2", [content, messageId]);
}

/** A top-level tool result as the stop rules read it: the call it answers, its status and metadata (raw). */
export interface ToolResultStatus {
  tool_call_id: string;
  tool_status: "success" | "error";
  metadata: unknown;
}

/** The thread's top-level tool results stored after message number `seq`. */
export function toolResultsAfter(
  tx: SqlExecutor,
  threadId: string,
  seq: number,
): Promise<ToolResultStatus[]> {
  return tx.query<ToolResultStatus>(
    "SELECT tool_call_id, tool_status, metadata FROM messages WHERE thread_id = $1 AND role = 'tool' AND depth = 0 AND seq > $2",
    [threadId, seq],
  );
}
