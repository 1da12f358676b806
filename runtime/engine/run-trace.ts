// A thread run's spans (docs/observability.md "Spans"), per the OpenTelemetry GenAI semantic
// conventions: `invoke_agent <agent>` per run, `chat <model>` per model call, `execute_tool <tool>`
// per tool call. Each is written once its work is done, under the run's span whose id was chosen
// when the run started (runtime/store/thread-traces.ts). With traces off (`tracing().enabled`
// false) every function here returns at once: the step loop pays one property read per call site.
import { SpanKind } from "@opentelemetry/api";
import type { SqlClient } from "@/lib/db/sql-client";
import type { ModelCallRequest, ModelCallResult } from "../models/types";
import {
  endRunTrace,
  findRunTrace,
  type RunTrace,
  restartRunTrace,
  startRunTrace,
} from "../store/thread-traces";
import { randomSpanId, randomTraceId, toolCallSpanId, tracing } from "../telemetry/tracing";

export type { RunTrace };

/** The run a step belongs to: the thread's current run, or a new one when none is open. */
export async function runTraceForStep(db: SqlClient, threadId: string): Promise<RunTrace | null> {
  if (!tracing().enabled) return null;
  const found = await findRunTrace(db, threadId);
  if (found && !found.ended) return found;
  const now = Date.now();
  if (found) return (await restartRunTrace(db, threadId, randomSpanId(), now)) ?? findRunTrace(db, threadId);
  return startRunTrace(db, threadId, null, {
    traceId: randomTraceId(),
    spanId: randomSpanId(),
    startedAt: now,
  });
}

/** Writes the run's `invoke_agent` span when the thread stopped working (once, in one process). */
export async function endRunIfSettled(db: SqlClient, threadId: string, run: RunTrace): Promise<void> {
  if (!tracing().enabled) return;
  const ended = await endRunTrace(db, threadId, run.spanId);
  if (!ended) return;
  const failed = ended.status === "failed" || ended.status === "terminated";
  tracing().record({
    name: `invoke_agent ${ended.agentName}`,
    kind: SpanKind.INTERNAL,
    parent: { traceId: ended.traceId, spanId: ended.parentSpanId },
    spanId: ended.spanId,
    startMs: ended.startedAt,
    endMs: Date.now(),
    attributes: {
      "gen_ai.operation.name": "invoke_agent",
      "gen_ai.agent.name": ended.agentName,
      "gen_ai.conversation.id": ended.rootId,
      "tandem.thread.id": threadId,
      "tandem.thread.status": ended.status,
      ...(ended.stopReason ? { "tandem.thread.stop_reason": ended.stopReason } : {}),
    },
    error: failed ? (ended.failure ?? ended.stopReason ?? ended.status) : null,
  });
}

/** A model call's `chat` span. */
export function recordChatSpan(
  run: RunTrace | null,
  call: {
    threadId: string;
    provider: string;
    model: string;
    startMs: number;
    messages: ModelCallRequest["messages"];
    result: ModelCallResult | null;
    error?: string;
  },
): void {
  if (!run || !tracing().enabled) return;
  const { result } = call;
  const content = tracing().captureContent;
  tracing().record({
    name: `chat ${call.model}`,
    kind: SpanKind.CLIENT,
    parent: { traceId: run.traceId, spanId: run.spanId },
    startMs: call.startMs,
    endMs: Date.now(),
    attributes: {
      "gen_ai.operation.name": "chat",
      "gen_ai.provider.name": call.provider,
      "gen_ai.request.model": call.model,
      "tandem.thread.id": call.threadId,
      ...(result
        ? {
            "gen_ai.response.model": result.providerModelId,
            "gen_ai.usage.input_tokens": result.usage.inputTokens,
            "gen_ai.usage.output_tokens": result.usage.outputTokens,
            "gen_ai.response.finish_reasons": [result.toolCalls.length > 0 ? "tool_calls" : "stop"],
            "tandem.cost_usd": result.costUsd,
          }
        : {}),
      ...(call.error ? { "error.type": "model_call_failed" } : {}),
      // Message content only on the standard opt-in (it may carry what users typed).
      ...(content ? { "gen_ai.input.messages": JSON.stringify(call.messages) } : {}),
      ...(content && result
        ? {
            "gen_ai.output.messages": JSON.stringify([
              {
                role: "assistant",
                parts: [
                  ...(result.text ? [{ type: "text", content: result.text }] : []),
                  ...result.toolCalls.map((toolCall) => ({
                    type: "tool_call",
                    id: toolCall.id,
                    name: toolCall.name,
                    arguments: toolCall.args,
                  })),
                ],
              },
            ]),
          }
        : {}),
    },
    error: call.error ?? null,
  });
}

/** A tool call's `execute_tool` span; its id is `toolCallSpanId`, the parent of any child it spawned. */
export function recordToolSpan(
  run: RunTrace | null,
  call: {
    threadId: string;
    toolCallId: string;
    toolName: string;
    startMs: number;
    status: string;
    arguments?: string;
    result?: string;
    events?: { name: string; attributes?: Record<string, string> }[];
  },
): void {
  if (!run || !tracing().enabled) return;
  const content = tracing().captureContent;
  tracing().record({
    name: `execute_tool ${call.toolName}`,
    kind: SpanKind.INTERNAL,
    parent: { traceId: run.traceId, spanId: run.spanId },
    spanId: toolCallSpanId(call.threadId, call.toolCallId),
    startMs: call.startMs,
    endMs: Date.now(),
    attributes: {
      "gen_ai.operation.name": "execute_tool",
      "gen_ai.tool.name": call.toolName,
      "gen_ai.tool.call.id": call.toolCallId,
      "tandem.thread.id": call.threadId,
      "tandem.tool.status": call.status,
      ...(content && call.arguments !== undefined ? { "gen_ai.tool.call.arguments": call.arguments } : {}),
      ...(content && call.result !== undefined ? { "gen_ai.tool.call.result": call.result } : {}),
    },
    ...(call.events ? { events: call.events } : {}),
    error: call.status === "error" ? `${call.toolName} failed` : null,
  });
}
