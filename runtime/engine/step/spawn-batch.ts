// Spawn batch: a run of non-blocking calls of one-off subagent branches spawns its children and
// stores every call's result in one transaction (all or nothing), instead of one commit per call.
// The spawning itself (requests, limits, the children's rows) is `spawnOneOffBatch` in
// runtime/subagents/spawn-child.ts; this phase stores the calls' results beside it.

import type { SqlExecutor } from "@/lib/db/sql-client";
import type { HookRunner } from "../../extensions/hook-runner";
import { crashPoint } from "../../faults";
import { appendEvents } from "../../store/event-log";
import { takeUpTo } from "../../store/local-take";
import type { StoredMessage, StoredToolCall } from "../../store/messages";
import { messageEvent, telemetryEvent } from "../../store/thread-events";
import { nowMicroseconds, type ThreadRow } from "../../store/thread-row";
import { findThread } from "../../store/thread-store";
import { insertToolRunsDeferred } from "../../store/tool-runs";
import { envLookup, type SubagentBranch } from "../../subagents/branches";
import {
  DEFAULT_SUBAGENT_LIMITS,
  oneOffSpawnRequests,
  type SubagentLimits,
  spawnOneOffBatch,
  startedResult,
} from "../../subagents/spawn-child";

import { recordToolSpan } from "../run-trace";
import type { ToolCatalog } from "../tool-catalog";
import { ThreadTerminated } from "./errors";
import { safeJson } from "./tool-call-records";
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
  catalog: Pick<ToolCatalog, "entries" | "approvals">,
): SpawnBatchItem[] {
  const run: SpawnBatchItem[] = [];
  for (const call of calls.slice(index)) {
    const entry = catalog.entries.get(call.function.name);
    if (entry?.kind !== "subagent" || entry.branch.config.blocking) break;
    if (catalog.approvals?.has(call.function.name)) break; // waits for its approval (approval-gate)
    const args = safeJson(call.function.arguments);
    if (!args || typeof args !== "object" || Array.isArray(args)) break;
    run.push({ call, branch: entry.branch, args: args as Record<string, unknown> });
  }
  return run.length > 2 ? run.slice(0, -1) : [];
}

/** What a committed batch answered, and how to start the children it leased to this process. */
export interface CommittedSpawnBatch {
  /** How many calls it answered; 0 sends the calls down the ordinary path. */
  answered: number;
  /**
   * Starts the children leased to this process. The caller starts them once the call after the
   * batch (the run's last spawn, `batchableSpawns`) is answered, and always, even when it fails:
   * started at once, a batch's children filled the connection pool, and that call, which spawns its
   * child the ordinary way in a transaction, waited for a free connection until most of them had
   * run (0.5 s in a fan-out to 50).
   */
  start(): void;
}

const NOTHING_COMMITTED: CommittedSpawnBatch = { answered: 0, start: () => {} };

/**
 * Spawns a batch of children and stores every call's result in one transaction (all or nothing).
 * Answers 0 calls to send them down the ordinary path, which also explains every refusal (limits,
 * missing variables, a child already spawned by a re-run call).
 */
export async function commitSpawnBatch(
  ctx: StepContext,
  assistant: StoredMessage,
  batch: readonly SpawnBatchItem[],
): Promise<CommittedSpawnBatch> {
  const { active, threadId } = ctx;
  const parent = await findThread(ctx.db, threadId);
  if (!parent) throw new ThreadTerminated();
  const promptName = active.sideConfig.prompt;
  const prompt = active.definitions.index.prompts.get(promptName)?.definition;
  const env = envLookup(parent.env, parent.scoped_env, active.agent.env, prompt?.env);
  const limits = ctx.deps.subagentLimits ?? DEFAULT_SUBAGENT_LIMITS;
  const requests = oneOffSpawnRequests(
    parent,
    batch.map(({ call, branch, args }) => ({ callId: call.id, branch, args })),
    env,
    active.definitions.index,
    limits,
    assistant.id,
  );
  if (!requests) return NOTHING_COMMITTED;
  const startedAt = nowMicroseconds();
  crashPoint("before_tool_commit", active.agent.name);
  // As many children as this process has room for are leased to it by the spawn and run here with
  // no claim (runtime/store/local-take.ts); the others are left to any scheduler.
  const takes = takeUpTo(ctx.deps.takeLocally, requests.length);
  const lease = takes[0]
    ? { owner: takes[0].owner, leaseMs: takes[0].leaseMs, count: takes.length }
    : undefined;
  const created = await ctx.commits
    .commit(threadId, (tx, row) => commitSpawned(ctx, tx, row, { batch, requests, limits, lease, startedAt }))
    .catch((error: unknown) => {
      for (const take of takes) take.cancel();
      throw error;
    });
  if (!created) {
    for (const take of takes) take.cancel();
    return NOTHING_COMMITTED;
  }
  rememberSpawned(ctx, created, batch, startedAt);
  let started = false;
  return {
    answered: created.stored.length,
    // After their caches: a taken child's first step may start at once.
    start() {
      if (started) return;
      started = true;
      for (const [index, take] of takes.entries()) {
        const child = created.taken[index];
        if (child) take.run({ id: child.row.id, runStartedAt: null, read: child });
        else take.cancel();
      }
    },
  };
}

/** What the batch's transaction spawns: the calls, their spawn requests, and the lease of local takes. */
interface SpawnCommit {
  batch: readonly SpawnBatchItem[];
  requests: NonNullable<ReturnType<typeof oneOffSpawnRequests>>;
  limits: SubagentLimits;
  lease: Parameters<typeof spawnOneOffBatch>[4];
  startedAt: number;
}

/** The batch's transaction: its children spawned, each call's result, tool run and events stored. */
async function commitSpawned(ctx: StepContext, tx: SqlExecutor, row: ThreadRow, commit: SpawnCommit) {
  const { active } = ctx;
  const { batch, startedAt } = commit;
  const promptName = active.sideConfig.prompt;
  const spawned = await spawnOneOffBatch(tx, row.id, commit.requests, commit.limits, commit.lease);
  if (!spawned) return null;
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
  await insertToolRunsDeferred(
    tx,
    row,
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
  return { stored, firstMessages: spawned.firstMessages, routes: spawned.routes, taken: spawned.taken };
}

/**
 * After the batch's commit: a child's first run (likely in this process) starts without reading its
 * history, a one-off child reports without reading its registry row; the calls' spans go out.
 */
function rememberSpawned(
  ctx: StepContext,
  created: NonNullable<Awaited<ReturnType<typeof commitSpawned>>>,
  batch: readonly SpawnBatchItem[],
  startedAt: number,
): void {
  const { ext, threadId } = ctx;
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
  for (const { call } of batch.slice(0, created.stored.length))
    recordToolSpan(ctx.trace, {
      threadId,
      toolCallId: call.id,
      toolName: call.function.name,
      startMs: startedAt / 1000,
      status: "success",
      arguments: call.function.arguments,
    });
}
