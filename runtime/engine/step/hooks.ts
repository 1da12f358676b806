// A step's extension surface: the hooks in force for the active prompt, a memoised ThreadState
// factory, and the hook calls around stored messages and tool results.
import { randomUUID } from "node:crypto";
import type {
  AttachmentRef,
  Message,
  ThreadState,
  ToolAttachment,
  ToolCall,
  ToolResult,
} from "../../extensions/define";
import { declaredHookIds, HookRunner } from "../../extensions/hook-runner";
import { EMPTY_REGISTRY } from "../../extensions/registry";
import { type NewMessage, storedMessageRow } from "../../store/message-store";
import type { StoredMessage, StoredToolCall } from "../../store/messages";
import type { ThreadRow } from "../../store/thread-row";
import { updateLockedThread } from "../../store/thread-store";
import { fromToolResult, messageView, toToolResult } from "../hook-values";
import { type ActiveExecution, loadThreadState, newExecutionControl } from "../thread-state";
import type { ToolExecution } from "../tool-executor";
import { ThreadTerminated } from "./errors";
import type { ActiveSide, RunnerContext, StepExtensions } from "./types";

/** Hooks in force for the active prompt and a (memoised) ThreadState factory for this step. */
export async function stepExtensions(
  ctx: RunnerContext,
  row: ThreadRow,
  active: ActiveSide,
  history: readonly StoredMessage[],
  abortSignal: AbortSignal,
): Promise<StepExtensions> {
  const loaded = ctx.deps.extensions ? await ctx.deps.extensions() : null;
  const prompt = active.definitions.index.prompts.get(active.sideConfig.prompt)?.definition;
  const control = newExecutionControl();
  const run = ctx.memory.run(row.id);
  const hooks = loaded?.hooks ?? null;
  const states = new Map<string, Promise<ThreadState>>();
  const known = [...history];
  const state = (promptName: string, promptPath: string[]) => {
    const key = promptPath.join("/");
    let cached = states.get(key);
    if (!cached) {
      const execution: ActiveExecution = {
        flowId: run.flowId,
        promptPath,
        messageHistory: () => known.map(messageView),
        abortSignal,
        control,
        context: run.context,
      };
      cached = loadThreadState(
        {
          db: ctx.db,
          definitions: ctx.deps.definitions,
          hooks: hooks ?? new HookRunner(EMPTY_REGISTRY),
          terminate:
            ctx.deps.terminate ?? (() => Promise.reject(new Error("terminate is not available here"))),
        },
        row.id,
        { promptName, execution },
      ).then((value) => {
        if (!value) throw new ThreadTerminated();
        return value;
      });
      states.set(key, cached);
    }
    return cached;
  };
  return {
    registry: loaded?.registry ?? null,
    hooks,
    hookIds: declaredHookIds(prompt, active.agent),
    control,
    history: known,
    state,
  };
}

/** before_create_message hooks on a message the runtime is about to store (content, silent, metadata). */
export async function beforeCreate(
  ext: StepExtensions,
  promptName: string,
  message: NewMessage,
): Promise<NewMessage> {
  if (!ext.hooks?.has("before_create_message", ext.hookIds)) return message;
  // Not stored yet: no seq and no creation time.
  const view = messageView(storedMessageRow(message, message.id ?? randomUUID(), 0, 0));
  const changed = await ext.hooks.transform(
    "before_create_message",
    ext.hookIds,
    await ext.state(promptName, [promptName]),
    (value: Message) => [value] as [Message],
    view,
  );
  if (!changed || typeof changed !== "object") return message;
  return {
    ...message,
    ...(changed.content === null || typeof changed.content === "string" ? { content: changed.content } : {}),
    ...(typeof changed.silent === "boolean" ? { silent: changed.silent } : {}),
    ...(changed.metadata && typeof changed.metadata === "object" ? { metadata: changed.metadata } : {}),
  };
}

/** after_create_message hooks on messages the step stored. */
export async function afterCreate(
  ext: StepExtensions,
  promptName: string,
  messages: StoredMessage[],
): Promise<void> {
  if (messages.length === 0 || !ext.hooks?.has("after_create_message", ext.hookIds)) return;
  const state = await ext.state(promptName, [promptName]);
  for (const message of messages)
    await ext.hooks.notify("after_create_message", ext.hookIds, state, messageView(message));
}

/**
 * after_tool_call_success / after_tool_call_failure (null drops the call from history), then
 * before_store_tool_result. Returns null when the call is dropped.
 */
export async function afterToolHooks(
  ext: StepExtensions,
  promptName: string,
  call: StoredToolCall,
  execution: ToolExecution,
): Promise<ToolExecution | null> {
  const hooks = ext.hooks;
  if (!hooks || ext.hookIds.length === 0) return execution;
  const kind = execution.status === "success" ? "after_tool_call_success" : "after_tool_call_failure";
  const toolCall: ToolCall = { id: call.id, type: "function", function: { ...call.function } };
  let current = execution;
  if (hooks.has(kind, ext.hookIds)) {
    const result = await hooks.transform(
      kind,
      ext.hookIds,
      await ext.state(promptName, [promptName]),
      (value: ToolResult) => [toolCall, value] as [ToolCall, ToolResult],
      toToolResult(current),
      { nullable: true },
    );
    if (result === null) return null;
    current = fromToolResult(result, current);
  }
  if (hooks.has("before_store_tool_result", ext.hookIds)) {
    const result = await hooks.transform(
      "before_store_tool_result",
      ext.hookIds,
      await ext.state(promptName, [promptName]),
      (value: ToolResult) => [toolCall, value] as [ToolCall, ToolResult],
      toToolResult(current),
    );
    if (result) current = fromToolResult(result, current);
  }
  return current;
}

/** What code tools need from this step: installed modules, a ThreadState, attachment storage. */
export function toolExtensions(
  ctx: RunnerContext,
  threadId: string,
  ext: StepExtensions,
  promptName: string,
  promptPath: string[],
) {
  const store = ctx.deps.storeToolAttachments;
  return {
    ...(ext.registry ? { extensions: ext.registry } : {}),
    threadState: () => ext.state(promptName, promptPath),
    ...(store
      ? { storeAttachments: (list: Array<ToolAttachment | AttachmentRef>) => store(threadId, list) }
      : {}),
  };
}

/**
 * A spawned child runs its after_thread_created hooks before its first step, once (a crash
 * between the hooks and this commit runs them again: at least once, like every hook). True when
 * they ran: the step ends there and the next one reads what they wrote.
 */
export async function runCreatedHooks(
  ctx: RunnerContext,
  row: ThreadRow,
  ext: StepExtensions,
  promptName: string,
): Promise<boolean> {
  if (
    row.parent_id === null ||
    row.execution.createdHooksRan ||
    row.execution.stepCount !== 0 ||
    !ext.hooks?.has("after_thread_created", ext.hookIds)
  )
    return false;
  await ext.hooks.notify("after_thread_created", ext.hookIds, await ext.state(promptName, [promptName]));
  await ctx.commits.commit(row.id, async (tx, current) => {
    await updateLockedThread(
      tx,
      current,
      ctx.commits.withMessageSeq(current.id, { execution: { ...current.execution, createdHooksRan: true } }),
    );
  });
  return true;
}
