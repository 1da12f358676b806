// Sub-prompt: a prompt called as a tool (spec notes §1.8): one model step at depth+1 in this
// thread, its own tool calls run in order, everything stored under the parent tool message (never
// in the parent's context); the result string follows the reference format. A crash re-runs it whole.
import { randomUUID } from "node:crypto";
import {
  type PromptDefinition,
  resolvePromptOptions,
  resolveSideConfig,
  resolveSubpromptConfig,
} from "@/lib/standard";
import type { ModelCallRequest, ModelCallResult } from "../../models/types";
import type { StoredToolCall } from "../../store/messages";
import { nowMicroseconds, type ThreadRow } from "../../store/thread-row";
import { findThread, updateThread } from "../../store/thread-store";
import { renderPromptContent } from "../prompt-render";
import { assembleSubpromptResult, type SubpromptCall } from "../subprompt-result";
import { buildToolCatalog, type CatalogEntry, mcpServersOf, type ToolCatalog } from "../tool-catalog";
import { errorContent, executeToolCall, type ToolExecution } from "../tool-executor";
import { NESTED_APPROVAL_REFUSED } from "./approval-gate";
import { toolExtensions } from "./hooks";
import { countModelCalls, logModelCall } from "./model-calls";
import { announcingWaits } from "./model-waits";
import { MAX_SUBPROMPT_DEPTH, type StepContext } from "./types";

type SubpromptEntry = Extract<CatalogEntry, { kind: "subprompt" }>;

/** A sub-prompt being run: its prompt, where its messages nest, its tools and result options. */
interface NestedRun {
  prompt: SubpromptEntry["prompt"];
  options: ReturnType<typeof resolveSubpromptConfig>;
  catalog: ToolCatalog;
  /** Stored on each of its messages: its depth and the tool message it nests under. */
  nested: { depth: number; parent_id: string };
  promptPath: string[];
}

/** Runs the sub-prompt `entry` with `args` under the tool message `parentMessageId`. */
export async function runSubprompt(
  ctx: StepContext,
  entry: SubpromptEntry,
  args: Record<string, unknown>,
  parentMessageId: string,
  depth: number,
  parentPath: string[],
): Promise<ToolExecution> {
  const { active, threadId } = ctx;
  if (depth > MAX_SUBPROMPT_DEPTH) {
    return {
      status: "error",
      content: errorContent(`Sub-prompts nest at most ${MAX_SUBPROMPT_DEPTH} deep.`),
      args,
    };
  }
  const options = subpromptOptions(entry);
  const prompt = entry.prompt;
  const definitions = active.definitions;
  const row = await findThread(ctx.db, threadId);
  const env = { ...(prompt.env ?? {}), ...(active.agent.env ?? {}), ...(row?.env ?? {}) };
  const system = renderPromptContent({
    prompt,
    findPrompt: (name) => definitions.index.prompts.get(name)?.definition,
    resolveEnv: (name) => env[name],
  });
  const initText = initTextOf(options, args);
  const nested = { depth, parent_id: parentMessageId };
  if (initText !== null) {
    await ctx.commits.commit(threadId, (tx) =>
      ctx.commits.insert(tx, threadId, [{ role: "user", side: null, content: initText, ...nested }]),
    );
  }
  const catalog = await subpromptCatalog(ctx, prompt);
  const run: NestedRun = { prompt, options, catalog, nested, promptPath: [...parentPath, prompt.name] };
  const messages: ModelCallRequest["messages"] = [
    { role: "system", content: system },
    ...(initText !== null ? [{ role: "user" as const, content: initText }] : []),
  ];
  const startedAt = nowMicroseconds();
  let result: ModelCallResult;
  try {
    result = await callSubpromptModel(ctx, run, messages, row);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return {
      status: "error",
      content: options.includeErrors ? `Error: ${message}` : "Error: Tool execution failed",
      args,
    };
  }
  const toolCalls = storedToolCalls(result);
  await commitSubpromptReply(ctx, run, { messages, result, toolCalls, startedAt });
  const calls = await runNestedCalls(ctx, run, toolCalls);
  const assembled = assembleSubpromptResult(result.text, calls, options);
  return { status: assembled.status, content: assembled.content, args };
}

/** The tools the sub-prompt offers its model (its MCP servers' tools listed first). */
async function subpromptCatalog(ctx: StepContext, prompt: PromptDefinition): Promise<ToolCatalog> {
  const { ext } = ctx;
  const index = ctx.active.definitions.index;
  await ext.registry?.mcp.prepare(mcpServersOf(prompt, index));
  return buildToolCatalog(
    prompt,
    resolveSideConfig({ prompt: prompt.name }),
    index,
    (moduleId) => ext.registry?.tools.get(moduleId)?.inputSchema,
    undefined,
    (serverId) => ext.registry?.mcp.cachedTools(serverId),
  );
}

/** The model's tool calls as the assistant message stores them. */
function storedToolCalls(result: ModelCallResult): StoredToolCall[] {
  return result.toolCalls.map((call) => ({
    id: call.id,
    type: "function",
    function: {
      name: call.name,
      arguments: typeof call.args === "string" ? call.args : JSON.stringify(call.args ?? {}),
    },
  }));
}

/** The sub-prompt's result options as its tool configures them. */
function subpromptOptions(entry: SubpromptEntry): ReturnType<typeof resolveSubpromptConfig> {
  const config = entry.config;
  return resolveSubpromptConfig({
    name: entry.name,
    ...(config.initUserMessageProperty !== undefined
      ? { initUserMessageProperty: config.initUserMessageProperty }
      : {}),
    ...(config.includeTextResponse !== undefined ? { includeTextResponse: config.includeTextResponse } : {}),
    ...(config.includeToolCalls !== undefined ? { includeToolCalls: config.includeToolCalls } : {}),
    ...(config.includeErrors !== undefined ? { includeErrors: config.includeErrors } : {}),
  });
}

/** The user message the sub-prompt starts from: the argument its init property names (none: null). */
function initTextOf(
  options: ReturnType<typeof resolveSubpromptConfig>,
  args: Record<string, unknown>,
): string | null {
  const initValue = options.initUserMessageProperty ? args[options.initUserMessageProperty] : undefined;
  if (initValue === undefined || initValue === null) return null;
  return typeof initValue === "string" ? initValue : JSON.stringify(initValue);
}

/** The sub-prompt's one model call (the scripted index counted as for the side's own calls). */
async function callSubpromptModel(
  ctx: StepContext,
  run: NestedRun,
  messages: ModelCallRequest["messages"],
  row: ThreadRow | null,
): Promise<ModelCallResult> {
  const { active, abortSignal, threadId } = ctx;
  const { prompt, catalog } = run;
  const promptOptions = resolvePromptOptions(prompt);
  return ctx.deps.callModel(
    prompt.model,
    active.definitions.bundle.models,
    {
      messages,
      tools: catalog.specs,
      toolChoice: promptOptions.toolChoice,
      parallelToolCalls: promptOptions.parallelToolCalls,
      abortSignal,
      scriptedCallIndex: await countModelCalls(
        ctx,
        row ?? (await findThread(ctx.db, threadId))!,
        active.side,
        prompt.model,
      ),
    },
    {
      onTelemetry: announcingWaits(ctx, { id: threadId, root_id: ctx.rootId }, () => {}),
      ...(row ? { projectId: row.project_id } : {}),
    },
  );
}

/** The sub-prompt's reply committed under its tool message, with its call log and usage. */
async function commitSubpromptReply(
  ctx: StepContext,
  run: NestedRun,
  reply: {
    messages: ModelCallRequest["messages"];
    result: ModelCallResult;
    toolCalls: StoredToolCall[];
    startedAt: number;
  },
): Promise<void> {
  const { active, threadId } = ctx;
  const { prompt, catalog, nested } = run;
  const { result, toolCalls } = reply;
  await ctx.commits.commit(threadId, async (tx, current) => {
    await logModelCall(ctx, tx, current, {
      side: active.side,
      modelName: prompt.model,
      messages: reply.messages,
      catalog,
      result,
      error: null,
      startedAt: reply.startedAt,
      replayedFrom: null,
    });
    await ctx.commits.insert(tx, threadId, [
      {
        role: "assistant",
        side: active.side,
        content: result.text,
        tool_calls: toolCalls.length > 0 ? toolCalls : null,
        prompt: prompt.name,
        ...nested,
      },
    ]);
    await updateThread(
      tx,
      current.id,
      ctx.commits.withMessageSeq(current.id, {
        usage: {
          inputTokens: result.usage.inputTokens,
          outputTokens: result.usage.outputTokens,
          costUsd: result.costUsd,
        },
      }),
    );
  });
}

/** The sub-prompt's calls run in order, each result committed under its tool message. */
async function runNestedCalls(
  ctx: StepContext,
  run: NestedRun,
  toolCalls: readonly StoredToolCall[],
): Promise<SubpromptCall[]> {
  const { active, ext, abortSignal, threadId } = ctx;
  const { prompt, catalog, options, nested, promptPath } = run;
  const calls: SubpromptCall[] = [];
  for (const call of toolCalls) {
    if (abortSignal.aborted) break;
    const messageId = randomUUID();
    // A nested step cannot park its thread: a call that needs approval is refused, never run unasked.
    const execution = catalog.approvals?.has(call.function.name)
      ? {
          status: "error" as const,
          content: errorContent(NESTED_APPROVAL_REFUSED),
          args: call.function.arguments,
        }
      : await executeToolCall(call, {
          threadId,
          db: ctx.db,
          catalog,
          abortSignal,
          ...toolExtensions(ctx, threadId, ext, prompt.name, promptPath),
          runSubprompt: (inner, innerArgs) =>
            runSubprompt(ctx, inner, innerArgs, messageId, nested.depth + 1, promptPath),
        });
    const content =
      execution.status === "error" && options.includeErrors && !execution.content.startsWith("Error: ")
        ? `Error: ${execution.content}`
        : execution.content;
    await ctx.commits.commit(threadId, (tx) =>
      ctx.commits.insert(tx, threadId, [
        {
          id: messageId,
          role: "tool",
          side: active.side,
          content,
          name: call.function.name,
          tool_call_id: call.id,
          tool_status: execution.status,
          prompt: prompt.name,
          ...nested,
        },
      ]),
    );
    calls.push({
      name: call.function.name,
      argumentsJson: call.function.arguments,
      status: execution.status,
      content,
    });
  }
  return calls;
}
