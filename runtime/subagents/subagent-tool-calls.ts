import { InvalidInputError } from "../errors";
import { ThreadTerminatedError } from "../store/queue-input";
import {
  findInvocation,
  findLinkBySpawnCall,
  listLinks,
  liveInstances,
  type SubagentLink,
} from "../store/registry-store";
import type { ToolExecution } from "../tools/tool-execution";
import {
  childInputFromArgs,
  lifecycleInput,
  SUBAGENT_CREATE_TOOL,
  SUBAGENT_MESSAGE_TOOL,
  type SubagentBranch,
} from "./branches";
import { deliverToChild } from "./deliver-to-child";
import { blockingCallAnswer } from "./report-to-parent";
import { failure, type SpawnCallContext, spawnForCall, startedResult } from "./spawn-child";

/** A parent's subagent call (its thread, its call id, its limits and env). */
export type SubagentCallContext = SpawnCallContext;

/** A tool execution; `pending` when the call waits for a child's result (the parent parks). */
export type SubagentCallResult = ToolExecution;

/** The direct tool of a non-resumable branch: spawn (once), then the result or a reference. */
export async function callSubagentTool(
  context: SubagentCallContext,
  branch: SubagentBranch,
  args: Record<string, unknown>,
): Promise<SubagentCallResult> {
  const input = childInputFromArgs(branch.config, args);
  const spawned = await spawnForCall(context, branch, args, {
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
  const spawned = await spawnForCall(context, branch, args, {
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
  return blockingCallAnswer(context.db, context.parent.id, context.callId, args);
}

async function answerFor(
  context: SubagentCallContext,
  link: SubagentLink,
  blocking: boolean,
  args: unknown,
  verb: "started" | "created",
): Promise<SubagentCallResult> {
  if (!blocking) return startedResult(link, verb, args);
  return blockingCallAnswer(context.db, context.parent.id, context.callId, args);
}
