// What a parent's subagent tool calls do (spec §7.3, §7.7, §7.8), as the step runner runs them:
// the direct subagent tool, subagent_create and subagent_message. Each is safe to run again for the
// same tool call after a crash: the spawn and the delivery are keyed by the call id. A blocking call
// answers `pending` until its invocation has ended; the step runner then parks the parent.
import type { SqlClient } from "@/lib/db/sql-client";
import type { BundleIndex } from "@/lib/standard";
import { InvalidInputError } from "../errors";
import { ThreadTerminatedError } from "../store/queue-input";
import type { ThreadRow } from "../store/thread-row";
import { errorContent, type ToolExecution } from "../tools/tool-execution";
import {
  childInputFromArgs,
  type EnvLookup,
  handedDownEnv,
  lifecycleInput,
  missingChildVariables,
  SUBAGENT_CREATE_TOOL,
  SUBAGENT_MESSAGE_TOOL,
  type SubagentBranch,
} from "./branches";
import { deliverToChild, spawnChild } from "./child-transactions";
import { createEnvRequest, findEnvRequestByCall } from "./env-requests";
import {
  countActiveChildren,
  countActiveThreads,
  findInvocation,
  findLinkBySpawnCall,
  listLinks,
  liveInstances,
  type SubagentLink,
} from "./registry-store";

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

export interface SubagentCallContext {
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

/** A tool execution; `pending` when the call waits for a child's result (the parent parks). */
export type SubagentCallResult = ToolExecution;

const failure = (message: string, args: unknown, metadata?: Record<string, unknown>): ToolExecution => ({
  status: "error",
  content: errorContent(message),
  args,
  ...(metadata ? { metadata } : {}),
});

/** The direct tool of a non-resumable branch: spawn (once), then the result or a reference. */
export async function callSubagentTool(
  context: SubagentCallContext,
  branch: SubagentBranch,
  args: Record<string, unknown>,
): Promise<SubagentCallResult> {
  const input = childInputFromArgs(branch.config, args);
  const spawned = await ensureSpawned(context, branch, args, {
    message: input.message,
    attachmentPaths: input.attachmentPaths,
    instanceName: input.instanceName,
    description: null,
    resumable: false,
  });
  if ("content" in spawned) return spawned;
  return answerFor(context, spawned, branch.config.blocking, args, "started");
}

export async function callSubagentCreate(
  context: SubagentCallContext,
  branches: readonly SubagentBranch[],
  args: Record<string, unknown>,
): Promise<SubagentCallResult> {
  const requested = typeof args.subagent === "string" ? args.subagent : undefined;
  const branch =
    requested !== undefined
      ? branches.find((candidate) => candidate.name === requested)
      : branches.length === 1
        ? branches[0]
        : undefined;
  if (!branch) {
    const choices = branches.map((candidate) => `"${candidate.name}"`).join(", ");
    return failure(
      requested === undefined
        ? `${SUBAGENT_CREATE_TOOL} needs "subagent": one of ${choices}.`
        : `There is no resumable subagent "${requested}" here. Choose one of ${choices}.`,
      args,
    );
  }
  const input = lifecycleInput(args);
  if (!input.instanceName) {
    return failure(`${SUBAGENT_CREATE_TOOL} requires a non-empty "name" for the new instance.`, args);
  }
  const existing = await findLinkBySpawnCall(context.db, context.parent.id, context.callId);
  if (!existing) {
    const resumable = branch.config.resumable;
    const instances = await liveInstances(context.db, context.parent.id, branch.name);
    const taken = (await listLinks(context.db, context.parent.id)).find(
      (link) => link.resumable && link.name === input.instanceName,
    );
    if (taken) {
      return failure(
        `An instance named "${input.instanceName}" already exists (reference: ${taken.child_id}). Send it work with ${SUBAGENT_MESSAGE_TOOL}, or pick another name.`,
        args,
      );
    }
    const cap = resumable ? resumable.maxInstances : undefined;
    if (cap !== undefined && instances.length >= cap) {
      const list = instances
        .map((instance) => `"${instance.name}" (reference: ${instance.reference})`)
        .join(", ");
      return failure(
        `Cannot create another "${branch.name}" instance: the limit is ${cap} (maxInstances) and ${instances.length} exist: ${list}. Use ${SUBAGENT_MESSAGE_TOOL} to give an existing instance more work instead.`,
        args,
      );
    }
  }
  const spawned = await ensureSpawned(context, branch, args, {
    message: input.message,
    attachmentPaths: input.attachmentPaths,
    instanceName: input.instanceName,
    description: input.description,
    resumable: true,
  });
  if ("content" in spawned) return spawned;
  return answerFor(context, spawned, branch.config.blocking, args, "created");
}

export async function callSubagentMessage(
  context: SubagentCallContext,
  branches: readonly SubagentBranch[],
  args: Record<string, unknown>,
): Promise<SubagentCallResult> {
  const input = lifecycleInput(args);
  const reference = typeof args.reference === "string" ? args.reference.trim() : "";
  const links = (await listLinks(context.db, context.parent.id)).filter((link) => link.resumable);
  const target = reference
    ? links.find((link) => link.child_id === reference)
    : input.instanceName
      ? links.find((link) => link.name === input.instanceName)
      : undefined;
  if (!target) {
    const known = links.map((link) => `"${link.name}" (reference: ${link.child_id})`).join(", ");
    return failure(
      `${reference || input.instanceName ? `No subagent instance ${reference ? `with reference ${reference}` : `named "${input.instanceName}"`}.` : `${SUBAGENT_MESSAGE_TOOL} needs "reference" or "name".`} ${known ? `Your instances: ${known}.` : `You have no instances yet; create one with ${SUBAGENT_CREATE_TOOL}.`}`,
      args,
    );
  }
  const branch = branches.find((candidate) => candidate.name === target.tool_name);
  if (!branch) {
    return failure(`The "${target.tool_name}" subagent is not available to this prompt.`, args);
  }
  const already = await findInvocation(context.db, context.parent.id, context.callId);
  if (!already) {
    try {
      await context.db.transaction((tx) =>
        deliverToChild(tx, {
          link: target,
          callId: context.callId,
          message: input.message,
          attachmentPaths: input.attachmentPaths,
          waits: branch.config.blocking,
        }),
      );
    } catch (error) {
      if (error instanceof ThreadTerminatedError) {
        return failure(
          `Subagent "${target.name}" (reference: ${target.child_id}) is terminated and accepts no messages. Create a new instance with ${SUBAGENT_CREATE_TOOL}.`,
          args,
        );
      }
      if (error instanceof InvalidInputError) return failure(error.message, args);
      throw error;
    }
  }
  if (!branch.config.blocking) {
    return {
      status: "success",
      content: `Message delivered to subagent "${target.name}" (reference: ${target.child_id}). Its result will arrive as a message when it finishes.`,
      args,
    };
  }
  return waitOrResult(context, args);
}

interface SpawnInput {
  message: string;
  attachmentPaths: string[];
  instanceName: string | null;
  description: string | null;
  resumable: boolean;
}

/** Finds the child this call spawned before, or checks the limits and variables and spawns it. */
async function ensureSpawned(
  context: SubagentCallContext,
  branch: SubagentBranch,
  args: Record<string, unknown>,
  input: SpawnInput,
): Promise<SubagentLink | ToolExecution> {
  const { parent, limits } = context;
  const existing = await findLinkBySpawnCall(context.db, parent.id, context.callId);
  if (existing) return existing;
  const deferred = await findEnvRequestByCall(context.db, parent.id, context.callId);
  if (deferred) return envRequiredResult(context.parent.id, deferred.id, branch.name, deferred.missing, args);
  if (parent.depth + 1 > limits.maxDepth) {
    return failure(
      `Cannot start "${branch.name}": this thread is at depth ${parent.depth} and subagents may nest at most ${limits.maxDepth} levels deep (TANDEM_MAX_SUBAGENT_DEPTH). Do this work yourself instead.`,
      args,
    );
  }
  const active = await countActiveChildren(context.db, parent.id);
  if (active >= limits.maxActiveChildren) {
    return failure(
      `Cannot start "${branch.name}": ${active} of your subagents are still working and at most ${limits.maxActiveChildren} may work at once (TANDEM_MAX_ACTIVE_CHILDREN). Wait for some to report back, then try again.`,
      args,
    );
  }
  const everywhere = await countActiveThreads(context.db);
  if (everywhere >= limits.maxActiveThreads) {
    return failure(
      `Cannot start "${branch.name}": the server is running ${everywhere} threads, its limit (TANDEM_MAX_ACTIVE_THREADS). Try again later.`,
      args,
    );
  }
  const scopedEnv = handedDownEnv(branch, context.env);
  const variables = missingChildVariables(branch.agent, context.index, scopedEnv);
  if (variables.missing.length > 0) {
    const request = await createEnvRequest(context.db, {
      parentId: parent.id,
      toolName: branch.name,
      callId: context.callId,
      payload: {
        message: input.message,
        attachmentPaths: input.attachmentPaths,
        instanceName: input.instanceName,
        description: input.description,
        resumable: input.resumable,
        config: branch.config,
      },
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
        message: input.message,
        attachmentPaths: input.attachmentPaths,
        instanceName: input.instanceName,
        description: input.description,
        resumable: input.resumable,
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

async function answerFor(
  context: SubagentCallContext,
  link: SubagentLink,
  blocking: boolean,
  args: unknown,
  verb: "started" | "created",
): Promise<SubagentCallResult> {
  if (!blocking) return startedResult(link, verb, args);
  return waitOrResult(context, args);
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

async function waitOrResult(context: SubagentCallContext, args: unknown): Promise<SubagentCallResult> {
  const invocation = await findInvocation(context.db, context.parent.id, context.callId);
  if (!invocation || invocation.finished_at === null) {
    return { status: "success", content: "", args, pending: true };
  }
  return {
    status: invocation.status === "completed" ? "success" : "error",
    content: invocation.result ?? "",
    args,
    metadata: { subagent: { reference: invocation.child_id, status: invocation.status } },
    ...(invocation.attachments.length > 0
      ? { attachments: invocation.attachments as NonNullable<ToolExecution["attachments"]> }
      : {}),
  };
}
