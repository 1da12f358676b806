// Model turn: the system prompt and context for the active prompt (after its hooks), one model
// call with its text streamed as ephemeral chunks; the reply goes back to the step runner, which
// hands it to the reply commit. A failed call fails the thread, logged with its error.
import { randomUUID } from "node:crypto";
import { type PromptDefinition, resolvePromptOptions } from "@/lib/standard";
import type { LLMMessage, Message } from "../../extensions/define";
import { crashPoint } from "../../faults";
import type { ModelCallRequest, ModelCallResult, ModelTelemetry } from "../../models/types";
import { isImageAttachment, loadContextImages } from "../../store/attachments";
import type { StoredMessage } from "../../store/messages";
import { registryOf } from "../../store/registry-store";
import { telemetryEvents } from "../../store/thread-events";
import { nowMicroseconds, type ThreadRow } from "../../store/thread-row";
import { registrySystemMessage, type SubagentBranch } from "../../subagents/branches";
import { assembleContext, type ContextMemo, newContextMemo } from "../context";
import { HistoryHasSome } from "../history-prefix";
import { applyFilteredMessages, messageView } from "../hook-values";
import { renderPromptContent } from "../prompt-render";
import { recordChatSpan } from "../run-trace";
import { countModelCalls, describeModelFailure, logModelCall } from "./model-calls";
import { announcingWaits } from "./model-waits";
import { parkThread } from "./park";
import { type ReplayAnswer, replayAnswer } from "./replay-answer";
import type { ModelReply } from "./reply-commit";
import type { StepContext, StepOutcome, ThreadCache } from "./types";

/** The system prompt and the history as the after_system_message and filter_messages hooks leave them. */
async function hookedSystemAndHistory(
  ext: StepContext["ext"],
  hooks: NonNullable<StepContext["ext"]["hooks"]>,
  prompt: PromptDefinition,
  renderedSystem: string,
  history: StoredMessage[],
): Promise<{ system: string; contextHistory: StoredMessage[] }> {
  let system = renderedSystem;
  let contextHistory = history;
  const state = await ext.state(prompt.name, [prompt.name]);
  if (hooks.has("after_system_message", ext.hookIds)) {
    const rewritten = await hooks.transform(
      "after_system_message",
      ext.hookIds,
      state,
      (value: string) => [value] as [string],
      system,
    );
    if (typeof rewritten === "string") system = rewritten;
  }
  if (hooks.has("filter_messages", ext.hookIds)) {
    const filtered = await hooks.transform(
      "filter_messages",
      ext.hookIds,
      state,
      (value: Message[]) => [value] as [Message[]],
      history.map(messageView),
    );
    contextHistory = applyFilteredMessages(history, filtered);
  }
  return { system, contextHistory };
}

/** The request for the model: the rendered system prompt and the context the side sees. */
async function buildRequestMessages(
  ctx: StepContext,
  row: ThreadRow,
  prompt: PromptDefinition,
  options: ReturnType<typeof resolvePromptOptions>,
  history: StoredMessage[],
  branches: readonly SubagentBranch[],
): Promise<ModelCallRequest["messages"]> {
  const { active, ext } = ctx;
  // Resolution order of the reference runtime: thread, then agent, then prompt (first hit wins).
  const env = { ...(prompt.env ?? {}), ...(active.agent.env ?? {}), ...row.env };
  let system = renderPromptContent({
    prompt,
    findPrompt: (name) => active.definitions.index.prompts.get(name)?.definition,
    resolveEnv: (name) => env[name],
  });
  let contextHistory: StoredMessage[] = history;
  const hooks = ext.hooks;
  if (hooks && ext.hookIds.length > 0)
    ({ system, contextHistory } = await hookedSystemAndHistory(ext, hooks, prompt, system, history));
  const facts = historyFactsOf(ctx, row.id);
  const imageData = facts.images.in(contextHistory)
    ? await loadContextImages(ctx.db, ctx.threadId, contextHistory, options.recentImageThreshold, active.side)
    : new Map<string, string>();
  // The child registry, whenever children exist (spec §7.11).
  // Children always leave a trace in their parent's history (a call's result or a report).
  const mayHaveChildren = branches.length > 0 || facts.childTrace.in(history);
  const registry = mayHaveChildren ? await registryOf(ctx.db, row.id) : [];
  let messages = assembleContext(
    {
      systemPrompt: system,
      ...(registry.length > 0 ? { systemAppendix: registrySystemMessage(registry) } : {}),
      messages: contextHistory,
      actingSide: active.side,
      turnStartSeq: row.execution.turnStartSeq,
      options,
      ...(imageData.size > 0 ? { imageData } : {}),
    },
    contextMemoOf(ctx, row.id),
  );
  if (hooks?.has("prefilter_llm_history", ext.hookIds)) {
    const adjusted = await hooks.transform(
      "prefilter_llm_history",
      ext.hookIds,
      await ext.state(prompt.name, [prompt.name]),
      (value: LLMMessage[]) => [value] as [LLMMessage[]],
      // A copy: the hook may change the messages in place, and the context memo keeps them.
      structuredClone(messages) as LLMMessage[],
    );
    if (Array.isArray(adjusted)) messages = adjusted as ModelCallRequest["messages"];
  }
  return messages;
}

/** The facts about the thread's history a step asks (kept with its history in the run memory). */
function historyFactsOf(ctx: StepContext, threadId: string): NonNullable<ThreadCache["historyFacts"]> {
  const cache = ctx.memory.cache(threadId);
  cache.historyFacts ??= {
    childTrace: new HistoryHasSome(
      (message) => message.subagent_id !== null || message.metadata.subagent !== undefined,
    ),
    images: new HistoryHasSome((message) => message.attachments.some(isImageAttachment)),
  };
  return cache.historyFacts;
}

/** The thread's context memo for the acting side (kept with the thread's history in the run memory). */
function contextMemoOf(ctx: StepContext, threadId: string): ContextMemo {
  const cache = ctx.memory.cache(threadId);
  cache.contexts ??= new Map();
  let memo = cache.contexts.get(ctx.active.side);
  if (!memo) {
    memo = newContextMemo();
    cache.contexts.set(ctx.active.side, memo);
  }
  return memo;
}

/**
 * What a model turn leaves the step runner: the reply to commit, or the step's outcome when the
 * call failed (the thread failed, committed here) or the step was aborted.
 */
export type ModelTurnResult = { kind: "reply"; reply: ModelReply } | { kind: "ended"; outcome: StepOutcome };

/** What the model turn needs beside the step: the thread, its active prompt, history and branches. */
export interface ModelTurnInput {
  row: ThreadRow;
  prompt: PromptDefinition;
  history: StoredMessage[];
  branches: readonly SubagentBranch[];
}

/** The call as the turn makes it: its request, the chunk buffer's message id, and where it is logged. */
interface TurnCall {
  row: ThreadRow;
  prompt: PromptDefinition;
  options: ReturnType<typeof resolvePromptOptions>;
  messages: ModelCallRequest["messages"];
  assistantId: string;
  telemetry: ModelTelemetry[];
  startedAt: number;
  replay: ReplayAnswer;
}

/**
 * One model call for the active prompt. A reply is handed back with its chunk buffer still open
 * (the runner ends it once the reply commit is done); otherwise the buffer ends here.
 */
export async function modelTurn(ctx: StepContext, input: ModelTurnInput): Promise<ModelTurnResult> {
  const { row, prompt, history, branches } = input;
  const { active, catalog, abortSignal } = ctx;
  const options = resolvePromptOptions(prompt);
  const messages = await buildRequestMessages(ctx, row, prompt, options, history, branches);
  const assistantId = randomUUID();
  const scriptedCallIndex = await countModelCalls(ctx, row, active.side, prompt.model);
  const startedAt = nowMicroseconds();
  // A replayed thread's calls are answered from the recording while its requests still match.
  const replay = await replayAnswer(ctx, row, active.side, prompt.model, { messages, tools: catalog.specs });
  const turn: TurnCall = { row, prompt, options, messages, assistantId, telemetry: [], startedAt, replay };
  // Late subscribers are replayed this message's chunks until it is persisted (or never will be).
  let handedOver = false;
  try {
    let result: ModelCallResult;
    crashPoint("before_model_call", active.agent.name);
    try {
      result = await callOrReplay(ctx, turn, scriptedCallIndex);
    } catch (error) {
      if (abortSignal.aborted) return { kind: "ended", outcome: "aborted" };
      await failTurn(ctx, turn, `Error: ${describeModelFailure(error)}`);
      return { kind: "ended", outcome: "parked" };
    }
    if (abortSignal.aborted) return { kind: "ended", outcome: "aborted" };
    crashPoint("after_model_call", active.agent.name);
    recordTurnSpan(ctx, turn, result, null);
    handedOver = true;
    return { kind: "reply", reply: replyOf(turn, history, result) };
  } finally {
    if (!handedOver) ctx.deps.endMessage?.(assistantId);
  }
}

/** The model's answer: from the recording while a replay matches, else a live call streaming chunks. */
async function callOrReplay(
  ctx: StepContext,
  turn: TurnCall,
  scriptedCallIndex: number,
): Promise<ModelCallResult> {
  const { active, catalog, abortSignal } = ctx;
  const { row, prompt, options, replay, assistantId } = turn;
  const publish = (chunk: string) =>
    ctx.deps.publishChunk?.({
      rootId: row.root_id,
      threadId: row.id,
      messageId: assistantId,
      chunk,
      side: active.side,
    });
  if (replay.kind === "recorded_failure") throw new Error(replay.error.replace(/^Error: /, ""));
  if (replay.kind === "recorded") {
    if (replay.result.text !== "") publish(replay.result.text);
    return replay.result;
  }
  return ctx.deps.callModel(
    prompt.model,
    active.definitions.bundle.models,
    {
      messages: turn.messages,
      tools: catalog.specs,
      toolChoice: options.toolChoice,
      parallelToolCalls: options.parallelToolCalls,
      ...(prompt.reasoning ? { reasoning: prompt.reasoning } : {}),
      abortSignal,
      scriptedCallIndex,
      onTextDelta: publish,
    },
    {
      onTelemetry: announcingWaits(ctx, row, (event) => turn.telemetry.push(event)),
      projectId: row.project_id,
    },
  );
}

/** The call's chat span while traces are exported: its result, or the error it failed with. */
function recordTurnSpan(
  ctx: StepContext,
  turn: TurnCall,
  result: ModelCallResult | null,
  error: string | null,
): void {
  if (!ctx.trace) return;
  const { row, prompt, replay } = turn;
  const model = result
    ? null
    : ctx.active.definitions.bundle.models?.find((entry) => entry.name === prompt.model);
  recordChatSpan(ctx.trace, {
    threadId: row.id,
    provider: result ? result.provider : (model?.provider ?? "unknown"),
    model: result ? result.providerModelId : (model?.model ?? prompt.model),
    startMs: turn.startedAt / 1000,
    messages: turn.messages,
    result,
    ...(error !== null ? { error } : {}),
    ...(replay.kind === "live" && replay.divergence ? { divergence: replay.divergence } : {}),
  });
}

/** A failed call fails the thread: the call logged with its error, the thread parked as failed. */
async function failTurn(ctx: StepContext, turn: TurnCall, reason: string): Promise<void> {
  const { active, catalog } = ctx;
  recordTurnSpan(ctx, turn, null, reason);
  await ctx.commits.commit(turn.row.id, async (tx, current) => {
    await logModelCall(ctx, tx, current, {
      side: active.side,
      modelName: turn.prompt.model,
      messages: turn.messages,
      catalog,
      result: null,
      error: reason,
      startedAt: turn.startedAt,
      replayedFrom: replayedFromOf(turn.replay),
    });
    return parkThread(
      ctx,
      tx,
      current,
      "failSession",
      { failure: reason, stopReason: reason },
      { events: telemetryEvents(current, turn.telemetry) },
    );
  });
}

/** The reply as the reply commit takes it; tool-call ids made unique within the thread. */
function replyOf(turn: TurnCall, history: readonly StoredMessage[], result: ModelCallResult): ModelReply {
  const { assistantId } = turn;
  // Tool-call ids must be unique within the thread (scripted ids repeat across sides and models).
  const unique: ModelCallResult =
    result.toolCalls.length === 0
      ? result
      : { ...result, toolCalls: uniqueCallIds(history, result, assistantId) };
  const replayedFrom = replayedFromOf(turn.replay);
  return {
    modelName: turn.prompt.model,
    requestMessages: turn.messages,
    result: unique,
    assistantId,
    telemetry: turn.telemetry,
    startedAt: turn.startedAt,
    ...(replayedFrom ? { replayedFrom } : {}),
  };
}

/** The reply's tool calls, each id already used in the thread suffixed with the reply's id. */
export function uniqueCallIds(
  history: readonly StoredMessage[],
  result: ModelCallResult,
  assistantId: string,
): ModelCallResult["toolCalls"] {
  const usedIds = new Set<string>();
  for (const message of history) for (const call of message.tool_calls ?? []) usedIds.add(call.id);
  return result.toolCalls.map((call) =>
    usedIds.has(call.id) ? { ...call, id: `${call.id}_${assistantId.slice(0, 8)}` } : call,
  );
}

/** In a replay, the recorded call that answered (model_calls.replayed_from); else null. */
function replayedFromOf(replay: ReplayAnswer): string | null {
  return replay.kind === "live" ? null : replay.sourceCallId;
}
