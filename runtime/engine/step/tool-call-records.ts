import type { SqlExecutor } from "@/lib/db/sql-client";
import type { ModelCallResult } from "../../models/types";
import { toolResultsAfter } from "../../store/message-edits";
import type { ExecutionState, Side, StoredMessage, StoredToolCall } from "../../store/messages";
import type { ExecutedToolCall } from "../stop-rules";
import type { CatalogEntry } from "../tool-catalog";

export interface ExecutedCallRecord extends ExecutedToolCall {
  /** The agent a successful handoff call transferred the thread to. */
  handoffTo?: string;
}

/**
 * The latest message of this side with tool calls that still lack results (after a crash or stop).
 * Scans back from the end (the history is in seq order): a step costs the same in a long thread.
 */
export function unansweredToolCalls(
  history: readonly StoredMessage[],
  side: Side,
): { message: StoredMessage; calls: StoredToolCall[] } | null {
  let lastIndex = history.length - 1;
  while (lastIndex >= 0) {
    const message = history[lastIndex] as StoredMessage;
    if (message.side === side && message.role !== "tool" && message.depth === 0) break;
    lastIndex -= 1;
  }
  const last = history[lastIndex];
  if (!last?.tool_calls?.length) return null;
  const answered = new Set<string | null>();
  for (let index = lastIndex + 1; index < history.length; index += 1) {
    const message = history[index] as StoredMessage;
    if (message.role === "tool" && message.depth === 0 && message.seq > last.seq)
      answered.add(message.tool_call_id);
  }
  const calls = last.tool_calls.filter((call) => !answered.has(call.id));
  return calls.length > 0 ? { message: last, calls } : null;
}

/** The calls a reply stores: the model's, or for an empty reply the spec's invalid-response call. */
export function replyToolCalls(result: ModelCallResult, assistantId: string): StoredToolCall[] {
  const empty = result.text.trim() === "" && result.toolCalls.length === 0;
  return empty
    ? [
        {
          id: `invalid_${assistantId}`,
          type: "function",
          function: {
            name: "invalid_assistant_response",
            arguments: JSON.stringify({ reason: "empty_response", assistantMessageId: assistantId }),
          },
        },
      ]
    : result.toolCalls.map((call) => ({
        id: call.id,
        type: "function",
        function: {
          name: call.name,
          arguments: typeof call.args === "string" ? call.args : JSON.stringify(call.args ?? {}),
        },
      }));
}

/** The execution state after one more step by `side`. */
export function countStep(execution: ExecutionState, side: Side): ExecutionState {
  return {
    ...execution,
    stepCount: execution.stepCount + 1,
    sideASteps: execution.sideASteps + (side === "a" ? 1 : 0),
    sideBSteps: execution.sideBSteps + (side === "b" ? 1 : 0),
    turnSteps: execution.turnSteps + 1,
    runSteps: execution.runSteps + 1,
  };
}

/**
 * The executed calls of `assistant` (as `executedCallsOf` reads them) from messages in memory, or
 * null when a call's result is not among them.
 */
export function executedCallsKnown(
  assistant: StoredMessage,
  messages: readonly StoredMessage[],
): ExecutedCallRecord[] | null {
  const results = new Map<string, StoredMessage>();
  for (const message of messages) {
    if (message.role === "tool" && message.depth === 0 && message.seq > assistant.seq && message.tool_call_id)
      results.set(message.tool_call_id, message);
  }
  const executed: ExecutedCallRecord[] = [];
  for (const call of assistant.tool_calls ?? []) {
    const result = results.get(call.id);
    if (!result) return null;
    executed.push(executedCallRecord(call, result.tool_status ?? "error", result.metadata));
  }
  return executed;
}

/** The executed calls of `assistant`, their results read from the thread's messages. */
export async function executedCallsOf(
  tx: SqlExecutor,
  threadId: string,
  assistant: StoredMessage,
): Promise<ExecutedCallRecord[]> {
  const results = await toolResultsAfter(tx, threadId, assistant.seq);
  const byId = new Map(results.map((result) => [result.tool_call_id, result]));
  return (assistant.tool_calls ?? []).map((call) => {
    const result = byId.get(call.id);
    return executedCallRecord(call, result?.tool_status ?? "error", result?.metadata);
  });
}

export function executedCallRecord(
  call: StoredToolCall,
  status: "success" | "error",
  rawMetadata: unknown,
): ExecutedCallRecord {
  const metadata = (typeof rawMetadata === "string" ? JSON.parse(rawMetadata) : rawMetadata) as
    | { handoff?: { agent?: string } }
    | undefined;
  return {
    id: call.id,
    name: call.function.name,
    args: safeJson(call.function.arguments),
    status,
    ...(metadata?.handoff?.agent ? { handoffTo: metadata.handoff.agent } : {}),
  };
}

/** The parsed JSON, or the text itself when it is not JSON. */
export function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Whether a tool call's start is worth its own event: it may take a while to answer. */
export function announcesStart(entry: CatalogEntry | undefined): boolean {
  if (!entry) return false;
  return (
    entry.kind === "tool" ||
    entry.kind === "subprompt" ||
    (entry.kind === "binding" && entry.tool !== undefined)
  );
}
