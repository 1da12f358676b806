// The subagent part of a fork (runtime/services/thread-fork.ts): reads the children the copied
// history knows about (spawned by a call at or before the cut) with their whole subtrees, and writes
// them again under the fork with new ids — threads, messages, files, registry rows, invocations and
// env requests, each kind in one or a few multi-row statements — inside the fork's transaction.
import "server-only";
import { randomUUID } from "node:crypto";
import type { SqlExecutor } from "@/lib/db/sql-client";
import { type IdMap, remapIds, remapJson, remapNullable } from "@/lib/runs/fork-ids";
import { UnprocessableError } from "../errors";
import { type EnvRequest, envRequestsOf, insertEnvRequestCopies } from "../store/env-request-store";
import type { NewEvent } from "../store/event-log";
import { copyFilesOfThreads } from "../store/file-store";
import { descendantsOfSpawns, lockThreadsForShare } from "../store/fork-source-reads";
import { insertMessageCopies, readHistories } from "../store/message-store";
import type { StoredMessage } from "../store/messages";
import { addModelCallCounts, type ModelCallCounts } from "../store/model-call-counts";
import {
  insertInvocationCopies,
  insertLinks,
  invocationsOfChildren,
  linksOfChildren,
  registryEvent,
  type SubagentInvocation,
  type SubagentLink,
} from "../store/registry-store";
import { messageEvent, threadEvent } from "../store/thread-events";
import { copyThreads, isCopyableStatus } from "../store/thread-lifecycle";
import type { ThreadRow } from "../store/thread-row";

/** What a fork copies below its root, read (and row-locked) in the fork's transaction. */
export interface SourceSubtree {
  /** Every thread to copy, parents before their children. */
  threads: ThreadRow[];
  histories: Map<string, StoredMessage[]>;
  links: SubagentLink[];
  invocations: SubagentInvocation[];
  envRequests: EnvRequest[];
}

/**
 * The children of `sourceId` spawned by one of `callIds` (the tool calls of the copied history) and
 * all their descendants, locked FOR SHARE until the fork commits, so none of them moves meanwhile.
 * Throws 422 (`fork_child_active`) when one of them is at work: its history would be half a turn.
 */
export async function readSubtree(
  tx: SqlExecutor,
  sourceId: string,
  callIds: ReadonlySet<string>,
): Promise<SourceSubtree> {
  const empty = { threads: [], histories: new Map(), links: [], invocations: [], envRequests: [] };
  if (callIds.size === 0) return empty;
  // A deferred spawn (an env request of a copied call) spawned its child under its own key.
  const rootRequests = (await envRequestsOf(tx, [sourceId])).filter((request) =>
    callIds.has(request.call_id),
  );
  const spawnKeys = new Set([...callIds, ...rootRequests.map((request) => `env-request:${request.id}`)]);
  const ids = await descendantsOfSpawns(tx, { parentId: sourceId, spawnKeys: [...spawnKeys] });
  if (ids.length === 0) return { ...empty, envRequests: rootRequests };
  const locked = await lockThreadsForShare(tx, ids);
  const active = locked.filter((thread) => !isCopyableStatus(thread.status));
  if (active.length > 0)
    throw new UnprocessableError(
      `${active.length === 1 ? "A subagent" : `${active.length} subagents`} the fork would copy ${active.length === 1 ? "is" : "are"} still at work (${active.map((thread) => `${thread.name ?? thread.agent_name} ${thread.id}: ${thread.status}`).join(", ")}); a copy would hold half a turn. Fork once ${active.length === 1 ? "it has" : "they have"} finished, stop ${active.length === 1 ? "it" : "them"}, or fork from an earlier message.`,
      { thread_ids: active.map((thread) => thread.id) },
      "fork_child_active",
    );
  const threads = [...locked].sort((left, right) => left.depth - right.depth);
  const [histories, links, invocations, requests] = await Promise.all([
    readHistories(tx, ids),
    linksOfChildren(tx, ids),
    invocationsOfChildren(tx, ids),
    envRequestsOf(tx, ids),
  ]);
  // Below the root everything is copied whole; of the root's, only what the copied history called.
  return {
    threads,
    histories,
    links,
    invocations: invocations.filter(
      (invocation) => invocation.parent_id !== sourceId || spawnKeys.has(invocation.call_id),
    ),
    envRequests: [...rootRequests, ...requests],
  };
}

/** Adds a new id for every id of `subtree` the copy renews (threads, messages, invocations, requests). */
export function renewSubtreeIds(subtree: SourceSubtree, ids: Map<string, string>): void {
  const renew = (id: string) => {
    if (!ids.has(id)) ids.set(id, randomUUID());
  };
  for (const thread of subtree.threads) renew(thread.id);
  for (const history of subtree.histories.values()) for (const message of history) renew(message.id);
  for (const invocation of subtree.invocations) renew(invocation.id);
  for (const request of subtree.envRequests) renew(request.id);
}

export interface SubtreeCopy {
  rows: ThreadRow[];
  messages: number;
  files: number;
  /** Thread and message events of the copies; the caller adds `registryEvents` after its own. */
  events: NewEvent[];
}

/** Writes the copies under the fork root `forkId` (`ids` holds every renewed id; see renewSubtreeIds). */
export async function writeSubtreeCopy(
  tx: SqlExecutor,
  subtree: SourceSubtree,
  ids: IdMap,
  forkId: string,
  /** Each source thread's successful model calls (modelCallCounts): what its copy's history stands for. */
  calls: ReadonlyMap<string, ModelCallCounts>,
): Promise<SubtreeCopy> {
  const renewed = (id: string) => ids.get(id) ?? id;
  const rows = await copyThreads(
    tx,
    subtree.threads.map((thread) => ({
      id: renewed(thread.id),
      projectId: thread.project_id,
      projectVersion: thread.project_version,
      agentName: thread.agent_name,
      parentId: thread.parent_id ? renewed(thread.parent_id) : null,
      rootId: forkId,
      depth: thread.depth,
      name: thread.name,
      // A copy is nobody's replay: it answers its calls with its own models.
      // Its scripted models count on from the calls that wrote the copied history.
      execution: {
        ...remapJson(thread.execution, ids),
        replayOf: undefined,
        copiedModelCalls: addModelCallCounts(thread.execution.copiedModelCalls, calls.get(thread.id) ?? {}),
      },
      env: thread.env,
      scopedEnv: thread.scoped_env,
      messageSeq: thread.message_seq,
      forkedFrom: { threadId: thread.id, messageId: null },
      status: thread.status,
      status_text: remapNullable(thread.status_text, ids),
      user_stopped: thread.user_stopped,
      terminated_at: thread.terminated_at,
      result: remapNullable(thread.result, ids),
      failure: remapNullable(thread.failure, ids),
      stop_reason: thread.stop_reason,
      // What the copied run spent and when it ran: the copy shows the same work.
      input_tokens: thread.input_tokens,
      output_tokens: thread.output_tokens,
      cost_usd: thread.cost_usd,
      created_at: thread.created_at,
      updated_at: thread.updated_at,
      finished_at: thread.finished_at,
    })),
  );
  const copies = subtree.threads.flatMap((thread) =>
    (subtree.histories.get(thread.id) ?? []).map((message) => ({
      threadId: renewed(thread.id),
      message: copyMessage(message, ids),
    })),
  );
  const [messages, files] = await Promise.all([
    insertMessageCopies(tx, copies),
    copyFilesOfThreads(
      tx,
      subtree.threads.map((thread) => [thread.id, renewed(thread.id)] as const),
    ),
    insertLinks(
      tx,
      subtree.links.map((link) => ({
        ...remapJson(link, ids),
        created_at: link.created_at,
        updated_at: link.updated_at,
      })),
    ),
    insertInvocationCopies(
      tx,
      subtree.invocations.map((invocation) => ({
        ...remapJson(invocation, ids),
        id: renewed(invocation.id),
      })),
    ),
    insertEnvRequestCopies(
      tx,
      subtree.envRequests.map((request) => ({ ...remapJson(request, ids), id: renewed(request.id) })),
    ),
  ]);
  const byThread = new Map<string, StoredMessage[]>();
  for (const copy of copies) {
    if (copy.message.depth !== 0) continue;
    const list = byThread.get(copy.threadId);
    if (list) list.push(copy.message);
    else byThread.set(copy.threadId, [copy.message]);
  }
  const events = rows.flatMap((row) => [
    threadEvent(row),
    ...(byThread.get(row.id) ?? []).map((message) => messageEvent(row, message)),
  ]);
  return { rows, messages, files, events };
}

/** A registry event for the fork root and for every copy with children of its own. */
export async function registryEvents(
  tx: SqlExecutor,
  forkId: string,
  subtree: SourceSubtree,
  ids: IdMap,
): Promise<NewEvent[]> {
  const parents = [...new Set(subtree.links.map((link) => ids.get(link.parent_id) ?? link.parent_id))];
  const events: NewEvent[] = [];
  for (const parentId of parents) {
    const childIds = subtree.links
      .filter((link) => (ids.get(link.parent_id) ?? link.parent_id) === parentId)
      .map((link) => ids.get(link.child_id) ?? link.child_id);
    events.push(await registryEvent(tx, { id: parentId, root_id: forkId }, childIds));
  }
  return events;
}

/** A message under its new id, with every renewed id in it replaced. */
export function copyMessage(message: StoredMessage, ids: IdMap): StoredMessage {
  return {
    ...message,
    id: ids.get(message.id) ?? message.id,
    content: remapNullable(message.content, ids),
    tool_calls: remapJson(message.tool_calls, ids),
    parent_id: message.parent_id ? (ids.get(message.parent_id) ?? null) : null,
    metadata: remapJson(message.metadata, ids),
    subagent_id: message.subagent_id ? remapIds(message.subagent_id, ids) : null,
    attachments: remapJson(message.attachments, ids),
  };
}
