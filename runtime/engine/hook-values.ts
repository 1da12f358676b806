// Converts between the runtime's values and what hooks see (spec message model, ToolResult), and
// applies what they return. Pure.
import type { Message, ToolResult } from "../extensions/define";
import { type MessageView, toMessageView } from "../store/message-store";
import type { StoredMessage, StoredToolCall } from "../store/messages";
import { resultText } from "../tools/code-tool";
import { errorContent, successContent, type ToolExecution } from "./tool-executor";

const ERROR_PREFIX = "Failed to execute tool: ";

export function messageView(message: StoredMessage): Message {
  return toMessageView(message) as MessageView as Message;
}

/** filter_messages returns spec messages: known ids keep their stored identity, new ones are added. */
export function applyFilteredMessages(
  original: readonly StoredMessage[],
  filtered: unknown,
): StoredMessage[] {
  if (!Array.isArray(filtered)) return [...original];
  const byId = new Map(original.map((message) => [message.id, message]));
  const result: StoredMessage[] = [];
  for (const value of filtered as Partial<Message>[]) {
    if (!value || typeof value !== "object") continue;
    const known = typeof value.id === "string" ? byId.get(value.id) : undefined;
    const base: StoredMessage = known ?? {
      id: typeof value.id === "string" ? value.id : `hook-${result.length}`,
      seq: known ? 0 : Number.MAX_SAFE_INTEGER,
      role: value.role ?? "user",
      side: value.side ?? null,
      content: null,
      name: value.name ?? null,
      tool_calls: null,
      tool_call_id: value.tool_call_id ?? null,
      tool_status: value.tool_status ?? null,
      parent_id: null,
      depth: 0,
      silent: false,
      metadata: {},
      subagent_id: null,
      attachments: [],
      prompt: null,
      created_at: 0,
    };
    result.push({
      ...base,
      ...(value.content !== undefined ? { content: value.content } : {}),
      ...(value.role !== undefined ? { role: value.role } : {}),
      ...(typeof value.silent === "boolean" ? { silent: value.silent } : {}),
      ...(value.metadata && typeof value.metadata === "object" ? { metadata: value.metadata } : {}),
      ...(value.tool_calls !== undefined ? { tool_calls: parseToolCalls(value.tool_calls) } : {}),
    });
  }
  return result;
}

function parseToolCalls(value: unknown): StoredToolCall[] | null {
  if (value === null) return null;
  try {
    const parsed = typeof value === "string" ? JSON.parse(value) : value;
    return Array.isArray(parsed) ? (parsed as StoredToolCall[]) : null;
  } catch {
    return null;
  }
}

export function toToolResult(execution: ToolExecution): ToolResult {
  if (execution.status === "success") return { status: "success", result: execution.content };
  const error = execution.content.startsWith(ERROR_PREFIX)
    ? execution.content.slice(ERROR_PREFIX.length)
    : execution.content;
  return { status: "error", error };
}

/** The execution a hook's ToolResult describes (its text worded as the runtime stores results). */
export function fromToolResult(result: ToolResult, previous: ToolExecution): ToolExecution {
  if (!result || typeof result !== "object") return previous;
  const status = result.status === "error" ? "error" : "success";
  const content =
    status === "success"
      ? successContent(resultText(result.result))
      : errorContent(
          typeof result.error === "string" && result.error.trim() ? result.error : resultText(result.result),
        );
  return { ...previous, status, content };
}
