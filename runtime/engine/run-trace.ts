// A thread run's spans (docs/observability.md "Spans"), per the OpenTelemetry GenAI semantic
// conventions: `invoke_agent <agent>` per run, `chat <model>` per model call, `execute_tool <tool>`
// per tool call. Each is written once its work is done, under the run's span whose id was chosen
// when the run started (runtime/store/thread-traces.ts). With traces off (`tracing().enabled`
// false) every function here returns at once: the step loop pays one property read per call site.
import { SpanKind } from "@opentelemetry/api";
import type { DivergenceWire } from "@/lib/contracts/replay";
import type { SqlClient, SqlExecutor } from "@/lib/db/sql-client";
import type { ModelCallRequest, ModelCallResult } from "../models/types";
import {
  type EndedRun,
  endRunTrace,
  endSettledRunTraces,
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
  if (ended) writeRunSpan(threadId, ended);
}

/**
 * Writes the `invoke_agent` spans of a stopped or terminated tree's threads whose runs are still
 * open: a child stopped together with its root never takes another step that would end its run.
 * A member still running a step somewhere ends its own (exactly one of them writes each span).
 */
export async function endRunsOfStoppedThreads(db: SqlExecutor, threadIds: readonly string[]): Promise<void> {
  if (!tracing().enabled || threadIds.length === 0) return;
  for (const ended of await endSettledRunTraces(db, threadIds)) writeRunSpan(ended.threadId, ended);
}

function writeRunSpan(threadId: string, ended: EndedRun): void {
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

/**
 * A model call's `chat` span. Long (~80 lines) on purpose: the attribute list of the OpenTelemetry
 * GenAI conventions written out once, in order; runs only while traces are exported.
 */
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
    /** A replayed thread's first call that no longer matched its recording (docs/runtime.md "Replay"). */
    divergence?: DivergenceWire;
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
    ...(call.divergence
      ? {
          events: [
            {
              name: "tandem.replay.divergence",
              attributes: {
                "tandem.replay.reason": call.divergence.reason,
                "tandem.replay.source_thread_id": call.divergence.source_thread_id,
                "tandem.replay.call_index": call.divergence.call_index,
                // Where the request differed, never the values (they may be what a user typed).
                ...(call.divergence.path ? { "tandem.replay.path": call.divergence.path } : {}),
              },
            },
          ],
        }
      : {}),
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
    events?: { name: string; attributes?: Record<string, string>; timeMs?: number }[];
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

/**
 * A scheduled effect's `schedule_effect <name>` span (an instant), under the thread's current run
 * (`ThreadState.scheduleEffect`, in whichever process or hook scheduled it). Nothing without a trace.
 */
export async function recordEffectScheduled(
  db: SqlExecutor,
  effect: { id: string; threadId: string; name: string; delayMs: number },
): Promise<void> {
  if (!tracing().enabled) return;
  const run = await findRunTrace(db, effect.threadId);
  if (!run) return;
  const now = Date.now();
  tracing().record({
    name: `schedule_effect ${effect.name}`,
    parent: { traceId: run.traceId, spanId: run.spanId },
    startMs: now,
    endMs: now,
    attributes: {
      "tandem.effect.id": effect.id,
      "tandem.effect.name": effect.name,
      "tandem.effect.delay_ms": effect.delayMs,
      "tandem.thread.id": effect.threadId,
    },
    events: [{ name: "tandem.effect.scheduled", timeMs: now }],
  });
}

/** How one attempt of an effect ended (runtime/effects/effect-runner.ts). */
export type EffectAttemptEnd =
  | { status: "done" | "cancelled" }
  | { status: "failed" | "retry"; error: string };

/**
 * One attempt of a scheduled effect as a `run_effect <name>` span, under the thread's current run:
 * its status is an error when the attempt failed (`tandem.effect.failed`, with whether it retries).
 */
export async function recordEffectRun(
  db: SqlExecutor,
  effect: { id: string; threadId: string; name: string; attempt: number; startMs: number },
  end: EffectAttemptEnd,
): Promise<void> {
  if (!tracing().enabled) return;
  const run = await findRunTrace(db, effect.threadId);
  if (!run) return;
  const now = Date.now();
  const failed = end.status === "failed" || end.status === "retry";
  tracing().record({
    name: `run_effect ${effect.name}`,
    parent: { traceId: run.traceId, spanId: run.spanId },
    startMs: Math.min(effect.startMs, now),
    endMs: now,
    attributes: {
      "tandem.effect.id": effect.id,
      "tandem.effect.name": effect.name,
      "tandem.effect.attempt": effect.attempt,
      "tandem.effect.status": end.status,
      "tandem.thread.id": effect.threadId,
    },
    ...(failed
      ? {
          events: [
            {
              name: "tandem.effect.failed",
              timeMs: now,
              attributes: { "tandem.effect.will_retry": end.status === "retry" },
            },
          ],
        }
      : {}),
    error: failed ? end.error : null,
  });
}
