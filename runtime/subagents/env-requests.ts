// Scoped variable bootstrap (spec §7.8): a subagent call whose child graph lacks required variables
// is stored as a request; GET lists what is required and missing; POST stores the values as the
// child's runtime-only scoped env and boots the deferred child with the original payload. Values are
// never written to the request row, to messages, or anywhere a model could read them.
import { randomUUID } from "node:crypto";
import type { SqlClient, SqlExecutor } from "@/lib/db/sql-client";
import { NotFoundError, UnprocessableError } from "../errors";
import type { DefinitionsCache } from "../store/definitions";
import {
  type EnvRequest,
  findEnvRequest,
  lockEnvRequestChild,
  resolveEnvRequest,
} from "../store/env-request-store";
import { queueThreadInput, ThreadTerminatedError } from "../store/queue-input";
import type { SubagentLink } from "../store/registry-store";
import { nowMicroseconds } from "../store/thread-row";
import { findThread, lockThread } from "../store/thread-store";
import { envLookup, handedDownEnv, missingChildVariables, type SubagentBranch } from "./branches";
import { spawnChild } from "./spawn-child";

export interface EnvRequestView {
  request_id: string;
  parent_id: string;
  agent: string;
  name: string;
  required: string[];
  missing: string[];
  status: "pending" | "booted";
  threadId: string | null;
  created_at: number;
}

export class EnvRequestService {
  constructor(
    private readonly db: SqlClient,
    private readonly definitions: DefinitionsCache,
  ) {}

  async get(parentId: string, requestId: string): Promise<EnvRequestView> {
    const request = await findEnvRequest(this.db, parentId, requestId);
    const context = await this.branchOf(request);
    const handed = handedDownEnv(context.branch, context.env);
    const { required, missing } = missingChildVariables(context.branch.agent, context.index, handed);
    return {
      request_id: request.id,
      parent_id: request.parent_id,
      agent: request.tool_name,
      name: request.payload.instanceName ?? request.tool_name,
      required,
      missing: request.resolved_at === null ? missing : [],
      status: request.resolved_at === null ? "pending" : "booted",
      threadId: request.child_id,
      created_at: request.created_at,
    };
  }

  /** Stores the values and boots the child; answering again for a booted request returns the same child. */
  async provide(
    parentId: string,
    requestId: string,
    values: Record<string, string>,
  ): Promise<{ threadId: string; request_id: string }> {
    const request = await findEnvRequest(this.db, parentId, requestId);
    if (request.resolved_at !== null && request.child_id) {
      return { threadId: request.child_id, request_id: request.id };
    }
    const context = await this.branchOf(request);
    const scopedEnv = { ...handedDownEnv(context.branch, context.env), ...values };
    const { missing } = missingChildVariables(context.branch.agent, context.index, scopedEnv);
    if (missing.length > 0) {
      throw new UnprocessableError(
        `Values are still missing for: ${missing.join(", ")}.`,
        { missing },
        "variables_missing",
      );
    }
    const childId = await this.db.transaction(async (tx) => {
      const bootedChild = await lockEnvRequestChild(tx, request.id);
      if (bootedChild) return bootedChild;
      const link = await spawnChild(tx, {
        parentId,
        branch: context.branch,
        callId: `env-request:${request.id}`,
        message: request.payload.message,
        attachmentPaths: request.payload.attachmentPaths,
        instanceName: request.payload.instanceName,
        description: request.payload.description,
        resumable: request.payload.resumable,
        // The call that asked has its answer already: the result arrives as a queued report.
        waits: false,
        scopedEnv,
      });
      await resolveEnvRequest(tx, {
        requestId: request.id,
        childId: link.child_id,
        resolvedAt: nowMicroseconds(),
      });
      await tellParentChildStarted(tx, parentId, link, request.id);
      return link.child_id;
    });
    return { threadId: childId, request_id: request.id };
  }

  private async branchOf(request: EnvRequest) {
    const parent = await findThread(this.db, request.parent_id);
    if (!parent) throw new NotFoundError("Thread", request.parent_id);
    const loaded = await this.definitions.load(parent.project_id, parent.project_version);
    const agent = loaded?.index.agents.get(request.tool_name)?.definition;
    const config = request.payload.config;
    if (!loaded || !agent || !config) throw new NotFoundError("Subagent", request.tool_name);
    const parentAgent = loaded.index.agents.get(parent.agent_name)?.definition;
    const parentPrompt = parentAgent
      ? loaded.index.prompts.get(parentAgent.sideA.prompt)?.definition
      : undefined;
    const branch: SubagentBranch = { name: request.tool_name, agent, config };
    return {
      branch,
      index: loaded.index,
      env: envLookup(parent.env, parent.scoped_env, parentAgent?.env, parentPrompt?.env),
    };
  }
}

/** A silent message to the parent (unless it is gone or terminated): the child it asked for started. */
async function tellParentChildStarted(
  tx: SqlExecutor,
  parentId: string,
  link: Pick<SubagentLink, "name" | "child_id">,
  requestId: string,
): Promise<void> {
  const parent = await lockThread(tx, parentId);
  if (!parent || parent.terminated_at !== null) return;
  await queueThreadInput(
    tx,
    parent,
    {
      role: "user",
      content: `Subagent "${link.name}" (reference: ${link.child_id}) has started: the variables it needed were provided.`,
      attachments: [],
      silent: true,
      metadata: { subagent_id: link.child_id, subagent_env_request: requestId },
      fromHuman: false,
      messageId: randomUUID(),
    },
    `subagent-env-booted:${requestId}`,
  ).catch((error: unknown) => {
    if (!(error instanceof ThreadTerminatedError)) throw error;
  });
}
