// The transactions that cross the parent/child boundary (spec §7):
// - spawnChild: the child thread, its registry row, its first invocation and its first input, in one
//   transaction (keyed by the parent's tool call, so a re-run call finds its child instead of
//   spawning another);
// - deliverToChild: a subagent_message, with its own invocation and idempotency key;
// - settleChild: runs inside the transaction that ends a child's session. It ends the child's open
//   invocations exactly once and, in the same commit, reports to the parent: a blocking call waiting
//   for it wakes the parent (which then reads the result from the invocation); anything else is a
//   queued silent message under `implicit` parent communication, keyed by the invocation id.
// - settleOneOffChild: the same for a child this process spawned as a one-off, non-blocking,
//   implicit subagent, from what it remembers of the spawn: nothing to read, so the child's last
//   step commits in one statement.
// Lock order everywhere: child row before parent row, so two of these never wait on each other.
import { randomUUID } from "node:crypto";
import type { SqlExecutor } from "@/lib/db/sql-client";
import { copyFilesBetweenThreads } from "../store/attachments";
import { appendEvents, type NewEvent } from "../store/event-log";
import {
  type InboxMessagePayload,
  insertInboxItemDeferred,
  insertInboxItemUnlessTerminated,
} from "../store/inbox";
import { insertFirstMessages, type NewMessage } from "../store/message-store";
import type { AttachmentRef, StoredMessage } from "../store/messages";
import { initialExecutionState } from "../store/messages";
import { queueThreadInput, ThreadTerminatedError } from "../store/queue-input";
import { messageEvent, threadEvent } from "../store/thread-events";
import { isActive, spawnThreads, wakeForReport } from "../store/thread-lifecycle";
import { nowMicroseconds, type ThreadRow } from "../store/thread-row";
import { lockThread, notifyWork, updateThread, WORK_CHANNEL } from "../store/thread-store";
import { type ChildOutcome, outcomeStatus, reportText, type SubagentBranch } from "./branches";
import {
  FULL_REGISTRY_EVENT_LIMIT,
  findLinkOfChild,
  insertInvocation,
  insertInvocations,
  insertLinks,
  registryEvent,
  type SubagentInvocation,
  type SubagentLink,
  type SubagentRegistryEntry,
  setLinkStatus,
  settleOpenInvocations,
} from "./registry-store";

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

/**
 * Creates several children of one parent with a handful of statements (threads, registry rows,
 * invocations and first inputs, each one multi-row insert). Returns the links in request order and
 * the events to append; the caller appends them last in its transaction.
 */
export async function spawnChildren(
  tx: SqlExecutor,
  parentId: string,
  requests: readonly SpawnRequest[],
): Promise<{
  links: SubagentLink[];
  events: NewEvent[];
  firstMessages: Map<string, StoredMessage>;
  /** Each child's spawn invocation. */
  invocations: Map<string, string>;
}> {
  // FOR SHARE: a concurrent terminate of the parent waits for this commit and then sees the children.
  const parents = await tx.query<Record<string, unknown>>(
    "SELECT id, root_id, depth, project_id, project_version, terminated_at FROM threads WHERE id = $1 FOR SHARE",
    [parentId],
  );
  const parent = parents[0];
  if (!parent) throw new ParentGoneError(`Thread ${parentId} no longer exists.`);
  if (parent.terminated_at !== null && parent.terminated_at !== undefined) {
    throw new ThreadTerminatedError(parentId, Number(parent.terminated_at));
  }
  const now = nowMicroseconds();
  const rootId = String(parent.root_id);
  const childIds = requests.map(() => randomUUID());
  const children = await spawnThreads(
    tx,
    requests.map((request, index) => ({
      id: childIds[index]!,
      projectId: String(parent.project_id),
      projectVersion: Number(parent.project_version),
      agentName: request.branch.agent.name,
      parentId,
      rootId,
      depth: Number(parent.depth) + 1,
      name: request.instanceName,
      // The child starts running (`spawn`) with its first message stored (side A's turn from seq 1),
      // so its first step has nothing to drain: one transaction less per child, same durability.
      execution: { ...initialExecutionState(), currentSide: "a" as const, turnStartSeq: 1 },
      env: {},
      scopedEnv: request.scopedEnv,
      messageSeq: 1,
    })),
  );
  const links = requests.map((request, index): SubagentLink => {
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
      created_at: now,
      updated_at: now,
    };
  });
  await insertLinks(tx, links);
  const invocationIds = requests.map(() => randomUUID());
  await insertInvocations(
    tx,
    requests.map((request, index) => ({
      id: invocationIds[index]!,
      child_id: childIds[index]!,
      parent_id: parentId,
      call_id: request.callId,
      blocking: request.waits,
      created_at: now,
    })),
  );
  const firsts: { threadId: string; message: NewMessage & { id: string } }[] = [];
  for (const [index, request] of requests.entries()) {
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
  const stored = new Map((await insertFirstMessages(tx, firsts)).map((message) => [message.id, message]));
  const firstIdByThread = new Map(firsts.map((first) => [first.threadId, first.message.id]));
  await notifyWork(tx, parentId);
  const events: NewEvent[] = [
    ...children.flatMap((child) => {
      const first = stored.get(firstIdByThread.get(child.id) ?? "");
      return [threadEvent(child), ...(first ? [messageEvent(child, first)] : [])];
    }),
    await registryEvent(tx, { id: parentId, root_id: rootId }, childIds),
  ];
  const firstMessages = new Map<string, StoredMessage>();
  for (const [threadId, id] of firstIdByThread) {
    const first = stored.get(id);
    if (first) firstMessages.set(threadId, first);
  }
  const invocations = new Map(childIds.map((childId, index) => [childId, invocationIds[index]!]));
  return { links, events, firstMessages, invocations };
}

export interface DeliveryRequest {
  link: SubagentLink;
  callId: string;
  message: string;
  attachmentPaths: readonly string[];
  waits: boolean;
}

/**
 * A subagent_message: queued to the side that receives messages (side_a as `user`, side_b as
 * `assistant`), as a new invocation. A child whose session ended starts a new one (turn counters reset).
 */
export async function deliverToChild(tx: SqlExecutor, request: DeliveryRequest): Promise<ThreadRow> {
  const { link } = request;
  const child = await lockThread(tx, link.child_id);
  if (!child) throw new ParentGoneError(`Subagent ${link.child_id} no longer exists.`);
  if (child.terminated_at !== null) throw new ThreadTerminatedError(child.id, child.terminated_at);
  const attachments = await copyFilesBetweenThreads(tx, link.parent_id, child.id, request.attachmentPaths);
  const now = nowMicroseconds();
  let current = child;
  if (!isActive(child.status)) {
    current = await updateThread(tx, child.id, {
      execution: { ...child.execution, turnsA: 0, turnsB: 0 },
      stopReason: null,
    });
  }
  await insertInvocation(tx, {
    id: randomUUID(),
    child_id: child.id,
    parent_id: link.parent_id,
    call_id: request.callId,
    blocking: request.waits,
    created_at: now,
  });
  await queueThreadInput(
    tx,
    current,
    {
      role: link.receives_messages === "side_b" ? "assistant" : "user",
      content: request.message,
      attachments,
      silent: false,
      metadata: { from_parent: link.parent_id },
      fromHuman: false,
      messageId: randomUUID(),
    },
    `subagent-message:${link.parent_id}:${request.callId}`,
  );
  await setLinkStatus(tx, child.id, "running", now);
  await appendEvents(tx, [
    await registryEvent(tx, { id: link.parent_id, root_id: child.root_id }, [child.id]),
  ]);
  return current;
}

/** How a thread's terminal change reads as a child outcome; null when it is not a session end. */
export function childOutcomeOf(
  status: string,
  details: {
    result?: string | null;
    failure?: string | null;
    stopReason?: string | null;
  },
): ChildOutcome | null {
  if (status === "completed") return { kind: "completed", result: details.result ?? "" };
  if (status === "failed") return { kind: "failed", failure: details.failure ?? "" };
  if (status === "stopped") return { kind: "stopped", reason: details.stopReason ?? "stopped" };
  if (status === "terminated") return { kind: "terminated" };
  return null;
}

/**
 * Call inside the transaction that ends the child's session, after the child's row is locked and
 * before that transaction appends its events. Returns the events for the parent (appended by the
 * caller). Exactly once: invocations end once (`finished_at IS NULL`), and the queued report's
 * idempotency key is the first invocation's id.
 */
export async function settleChild(
  tx: SqlExecutor,
  child: Pick<ThreadRow, "id" | "root_id" | "parent_id">,
  outcome: ChildOutcome,
  attachmentPaths: readonly string[] = [],
  /**
   * Wakes the parent after this transaction commits instead of inside it (the step runner passes
   * it): hundreds of children finishing at once then never queue on the parent's row lock.
   */
  wakeAfterCommit?: (parentId: string) => void,
): Promise<NewEvent[]> {
  if (!child.parent_id) return [];
  const now = nowMicroseconds();
  const status = outcomeStatus(outcome);
  const text = reportText(child.id, outcome);
  const all = outcome.kind === "terminated";
  // Everything that does not need the parent's row comes first: hundreds of children may report
  // to one parent, and each holds the parent's lock from here until its commit.
  let link: SubagentLink | null;
  let attachments: AttachmentRef[] = [];
  let settled: SubagentInvocation[];
  if (attachmentPaths.length === 0) {
    // One round trip for the three: without a link there are no invocations, and the link update
    // changes no row.
    [link, , settled] = await Promise.all([
      findLinkOfChild(tx, child.id),
      setLinkStatus(tx, child.id, status, now),
      settleOpenInvocations(tx, child.id, { status, result: text, attachments }, now, all),
    ]);
    if (!link) return [];
  } else {
    link = await findLinkOfChild(tx, child.id);
    if (!link) return [];
    await setLinkStatus(tx, child.id, status, now);
    attachments = await copyFilesBetweenThreads(tx, child.id, link.parent_id, attachmentPaths.slice(0, 20), {
      skipMissing: true,
    });
    settled = await settleOpenInvocations(tx, child.id, { status, result: text, attachments }, now, all);
  }
  // The registry read goes out together with the report's first statement.
  const registry = registryEvent(tx, { id: link.parent_id, root_id: child.root_id }, [child.id]);
  registry.catch(() => {}); // awaited below; a failure fails the transaction
  // A blocking call still open in the parent reads the result from its invocation (now, or when it
  // parks, or when it re-runs after a crash): wake the parent and queue nothing. A call answered
  // otherwise meanwhile (a user stop) gets the result as a queued report instead.
  const implicit = link.parent_communication === "implicit";
  if (settled.some((invocation) => invocation.blocking)) {
    const events = await settleBlocking(tx, child.id, link, settled, text, attachments, status);
    return [...events, await registry];
  }
  if (!implicit || settled.length === 0) return [await registry];
  const reported = await queueReport(
    tx,
    link.parent_id,
    {
      content: text,
      attachments,
      metadata: { subagent_id: child.id, subagent_report: { status, invocation_id: settled[0]!.id } },
      idempotencyKey: `subagent-report:${settled[0]!.id}`,
    },
    wakeAfterCommit,
  );
  return [...reported, await registry];
}

/**
 * Blocking invocations, under the parent's lock (which a user stop answering the call also takes):
 * a call still open reads the result from its invocation (now, when it parks, or when it re-runs
 * after a crash), so the parent is only woken; a call answered meanwhile gets a queued report.
 */
async function settleBlocking(
  tx: SqlExecutor,
  childId: string,
  link: SubagentLink,
  settled: readonly { id: string; blocking: boolean; call_id: string }[],
  text: string,
  attachments: AttachmentRef[],
  status: string,
): Promise<NewEvent[]> {
  const parent = await lockThread(tx, link.parent_id);
  if (!parent || parent.terminated_at !== null) return [];
  const reported = [];
  let wake = false;
  for (const invocation of settled) {
    if (invocation.blocking && !(await callAnswered(tx, parent.id, invocation.call_id))) wake = true;
    else reported.push(invocation);
  }
  if (wake) {
    await tx.query("UPDATE threads SET runnable = true WHERE id = $1", [parent.id]);
    await notifyWork(tx, parent.id);
  }
  if (reported.length === 0 || link.parent_communication !== "implicit") return [];
  return queueReport(tx, parent.id, {
    content: text,
    attachments,
    metadata: { subagent_id: childId, subagent_report: { status, invocation_id: reported[0]!.id } },
    idempotencyKey: `subagent-report:${reported[0]!.id}`,
  });
}

/**
 * A silent report into the parent's inbox. Hundreds of children may report to one parent at once, so
 * the parent's row is touched by one statement at the very end (its lock is then held only until
 * this commit): it becomes runnable (unless a user stop parks its input) and `queued` when it was at
 * rest. A terminated parent takes nothing.
 */
/**
 * What a child needs to report without reading anything: it was spawned (by this process, which
 * remembers it) as a one-off, non-blocking subagent under implicit parent communication, so its
 * one invocation is the spawn's, nobody can message it, and its report is a queued message.
 */
export interface OneOffReportRoute {
  link: SubagentLink;
  invocationId: string;
  /** Children of the parent when this one was spawned (a lower bound later): registry events are partial. */
  siblings: number;
}

/** The route of a child `spawnChildren` just spawned, when its report can take the one-off path. */
export function oneOffReportRoute(
  link: SubagentLink,
  invocationId: string,
  siblings: number,
): OneOffReportRoute | null {
  if (link.blocking || link.resumable || link.parent_communication !== "implicit") return null;
  if (siblings <= FULL_REGISTRY_EVENT_LIMIT) return null; // small registries get whole-registry events
  return { link, invocationId, siblings };
}

/**
 * `settleChild` for a one-off child (`OneOffReportRoute`) that reports no attachments and has no
 * children of its own: the same rows (its registry status, its invocation ended once, the report
 * queued under the invocation's idempotency key) and a partial registry event, all deferred, so
 * they commit in the statement that ends the child's session. The version check of that commit
 * stands in for the reads: a terminate of the tree, or any input, changes the child's row first.
 */
export async function settleOneOffChild(
  tx: SqlExecutor,
  child: Pick<ThreadRow, "id" | "root_id" | "agent_name" | "name">,
  route: OneOffReportRoute,
  outcome: ChildOutcome,
  wakeAfterCommit: (parentId: string) => void,
): Promise<NewEvent[]> {
  const now = nowMicroseconds();
  const status = outcomeStatus(outcome);
  const text = reportText(child.id, outcome);
  const parentId = route.link.parent_id;
  await setLinkStatus(tx, child.id, status, now);
  await tx.defer(
    `UPDATE subagent_invocations SET status = $2, result = $3, attachments = $4::text::jsonb, finished_at = $5
     WHERE id = $1 AND finished_at IS NULL`,
    [route.invocationId, status, text, "[]", now],
  );
  await insertInboxItemDeferred(
    tx,
    parentId,
    reportPayload(text, [], {
      subagent_id: child.id,
      subagent_report: { status, invocation_id: route.invocationId },
    }),
    `subagent-report:${route.invocationId}`,
  );
  wakeAfterCommit(parentId);
  const { link } = route;
  const entry: SubagentRegistryEntry = {
    reference: child.id,
    name: link.name,
    ...(link.title ? { title: link.title } : {}),
    description: link.description,
    resumable: link.resumable,
    blocking: link.blocking,
    ...(child.name ? { threadName: child.name } : {}),
    ...(link.spawn_group_id ? { spawnGroupId: link.spawn_group_id } : {}),
    createdAt: link.created_at,
    status,
    parentCommunication: link.parent_communication,
    agent: child.agent_name,
    threadStatus: status,
  };
  return [
    {
      rootId: child.root_id,
      threadId: parentId,
      type: "registry",
      data: { thread_id: parentId, children: [entry], partial: true, total: route.siblings },
    },
  ];
}

/** A child's report as its parent's inbox payload. */
function reportPayload(
  content: string,
  attachments: AttachmentRef[],
  metadata: Record<string, unknown>,
): InboxMessagePayload {
  return {
    role: "user",
    content,
    attachments,
    silent: true,
    metadata,
    fromHuman: false,
    messageId: randomUUID(),
  };
}

async function queueReport(
  tx: SqlExecutor,
  parentId: string,
  report: {
    content: string;
    attachments: AttachmentRef[];
    metadata: Record<string, unknown>;
    idempotencyKey: string;
  },
  wakeAfterCommit?: (parentId: string) => void,
): Promise<NewEvent[]> {
  const item = await insertInboxItemUnlessTerminated(
    tx,
    parentId,
    reportPayload(report.content, report.attachments, report.metadata),
    report.idempotencyKey,
  );
  if (!item) return [];
  if (wakeAfterCommit) {
    wakeAfterCommit(parentId);
    return [];
  }
  const woken = await wakeForReport(tx, parentId);
  return woken?.applied ? [threadEvent(woken.row)] : [];
}

async function callAnswered(tx: SqlExecutor, threadId: string, callId: string): Promise<boolean> {
  const rows = await tx.query(
    "SELECT 1 FROM messages WHERE thread_id = $1 AND role = 'tool' AND tool_call_id = $2 LIMIT 1",
    [threadId, callId],
  );
  return rows.length > 0;
}

/**
 * After the report committed: makes the parent runnable (not while a user stop parks its input) and
 * wakes schedulers. One short statement; its row lock lasts only that statement. If the process dies
 * between the commit and this, the scheduler's poll finds the waiting input (repairLostWakeups).
 */
export async function wakeParent(db: SqlExecutor, parentId: string): Promise<void> {
  await db.query(
    `UPDATE threads SET runnable = true
     WHERE id = $1 AND NOT runnable AND NOT user_stopped AND terminated_at IS NULL
     RETURNING pg_notify($2, $1::text)`,
    [parentId, WORK_CHANNEL],
  );
}
