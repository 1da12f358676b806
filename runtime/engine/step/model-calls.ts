// The model_calls log of a thread: how many successful calls a side made with a model (the
// scripted provider's index) and the logged request of each call (delta-encoded per side and model).
import { randomUUID } from "node:crypto";
import type { SqlExecutor } from "@/lib/db/sql-client";
import type { ModelCallRequest, ModelCallResult } from "../../models/types";
import type { Side } from "../../store/messages";
import { countSuccessfulModelCalls, insertModelCallDeferred } from "../../store/model-calls";
import { nowMicroseconds, type ThreadRow } from "../../store/thread-row";
import { encodeRequest } from "../request-log";
import type { ToolCatalog } from "../tool-catalog";
import type { RunnerContext } from "./types";

/** Successful model calls so far by this side with this model, the copied ones included (the scripted provider's index). */
export async function countModelCalls(
  ctx: RunnerContext,
  row: ThreadRow,
  side: Side,
  modelName: string,
): Promise<number> {
  const threadId = row.id;
  const counts = ctx.memory.cache(threadId).modelCalls;
  const key = `${side}|${modelName}`;
  const known = counts.get(key);
  if (known !== undefined) return known;
  // A fork's copied history stands for the calls that wrote it: the count goes on from there.
  const copied = row.execution.copiedModelCalls?.[key] ?? 0;
  // A side's first successful call commits with its first step: before that, there are none.
  const sideSteps = side === "a" ? row.execution.sideASteps : row.execution.sideBSteps;
  if (sideSteps === 0) {
    counts.set(key, copied);
    return copied;
  }
  const count = copied + (await countSuccessfulModelCalls(ctx.db, threadId, side, modelName));
  counts.set(key, count);
  return count;
}

/** One model call as its log records it. */
export interface ModelCallLog {
  side: Side;
  modelName: string;
  messages: ModelCallRequest["messages"];
  catalog: ToolCatalog;
  /** The call's result; null when it failed (then `error` says why). */
  result: ModelCallResult | null;
  error: string | null;
  startedAt: number;
  /** In a replay: the recorded call that answered this one. */
  replayedFrom: string | null;
}

/** Logs one model call (its result, or the error it failed with) in the step's transaction. */
export async function logModelCall(
  ctx: RunnerContext,
  tx: SqlExecutor,
  /** The thread's row in this commit: its project and agent are logged with the call (the dashboard). */
  thread: Pick<ThreadRow, "id" | "project_id" | "agent_name">,
  call: ModelCallLog,
): Promise<void> {
  const { side, modelName, messages, catalog, result, error, startedAt, replayedFrom } = call;
  const id = randomUUID();
  const threadId = thread.id;
  const cache = ctx.memory.cache(threadId);
  const memoryKey = `${side}|${modelName}`;
  const encoded = encodeRequest(id, { messages, tools: catalog.specs }, cache.requests.get(memoryKey));
  cache.requests.set(memoryKey, encoded.memory);
  if (result) {
    const counted = cache.modelCalls.get(memoryKey);
    if (counted !== undefined) cache.modelCalls.set(memoryKey, counted + 1);
  }
  await insertModelCallDeferred(tx, {
    id,
    threadId,
    side,
    modelName,
    answeredBy: result?.modelName ?? null,
    providerModelId: result?.providerModelId ?? null,
    request: JSON.stringify(encoded.stored),
    response: result
      ? JSON.stringify({ text: result.text, toolCalls: result.toolCalls, usage: result.usage })
      : null,
    error,
    inputTokens: result?.usage.inputTokens ?? 0,
    outputTokens: result?.usage.outputTokens ?? 0,
    costUsd: result?.costUsd ?? 0,
    latencyMs: result?.latencyMs ?? Math.round((nowMicroseconds() - startedAt) / 1000),
    createdAt: startedAt,
    replayedFrom,
    projectId: thread.project_id,
    agentName: thread.agent_name,
  });
}

/** The model layer's message plus the last provider error it wraps, so users see the real cause. */
export function describeModelFailure(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const details = (error as { details?: { lastError?: unknown } }).details;
  return typeof details?.lastError === "string"
    ? `${error.message} (last error: ${details.lastError})`
    : error.message;
}
