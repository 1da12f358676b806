// Spawning a child (spec §7.3, §7.7, §7.8): the fan-out limits, the checks a parent's subagent call
// passes before it spawns (depth, active children and threads, the child's required variables, which
// defer the spawn as an env request), and the one transaction that creates the child: its thread, its
// registry row, its first invocation and its first input, keyed by the parent's tool call, so a
// re-run call finds its child instead of spawning another. A run of one-off spawns of one step
// (`spawnOneOffBatch`) creates all its children in one transaction.
// Lock order everywhere: child row before parent row (the parent is read FOR SHARE here).
import { randomUUID } from "node:crypto";
import type { SqlClient, SqlExecutor } from "@/lib/db/sql-client";
import type { BundleIndex } from "@/lib/standard";
import { InvalidInputError } from "../errors";
import { copyFilesBetweenThreads } from "../store/attachments";
import { insertChildReplays, replaySourcesOf } from "../store/child-replays";
import { createEnvRequest, findEnvRequestByCall } from "../store/env-request-store";
import { appendEvents, type NewEvent } from "../store/event-log";
import type { LeaseTo } from "../store/local-take";
import { insertFirstMessages, type NewMessage } from "../store/message-store";
import type { StoredMessage } from "../store/messages";
import { initialExecutionState } from "../store/messages";
import { ThreadTerminatedError } from "../store/queue-input";
import {
  countActiveChildren,
  countActiveThreads,
  findLinkBySpawnCall,
  insertInvocations,
  insertLinks,
  registryEvent,
  type SubagentLink,
} from "../store/registry-store";
import { lockParentForSpawn, type SpawningParent, spawnBatchCounts } from "../store/spawn-reads";
import { messageEvent, threadEvent } from "../store/thread-events";
import { spawnThreads } from "../store/thread-lifecycle";
import { nowMicroseconds, type ThreadRow } from "../store/thread-row";
import { type NewThread, notifyWork, type ThreadForStep } from "../store/thread-store";
import { insertChildRunTraces } from "../store/thread-traces";
import { randomSpanId, toolCallSpanId, tracing } from "../telemetry/tracing";
import { errorContent, type ToolExecution } from "../tools/tool-execution";
import {
  childInputFromArgs,
  type EnvLookup,
  handedDownEnv,
  missingChildVariables,
  type SubagentBranch,
} from "./branches";
import { type OneOffReportRoute, oneOffReportRoute } from "./report-to-parent";

export interface SpawnRequest {
  parentId: string;
  branch: SubagentBranch;
  /** The parent tool call that creates the child (or a bootstrap request's key). */
  callId: string;
  message: string;
  /** Paths in the parent's filesystem, copied into the child's /attachments/. */
  attachmentPaths: readonly string[];
  instanceName: string | null;
  description: string | null;
  resumable: boolean;
  /** Whether the parent waits for this invocation (its tool call answers with the result). */
  waits: boolean;
  /** Runtime-only values for the child (scopedEnv, bootstrap values). */
  scopedEnv: Record<string, string>;
  spawnGroupId?: string | null;
}

export class ParentGoneError extends Error {}

/** Creates the child. Throws ThreadTerminatedError when the parent is terminated. */
export async function spawnChild(tx: SqlExecutor, request: SpawnRequest): Promise<SubagentLink> {
  const spawned = await spawnChildren(tx, request.parentId, [request]);
  await appendEvents(tx, spawned.events);
  return spawned.links[0]!;
}

/** What `spawnChildren` created. */
export interface SpawnedChildren {
  links: SubagentLink[];
  events: NewEvent[];
  firstMessages: Map<string, StoredMessage>;
  /** Each child's spawn invocation. */
  invocations: Map<string, string>;
  /** The children leased to this process (`lease`), in spawn order, as their first step needs them. */
  taken: ThreadForStep[];
}

/**
 * Creates several children of one parent with a handful of statements (threads, registry rows,
 * invocations and first inputs, each one multi-row insert). Returns the links in request order and
 * the events to append; the caller appends them last in its transaction. The steps below run in
 * this order (the statements' order in the transaction).
 */
export async function spawnChildren(
  tx: SqlExecutor,
  parentId: string,
  requests: readonly SpawnRequest[],
  /** The first `count` children are leased to this process, which runs them (`local-take.ts`). */
  lease?: LeaseTo & { count: number },
): Promise<SpawnedChildren> {
  const batch = await openSpawnBatch(tx, parentId, requests);
  const spawned = await spawnThreads(tx, newChildThreads(batch), lease);
  const children = spawned.map((child) => child.row);
  if (tracing().enabled) await continueParentTrace(batch);
  const links = childLinks(batch);
  await insertLinks(tx, links);
  if (batch.replayOf) await recordChildReplays(batch, batch.replayOf);
  const invocationIds = await insertSpawnInvocations(batch);
  const firsts = await childFirstMessages(batch);
  const stored = new Map((await insertFirstMessages(tx, firsts)).map((message) => [message.id, message]));
  const firstIdByThread = new Map(firsts.map((first) => [first.threadId, first.message.id]));
  // Children this process took run here without a claim: the schedulers hear only of the others.
  if ((lease?.count ?? 0) < children.length) await notifyWork(tx, parentId);
  const events: NewEvent[] = [
    ...children.flatMap((child) => {
      const first = stored.get(firstIdByThread.get(child.id) ?? "");
      return [threadEvent(child), ...(first ? [messageEvent(child, first)] : [])];
    }),
    await registryEvent(tx, { id: parentId, root_id: batch.parent.rootId }, batch.childIds),
  ];
  const firstMessages = new Map<string, StoredMessage>();
  for (const [threadId, id] of firstIdByThread) {
    const first = stored.get(id);
    if (first) firstMessages.set(threadId, first);
  }
  const invocations = new Map(batch.childIds.map((childId, index) => [childId, invocationIds[index]!]));
  const taken = spawned.filter((child) => child.row.lease_owner !== null);
  return { links, events, firstMessages, invocations, taken };
}

/** One `spawnChildren` call as its steps read it: the parent, the requests and the children's ids. */
interface SpawnBatch {
  tx: SqlExecutor;
  parentId: string;
  /** The parent's row, held FOR SHARE until the transaction ends. */
  parent: SpawningParent;
  requests: readonly SpawnRequest[];
  /** One new id per request, in request order. */
  childIds: string[];
  /** In a replay, each child's counterpart in the source tree (null: not a replay). */
  replayOf: (string | null)[] | null;
  now: number;
}

/** Locks the parent (throws when it is gone or terminated) and picks the children's ids. */
async function openSpawnBatch(
  tx: SqlExecutor,
  parentId: string,
  requests: readonly SpawnRequest[],
): Promise<SpawnBatch> {
  const parent = await lockParentForSpawn(tx, parentId);
  if (!parent) throw new ParentGoneError(`Thread ${parentId} no longer exists.`);
  if (parent.terminatedAt !== null) throw new ThreadTerminatedError(parentId, parent.terminatedAt);
  const now = nowMicroseconds();
  const childIds = requests.map(() => randomUUID());
  // In a replay, each child follows its counterpart in the source tree.
  const replayOf =
    parent.replayOf !== null
      ? await replaySourcesOf(
          tx,
          parentId,
          parent.replayOf,
          requests.map((request) => ({ callId: request.callId, toolName: request.branch.name })),
        )
      : null;
  return { tx, parentId, parent, requests, childIds, replayOf, now };
}

/** The children's thread rows, one per request. */
function newChildThreads(batch: SpawnBatch): NewThread[] {
  const { parent, parentId, childIds, replayOf } = batch;
  return batch.requests.map((request, index) => ({
    id: childIds[index]!,
    projectId: parent.projectId,
    projectVersion: parent.projectVersion,
    agentName: request.branch.agent.name,
    parentId,
    rootId: parent.rootId,
    depth: parent.depth + 1,
    name: request.instanceName,
    // The child starts running (`spawn`) with its first message stored (side A's turn from seq 1),
    // so its first step has nothing to drain: one transaction less per child, same durability.
    execution: {
      ...initialExecutionState(),
      currentSide: "a" as const,
      turnStartSeq: 1,
      ...(replayOf?.[index] ? { replayOf: replayOf[index] } : {}),
    },
    env: {},
    scopedEnv: request.scopedEnv,
    messageSeq: 1,
  }));
}

/** Traces out: each child's runs continue the parent's trace under the call that spawned it. */
async function continueParentTrace(batch: SpawnBatch): Promise<void> {
  const { parentId, childIds } = batch;
  await insertChildRunTraces(
    batch.tx,
    parentId,
    batch.requests.map((request, index) => ({
      threadId: childIds[index]!,
      parentSpanId: toolCallSpanId(parentId, request.callId),
      spanId: randomSpanId(),
    })),
    Date.now(),
  );
}

/** The children's registry rows, one per request. */
function childLinks(batch: SpawnBatch): SubagentLink[] {
  const { parentId, childIds, now } = batch;
  return batch.requests.map((request, index): SubagentLink => {
    const { branch } = request;
    const resumable = branch.config.resumable;
    return {
      child_id: childIds[index]!,
      parent_id: parentId,
      tool_name: branch.name,
      name: request.instanceName ?? branch.agent.name,
      title: branch.agent.title ?? null,
      description: request.description ?? branch.agent.toolDescription ?? branch.agent.description ?? "",
      blocking: branch.config.blocking,
      resumable: request.resumable,
      receives_messages: resumable ? resumable.receives_messages : null,
      parent_communication: resumable ? resumable.parentCommunication : "implicit",
      spawn_call_id: request.callId,
      spawn_group_id: request.spawnGroupId ?? null,
      status: "running",
      // One microsecond apart in spawn order: the registry lists children by created_at, so a batch
      // reads in the order it was spawned (the same in every run, and in a replay), not by random id.
      created_at: now + index,
      updated_at: now,
    };
  });
}

/** In a replay: which source child each new child follows (the children without one are left out). */
async function recordChildReplays(batch: SpawnBatch, replayOf: (string | null)[]): Promise<void> {
  await insertChildReplays(
    batch.tx,
    batch.parent.rootId,
    batch.childIds.flatMap((childId, index) => {
      const sourceId = replayOf[index];
      return sourceId ? [{ childId, sourceId }] : [];
    }),
  );
}

/** Each child's spawn invocation; returns their ids in request order. */
async function insertSpawnInvocations(batch: SpawnBatch): Promise<string[]> {
  const { parentId, childIds, now } = batch;
  const invocationIds = batch.requests.map(() => randomUUID());
  await insertInvocations(
    batch.tx,
    batch.requests.map((request, index) => ({
      id: invocationIds[index]!,
      child_id: childIds[index]!,
      parent_id: parentId,
      call_id: request.callId,
      blocking: request.waits,
      created_at: now,
    })),
  );
  return invocationIds;
}

/** Each child's first message (the parent's message), its attachments copied from the parent. */
async function childFirstMessages(
  batch: SpawnBatch,
): Promise<{ threadId: string; message: NewMessage & { id: string } }[]> {
  const { tx, parentId, childIds } = batch;
  const firsts: { threadId: string; message: NewMessage & { id: string } }[] = [];
  for (const [index, request] of batch.requests.entries()) {
    const attachments =
      request.attachmentPaths.length > 0
        ? await copyFilesBetweenThreads(tx, parentId, childIds[index]!, request.attachmentPaths)
        : [];
    firsts.push({
      threadId: childIds[index]!,
      message: {
        id: randomUUID(),
        role: "user" as const,
        side: null,
        content: request.message,
        attachments,
        metadata: { from_parent: parentId },
      },
    });
  }
  return firsts;
}

/** Fan-out governance (documented in docs/runtime.md). */
export interface SubagentLimits {
  /** How deep a tree may grow: a thread at this depth cannot spawn children. */
  maxDepth: number;
  /** Children of one parent at work at once. */
  maxActiveChildren: number;
  /** Threads at work (queued or running) in the whole database at once. */
  maxActiveThreads: number;
}

export const DEFAULT_SUBAGENT_LIMITS: SubagentLimits = {
  maxDepth: 8,
  maxActiveChildren: 1000,
  maxActiveThreads: 10_000,
};

export function subagentLimitsFromEnv(env: Record<string, string | undefined>): SubagentLimits {
  const number = (value: string | undefined, fallback: number) => {
    const parsed = Number(value);
    return value !== undefined && Number.isInteger(parsed) && parsed > 0 ? parsed : fallback;
  };
  return {
    maxDepth: number(env.TANDEM_MAX_SUBAGENT_DEPTH, DEFAULT_SUBAGENT_LIMITS.maxDepth),
    maxActiveChildren: number(env.TANDEM_MAX_ACTIVE_CHILDREN, DEFAULT_SUBAGENT_LIMITS.maxActiveChildren),
    maxActiveThreads: number(env.TANDEM_MAX_ACTIVE_THREADS, DEFAULT_SUBAGENT_LIMITS.maxActiveThreads),
  };
}

/** A parent's subagent call that may spawn a child. */
export interface SpawnCallContext {
  db: SqlClient;
  parent: ThreadRow;
  index: BundleIndex;
  callId: string;
  /** Children spawned by one assistant message share a group (its message id). */
  spawnGroupId?: string;
  limits: SubagentLimits;
  /** The parent's env (thread, scoped, agent, prompt): scopedEnv values are handed down from it. */
  env: EnvLookup;
  /** after_subagent_created hooks of the parent, if any. */
  afterCreated?: (childId: string) => Promise<void>;
}

/** A subagent call refused with `message` (the model reads it as the tool's error result). */
export const failure = (message: string, args: unknown): ToolExecution => ({
  status: "error",
  content: errorContent(message),
  args,
});

/** What a spawning call asks for. */
export interface SpawnInput {
  message: string;
  attachmentPaths: string[];
  instanceName: string | null;
  description: string | null;
  resumable: boolean;
}

/** Finds the child this call spawned before, or checks the limits and variables and spawns it. */
export async function spawnForCall(
  context: SpawnCallContext,
  branch: SubagentBranch,
  args: Record<string, unknown>,
  input: SpawnInput,
): Promise<SubagentLink | ToolExecution> {
  const { parent, limits } = context;
  // Four independent reads at once, checked in this order below: under load each read waits its
  // turn on a busy connection, and a step that spawns its children one by one waited for each.
  const [existing, deferred, active, everywhere] = await Promise.all([
    findLinkBySpawnCall(context.db, parent.id, context.callId),
    findEnvRequestByCall(context.db, parent.id, context.callId),
    countActiveChildren(context.db, parent.id),
    countActiveThreads(context.db),
  ]);
  if (existing) return existing;
  if (deferred) return envRequiredResult(context.parent.id, deferred.id, branch.name, deferred.missing, args);
  const refused = limitRefusal(parent, branch.name, limits, { active, everywhere });
  if (refused !== null) return failure(refused, args);
  const scopedEnv = handedDownEnv(branch, context.env);
  const variables = missingChildVariables(branch.agent, context.index, scopedEnv);
  if (variables.missing.length > 0) {
    const request = await createEnvRequest(context.db, {
      parentId: parent.id,
      toolName: branch.name,
      callId: context.callId,
      payload: { ...spawnInputFields(input), config: branch.config },
      required: variables.required,
      missing: variables.missing,
    });
    return envRequiredResult(parent.id, request.id, branch.name, variables.missing, args);
  }
  try {
    const link = await context.db.transaction((tx) =>
      spawnChild(tx, {
        parentId: parent.id,
        branch,
        callId: context.callId,
        ...spawnInputFields(input),
        waits: branch.config.blocking,
        scopedEnv,
        spawnGroupId: context.spawnGroupId ?? null,
      }),
    );
    await context.afterCreated?.(link.child_id);
    return link;
  } catch (error) {
    // A missing attachment is the model's mistake: say so. Anything else (the parent was terminated
    // meanwhile, a database fault) ends the step, which the runner handles.
    if (error instanceof InvalidInputError) return failure(error.message, args);
    throw error;
  }
}

/** Why the fan-out limits refuse the spawn (the model reads it), or null when they allow it. */
function limitRefusal(
  parent: Pick<ThreadRow, "depth">,
  subagent: string,
  limits: SubagentLimits,
  working: { active: number; everywhere: number },
): string | null {
  if (parent.depth + 1 > limits.maxDepth)
    return `Cannot start "${subagent}": this thread is at depth ${parent.depth} and subagents may nest at most ${limits.maxDepth} levels deep (TANDEM_MAX_SUBAGENT_DEPTH). Do this work yourself instead.`;
  if (working.active >= limits.maxActiveChildren)
    return `Cannot start "${subagent}": ${working.active} of your subagents are still working and at most ${limits.maxActiveChildren} may work at once (TANDEM_MAX_ACTIVE_CHILDREN). Wait for some to report back, then try again.`;
  if (working.everywhere >= limits.maxActiveThreads)
    return `Cannot start "${subagent}": the server is running ${working.everywhere} threads, its limit (TANDEM_MAX_ACTIVE_THREADS). Try again later.`;
  return null;
}

/** The fields of a `SpawnInput`, copied one by one (the input may carry others, which are left out). */
function spawnInputFields(input: SpawnInput): SpawnInput {
  return {
    message: input.message,
    attachmentPaths: input.attachmentPaths,
    instanceName: input.instanceName,
    description: input.description,
    resumable: input.resumable,
  };
}

export function envRequiredResult(
  parentId: string,
  requestId: string,
  subagent: string,
  missing: readonly string[],
  args: unknown,
): ToolExecution {
  const details = {
    error: "subagent_env_required",
    message: `The subagent "${subagent}" needs values for ${missing.join(", ")} before it can start. Ask the user to provide them; the subagent starts as soon as they are stored.`,
    request_id: requestId,
    subagent,
    missing,
    endpoint: `/threads/${parentId}/variables/${requestId}`,
  };
  return {
    status: "error",
    content: errorContent(JSON.stringify(details)),
    args,
    metadata: { subagent_env_required: { request_id: requestId, subagent, missing } },
  };
}

/** The answer of a non-blocking call: the child's reference, its result comes later. */
export function startedResult(
  link: Pick<SubagentLink, "name" | "child_id">,
  verb: "started" | "created",
  args: unknown,
): ToolExecution {
  return {
    status: "success",
    content: `Subagent "${link.name}" ${verb} (reference: ${link.child_id}). Its result will arrive as a message when it finishes.`,
    args,
    metadata: { subagent: { reference: link.child_id, name: link.name } },
  };
}

/** One call of a run of one-off, non-blocking spawns (see `spawnOneOffBatch`). */
export interface OneOffSpawn {
  callId: string;
  branch: SubagentBranch;
  args: Record<string, unknown>;
}

/**
 * The spawn requests of a run of one-off, non-blocking spawns, or null when any of them must go the
 * ordinary way (`spawnForCall`), which also explains the refusal: too deep, or missing variables.
 */
export function oneOffSpawnRequests(
  parent: Pick<ThreadRow, "id" | "depth">,
  spawns: readonly OneOffSpawn[],
  env: EnvLookup,
  index: BundleIndex,
  limits: SubagentLimits,
  spawnGroupId: string,
): SpawnRequest[] | null {
  if (parent.depth + 1 > limits.maxDepth) return null;
  const requests: SpawnRequest[] = [];
  for (const { callId, branch, args } of spawns) {
    const scopedEnv = handedDownEnv(branch, env);
    if (missingChildVariables(branch.agent, index, scopedEnv).missing.length > 0) return null;
    const input = childInputFromArgs(branch.config, args);
    requests.push({
      parentId: parent.id,
      branch,
      callId,
      message: input.message,
      attachmentPaths: input.attachmentPaths,
      instanceName: input.instanceName,
      description: null,
      resumable: false,
      waits: false,
      scopedEnv,
      spawnGroupId,
    });
  }
  return requests;
}

/**
 * Spawns a run of one-off children inside the caller's transaction (which holds the parent's row),
 * or returns null when any call spawned or deferred before (a re-run) or the limits would be passed:
 * the calls then go the ordinary way. Returns what `spawnChildren` does and each child's one-off
 * report route (`OneOffReportRoute`), which the caller remembers for the child's run.
 */
export async function spawnOneOffBatch(
  tx: SqlExecutor,
  parentId: string,
  requests: readonly SpawnRequest[],
  limits: SubagentLimits,
  lease?: LeaseTo & { count: number },
): Promise<(SpawnedChildren & { routes: Map<string, OneOffReportRoute | null> }) | null> {
  const callIds = requests.map((request) => request.callId);
  const counts = await spawnBatchCounts(tx, { parentId, callIds });
  if (
    !counts ||
    counts.spawned > 0 ||
    counts.deferred > 0 ||
    counts.children + requests.length > limits.maxActiveChildren ||
    counts.everywhere + requests.length > limits.maxActiveThreads
  )
    return null;
  const spawned = await spawnChildren(tx, parentId, requests, lease);
  const siblings = counts.children + spawned.links.length;
  const routes = new Map(
    spawned.links.map((link) => [
      link.child_id,
      oneOffReportRoute(link, spawned.invocations.get(link.child_id) ?? "", siblings),
    ]),
  );
  return { ...spawned, routes };
}
