// Spawn batch: a run of non-blocking calls of one-off subagent branches spawns its children and
// stores every call's result in one transaction (all or nothing), instead of one commit per call.

import type { HookRunner } from "../../extensions/hook-runner";
import { crashPoint } from "../../faults";
import { appendEvents } from "../../store/event-log";
import type { StoredMessage, StoredToolCall } from "../../store/messages";
import { messageEvent, telemetryEvent } from "../../store/thread-events";
import { nowMicroseconds } from "../../store/thread-row";
import { findThread } from "../../store/thread-store";
import {
  childInputFromArgs,
  envLookup,
  handedDownEnv,
  missingChildVariables,
  type SubagentBranch,
} from "../../subagents/branches";
import { oneOffReportRoute, type SpawnRequest, spawnChildren } from "../../subagents/child-transactions";
import { DEFAULT_SUBAGENT_LIMITS, startedResult } from "../../subagents/subagent-tool-calls";
import type { ToolCatalog } from "../tool-catalog";
import { ThreadTerminated } from "./errors";
import { insertToolRuns, safeJson } from "./tool-call-records";
import type { StepContext } from "./types";

export interface SpawnBatchItem {
  call: StoredToolCall;
  branch: SubagentBranch;
  args: Record<string, unknown>;
}

/** Hooks that observe single tool calls or messages: with any of them declared, calls run one by one. */
const OBSERVING_HOOKS = [
  "after_tool_call_success",
  "after_tool_call_failure",
  "before_store_tool_result",
  "before_create_message",
  "after_create_message",
  "after_subagent_created",
] as const;

/** Whether the step declares a hook that must see spawns call by call (no batches then). */
export function spawnObservingHooks(ext: {
  hooks: Pick<HookRunner, "has"> | null;
  hookIds: readonly string[];
}): boolean {
  const hooks = ext.hooks;
  return hooks !== null && OBSERVING_HOOKS.some((hook) => hooks.has(hook, ext.hookIds));
}

/**
 * Consecutive non-blocking calls of one-off subagent branches from `index` on, all but the last
 * (which runs the ordinary way, so the step's last call still ends the step); empty unless at
 * least two would batch.
 */
export function batchableSpawns(
  calls: readonly StoredToolCall[],
  index: number,
  catalog: Pick<ToolCatalog, "entries">,
): SpawnBatchItem[] {
  const run: SpawnBatchItem[] = [];
  for (const call of calls.slice(index)) {
    const entry = catalog.entries.get(call.function.name);
    if (entry?.kind !== "subagent" || entry.branch.config.blocking) break;
    const args = safeJson(call.function.arguments);
    if (!args || typeof args !== "object" || Array.isArray(args)) break;
    run.push({ call, branch: entry.branch, args: args as Record<string, unknown> });
  }
  return run.length > 2 ? run.slice(0, -1) : [];
}

/**
 * Spawns a batch of children and stores every call's result in one transaction (all or nothing).
 * Returns how many calls it answered; 0 sends the calls down the ordinary path, which also
 * explains every refusal (limits, missing variables, a child already spawned by a re-run call).
 */
export async function commitSpawnBatch(
  ctx: StepContext,
  assistant: StoredMessage,
  batch: readonly SpawnBatchItem[],
): Promise<number> {
  const { active, ext, threadId } = ctx;
  const parent = await findThread(ctx.db, threadId);
  if (!parent) throw new ThreadTerminated();
  const promptName = active.sideConfig.prompt;
  const prompt = active.definitions.index.prompts.get(promptName)?.definition;
  const env = envLookup(parent.env, parent.scoped_env, active.agent.env, prompt?.env);
  const limits = ctx.deps.subagentLimits ?? DEFAULT_SUBAGENT_LIMITS;
  if (parent.depth + 1 > limits.maxDepth) return 0;
  const requests: SpawnRequest[] = [];
  for (const { call, branch, args } of batch) {
    const scopedEnv = handedDownEnv(branch, env);
    if (missingChildVariables(branch.agent, active.definitions.index, scopedEnv).missing.length > 0) return 0;
    const input = childInputFromArgs(branch.config, args);
    requests.push({
      parentId: threadId,
      branch,
      callId: call.id,
      message: input.message,
      attachmentPaths: input.attachmentPaths,
      instanceName: input.instanceName,
      description: null,
      resumable: false,
      waits: false,
      scopedEnv,
      spawnGroupId: assistant.id,
    });
  }
  const callIds = batch.map((item) => item.call.id);
  const startedAt = nowMicroseconds();
  crashPoint("before_tool_commit", active.agent.name);
  const created = await ctx.commits.commit(threadId, async (tx, row) => {
    const [counts] = await tx.query<Record<string, number>>(
      `SELECT (SELECT count(*)::int FROM threads WHERE parent_id = $1 AND status IN ('queued', 'running')) AS children,
                (SELECT count(*)::int FROM threads WHERE status IN ('queued', 'running')) AS everywhere,
                (SELECT count(*)::int FROM subagents WHERE parent_id = $1 AND spawn_call_id = ANY($2)) AS spawned,
                (SELECT count(*)::int FROM subagent_env_requests WHERE parent_id = $1 AND call_id = ANY($2)) AS deferred`,
      [row.id, callIds],
    );
    if (
      !counts ||
      Number(counts.spawned) > 0 ||
      Number(counts.deferred) > 0 ||
      Number(counts.children) + batch.length > limits.maxActiveChildren ||
      Number(counts.everywhere) + batch.length > limits.maxActiveThreads
    )
      return null;
    const spawned = await spawnChildren(tx, row.id, requests);
    const results = spawned.links.map((link, index) => ({
      call: batch[index]!.call,
      execution: startedResult(link, "started", batch[index]!.args),
    }));
    const stored = await ctx.commits.insert(
      tx,
      row.id,
      results.map(({ call, execution }) => ({
        role: "tool" as const,
        side: active.side,
        content: execution.content,
        name: call.function.name,
        tool_call_id: call.id,
        tool_status: execution.status,
        prompt: promptName,
        ...(execution.metadata ? { metadata: execution.metadata } : {}),
      })),
    );
    await insertToolRuns(
      tx,
      row.id,
      results.map(({ call, execution }) => ({
        toolCallId: call.id,
        name: call.function.name,
        args: execution.args,
        status: execution.status,
        result: execution.content,
        startedAt,
      })),
    );
    await appendEvents(tx, [
      ...results.flatMap(({ call }) => [
        telemetryEvent(row, { type: "tool_started", tool: call.function.name }),
        telemetryEvent(row, { type: "tool_completed", tool: call.function.name, status: "success" }),
      ]),
      ...stored.map((message) => messageEvent(row, message)),
      ...spawned.events,
    ]);
    const siblings = Number(counts.children) + spawned.links.length;
    const routes = new Map(
      spawned.links.map((link) => [
        link.child_id,
        oneOffReportRoute(link, spawned.invocations.get(link.child_id) ?? "", siblings),
      ]),
    );
    return { stored, firstMessages: spawned.firstMessages, routes };
  });
  if (!created) return 0;
  // A child's first run (likely in this process) then starts without reading its history, and
  // a one-off child reports without reading its registry row.
  for (const [childId, first] of created.firstMessages) {
    const report = created.routes.get(childId);
    ctx.deps.spawnedCaches?.park(childId, {
      history: { version: first.seq, messages: [first] },
      modelCalls: new Map(),
      requests: new Map(),
      ...(report ? { report } : {}),
    });
  }
  ext.history.push(...created.stored);
  return created.stored.length;
}
