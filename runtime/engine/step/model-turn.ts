// Model turn: the system prompt and context for the active prompt (after its hooks), one model
// call with its text streamed as ephemeral chunks, then the reply handed to `commitReply`. A failed
// call fails the thread, logged with its error.
import { randomUUID } from "node:crypto";
import { type PromptDefinition, resolvePromptOptions } from "@/lib/standard";
import type { LLMMessage, Message } from "../../extensions/define";
import { crashPoint } from "../../faults";
import type { ModelCallRequest, ModelCallResult, ModelTelemetry } from "../../models/types";
import { loadContextImages } from "../../store/attachments";
import type { StoredMessage } from "../../store/messages";
import { telemetryEvents } from "../../store/thread-events";
import { nowMicroseconds, type ThreadRow } from "../../store/thread-row";
import { registrySystemMessage, type SubagentBranch } from "../../subagents/branches";
import { registryOf } from "../../subagents/registry-store";
import { assembleContext } from "../context";
import { applyFilteredMessages, messageView } from "../hook-values";
import { renderPromptContent } from "../prompt-render";
import { recordChatSpan } from "../run-trace";
import { countModelCalls, describeModelFailure, logModelCall } from "./model-calls";
import { announcingWaits } from "./model-waits";
import { parkThread } from "./park";
import { replayAnswer } from "./replay-answer";
import { commitReply } from "./reply-commit";
import type { StepContext, StepOutcome } from "./types";

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
  if (hooks && ext.hookIds.length > 0) {
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
  }
  const imageData = await loadContextImages(
    ctx.db,
    ctx.threadId,
    contextHistory,
    options.recentImageThreshold,
    active.side,
  );
  // The child registry, whenever children exist (spec §7.11).
  // Children always leave a trace in their parent's history (a call's result or a report).
  const mayHaveChildren =
    branches.length > 0 ||
    history.some((message) => message.subagent_id !== null || message.metadata.subagent !== undefined);
  const registry = mayHaveChildren ? await registryOf(ctx.db, row.id) : [];
  let messages = assembleContext({
    systemPrompt: system,
    ...(registry.length > 0 ? { systemAppendix: registrySystemMessage(registry) } : {}),
    messages: contextHistory,
    actingSide: active.side,
    turnStartSeq: row.execution.turnStartSeq,
    options,
    ...(imageData.size > 0 ? { imageData } : {}),
  });
  if (hooks?.has("prefilter_llm_history", ext.hookIds)) {
    const adjusted = await hooks.transform(
      "prefilter_llm_history",
      ext.hookIds,
      await ext.state(prompt.name, [prompt.name]),
      (value: LLMMessage[]) => [value] as [LLMMessage[]],
      messages as LLMMessage[],
    );
    if (Array.isArray(adjusted)) messages = adjusted as ModelCallRequest["messages"];
  }
  return messages;
}

/** One model call for the active prompt, and its reply committed (then its tools run). */
export async function modelTurn(
  ctx: StepContext,
  row: ThreadRow,
  prompt: PromptDefinition,
  history: StoredMessage[],
  branches: readonly SubagentBranch[],
): Promise<StepOutcome> {
  const { active, catalog, abortSignal } = ctx;
  const options = resolvePromptOptions(prompt);
  const messages = await buildRequestMessages(ctx, row, prompt, options, history, branches);
  const assistantId = randomUUID();
  const telemetry: ModelTelemetry[] = [];
  const scriptedCallIndex = await countModelCalls(ctx, row, active.side, prompt.model);
  const startedAt = nowMicroseconds();
  // A replayed thread's calls are answered from the recording while its requests still match.
  const replay = await replayAnswer(ctx, row, active.side, prompt.model, { messages, tools: catalog.specs });
  const replayedFrom = replay.kind === "live" ? null : replay.sourceCallId;
  // Late subscribers are replayed this message's chunks until it is persisted (or never will be).
  try {
    let result: ModelCallResult;
    crashPoint("before_model_call", active.agent.name);
    try {
      if (replay.kind === "recorded_failure") throw new Error(replay.error.replace(/^Error: /, ""));
      if (replay.kind === "recorded") {
        result = replay.result;
        if (result.text !== "")
          ctx.deps.publishChunk?.({
            rootId: row.root_id,
            threadId: row.id,
            messageId: assistantId,
            chunk: result.text,
            side: active.side,
          });
      } else
        result = await ctx.deps.callModel(
          prompt.model,
          active.definitions.bundle.models,
          {
            messages,
            tools: catalog.specs,
            toolChoice: options.toolChoice,
            parallelToolCalls: options.parallelToolCalls,
            ...(prompt.reasoning ? { reasoning: prompt.reasoning } : {}),
            abortSignal,
            scriptedCallIndex,
            onTextDelta: (chunk) =>
              ctx.deps.publishChunk?.({
                rootId: row.root_id,
                threadId: row.id,
                messageId: assistantId,
                chunk,
                side: active.side,
              }),
          },
          {
            onTelemetry: announcingWaits(ctx, row, (event) => telemetry.push(event)),
            projectId: row.project_id,
          },
        );
    } catch (error) {
      if (abortSignal.aborted) return "aborted";
      const reason = `Error: ${describeModelFailure(error)}`;
      if (ctx.trace) {
        const model = active.definitions.bundle.models?.find((entry) => entry.name === prompt.model);
        recordChatSpan(ctx.trace, {
          threadId: row.id,
          provider: model?.provider ?? "unknown",
          model: model?.model ?? prompt.model,
          startMs: startedAt / 1000,
          messages,
          result: null,
          error: reason,
          ...(replay.kind === "live" && replay.divergence ? { divergence: replay.divergence } : {}),
        });
      }
      await ctx.commits.commit(row.id, async (tx, current) => {
        await logModelCall(
          ctx,
          tx,
          current,
          active.side,
          prompt.model,
          messages,
          catalog,
          null,
          reason,
          startedAt,
          replayedFrom,
        );
        return parkThread(
          ctx,
          tx,
          current,
          "failSession",
          { failure: reason, stopReason: reason },
          telemetryEvents(current, telemetry),
        );
      });
      return "parked";
    }
    if (abortSignal.aborted) return "aborted";
    crashPoint("after_model_call", active.agent.name);
    if (ctx.trace)
      recordChatSpan(ctx.trace, {
        threadId: row.id,
        provider: result.provider,
        model: result.providerModelId,
        startMs: startedAt / 1000,
        messages,
        result,
        ...(replay.kind === "live" && replay.divergence ? { divergence: replay.divergence } : {}),
      });

    // Tool-call ids must be unique within the thread (scripted ids repeat across sides and models).
    const usedIds = new Set(history.flatMap((message) => message.tool_calls?.map((call) => call.id) ?? []));
    const unique: ModelCallResult = {
      ...result,
      toolCalls: result.toolCalls.map((call) =>
        usedIds.has(call.id) ? { ...call, id: `${call.id}_${assistantId.slice(0, 8)}` } : call,
      ),
    };
    return commitReply(ctx, {
      modelName: prompt.model,
      requestMessages: messages,
      result: unique,
      assistantId,
      telemetry,
      startedAt,
      ...(replayedFrom ? { replayedFrom } : {}),
    });
  } finally {
    ctx.deps.endMessage?.(assistantId);
  }
}
