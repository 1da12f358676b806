// Where a child's report reaches its parent (spec §7.10): `reportToParent`, called inside the
// transaction that ends the child's session (the step runner's park, the services' user stop and
// terminate), after the child's row is locked and before that transaction appends its events. It
// returns the events for the parent and the parents to wake once the commit is through. One of three
// paths, chosen here:
// - blocking: a call still open in the parent waits for this invocation. The parent is only woken;
//   it reads the result from the invocation (`blockingCallAnswer`), now, when it parks, or when the
//   call re-runs after a crash. A call answered otherwise meanwhile (a user stop) gets a queued report.
// - implicit: nobody waits; under `implicit` parent communication the report is a silent message
//   queued in the parent's inbox, keyed by the invocation id.
// - one-off: a child this process spawned as a one-off, non-blocking, implicit subagent reports from
//   what the process remembers of the spawn (`OneOffReportRoute`): nothing to read, so the child's
//   last step commits in one statement.
// Exactly once through crashes: invocations end once (`finished_at IS NULL`) in the commit that ends
// the session, and a queued report's idempotency key is its invocation's id.
// Lock order everywhere: child row before parent row, so two of these never wait on each other.
import { randomUUID } from "node:crypto";
import type { SqlClient, SqlExecutor } from "@/lib/db/sql-client";
import { copyFilesBetweenThreads } from "../store/attachments";
import type { NewEvent } from "../store/event-log";
import {
  type InboxMessagePayload,
  insertInboxItemDeferred,
  insertInboxItemUnlessTerminated,
} from "../store/inbox";
import { settleInvocation } from "../store/invocation-lifecycle";
import type { AttachmentRef } from "../store/messages";
import { setRegistryStatus } from "../store/registry-lifecycle";
import {
  FULL_REGISTRY_EVENT_LIMIT,
  findInvocation,
  findLinkOfChild,
  registryEvent,
  type SubagentInvocation,
  type SubagentLink,
  type SubagentRegistryEntry,
  settleOpenInvocations,
} from "../store/registry-store";
import { threadEvent } from "../store/thread-events";
import { wakeForReport } from "../store/thread-lifecycle";
import { nowMicroseconds, type ThreadRow } from "../store/thread-row";
import { wakeThread } from "../store/thread-scheduling";
import { lockThread } from "../store/thread-store";
import { isToolCallAnswered } from "../store/tool-call-answers";
import type { ToolExecution } from "../tools/tool-execution";
import { type ChildOutcome, outcomeStatus, reportText } from "./branches";

/** How the report goes; see `reportToParent`. */
export interface ReportOptions {
  /**
   * "after_commit": the parents to wake are returned, and the caller wakes them once its commit is
   * through (the step runner: hundreds of children finishing at once then never queue on the
   * parent's row lock). "in_transaction": the parent is made runnable inside this transaction.
   */
  wake: "after_commit" | "in_transaction";
  /** Paths in the child's filesystem handed up with the report (its `reportAttachments`). */
  attachmentPaths?: readonly string[];
  /** What this process remembers of the child's one-off spawn (`RunMemory.oneOffRoute`), if anything. */
  oneOff?: OneOffReportRoute | null;
}

/** What the caller does with a report: append `events` in its transaction, wake `wakeAfterCommit` after. */
export interface ParentReport {
  events: NewEvent[];
  wakeAfterCommit: string[];
}

/**
 * Reports the end of a child's session to its parent, in the transaction that ends the session
 * (see the top of this file for the three paths). A thread without a parent reports nothing.
 */
export async function reportToParent(
  tx: SqlExecutor,
  child: Pick<ThreadRow, "id" | "root_id" | "parent_id" | "agent_name" | "name">,
  outcome: ChildOutcome,
  options: ReportOptions,
): Promise<ParentReport> {
  const attachmentPaths = options.attachmentPaths ?? [];
  const wakeAfterCommit: string[] = [];
  if (!child.parent_id) return { events: [], wakeAfterCommit };
  const events =
    options.oneOff &&
    options.wake === "after_commit" &&
    outcome.kind !== "terminated" &&
    attachmentPaths.length === 0
      ? await settleOneOffChild(tx, child, options.oneOff, outcome, wakeAfterCommit)
      : await settleInvocations(
          tx,
          child,
          outcome,
          attachmentPaths,
          options.wake === "after_commit" ? wakeAfterCommit : null,
        );
  return { events, wakeAfterCommit };
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
 * The blocking and implicit paths: ends the child's open invocations exactly once (`finished_at IS
 * NULL`) and reports what they were waiting for. Returns the events for the parent. The queued
 * report's idempotency key is the first invocation's id.
 */
// One function: the report's statements read top to bottom in the order they lock (the parent's row last).
async function settleInvocations(
  tx: SqlExecutor,
  child: Pick<ThreadRow, "id" | "root_id" | "parent_id">,
  outcome: ChildOutcome,
  attachmentPaths: readonly string[],
  /** Parents to wake after the commit (the step runner's reports); null: inside the transaction. */
  wakeAfterCommit: string[] | null,
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
      setRegistryStatus(tx, { childId: child.id, transition: "report", status, now }),
      settleOpenInvocations(tx, child.id, { status, result: text, attachments }, now, all),
    ]);
    if (!link) return [];
  } else {
    link = await findLinkOfChild(tx, child.id);
    if (!link) return [];
    await setRegistryStatus(tx, { childId: child.id, transition: "report", status, now });
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
    if (
      invocation.blocking &&
      !(await isToolCallAnswered(tx, { threadId: parent.id, callId: invocation.call_id }))
    )
      wake = true;
    else reported.push(invocation);
  }
  if (wake) await wakeThread(tx, parent.id);
  if (reported.length === 0 || link.parent_communication !== "implicit") return [];
  return queueReport(tx, parent.id, {
    content: text,
    attachments,
    metadata: { subagent_id: childId, subagent_report: { status, invocation_id: reported[0]!.id } },
    idempotencyKey: `subagent-report:${reported[0]!.id}`,
  });
}

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
 * The one-off path, for a one-off child (`OneOffReportRoute`) that reports no attachments and has no
 * children of its own: the same rows (its registry status, its invocation ended once, the report
 * queued under the invocation's idempotency key) and a partial registry event, all deferred, so
 * they commit in the statement that ends the child's session. The version check of that commit
 * stands in for the reads: a terminate of the tree, or any input, changes the child's row first.
 */
async function settleOneOffChild(
  tx: SqlExecutor,
  child: Pick<ThreadRow, "id" | "root_id" | "agent_name" | "name">,
  route: OneOffReportRoute,
  outcome: ChildOutcome,
  wakeAfterCommit: string[],
): Promise<NewEvent[]> {
  const now = nowMicroseconds();
  const status = outcomeStatus(outcome);
  const text = reportText(child.id, outcome);
  const parentId = route.link.parent_id;
  await setRegistryStatus(tx, { childId: child.id, transition: "report", status, now });
  await settleInvocation(tx, route.invocationId, { status, result: text, attachments: [], now });
  await insertInboxItemDeferred(
    tx,
    parentId,
    reportPayload(text, [], {
      subagent_id: child.id,
      subagent_report: { status, invocation_id: route.invocationId },
    }),
    `subagent-report:${route.invocationId}`,
  );
  wakeAfterCommit.push(parentId);
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

/**
 * The blocking path, on the parent's side: the answer of a blocking subagent call, read from its
 * invocation; `pending` (the parent parks) until the child's report ended it.
 */
export async function blockingCallAnswer(
  db: SqlClient,
  parentId: string,
  callId: string,
  args: unknown,
): Promise<ToolExecution> {
  const invocation = await findInvocation(db, parentId, callId);
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

/**
 * A silent report into the parent's inbox. Hundreds of children may report to one parent at once, so
 * the parent's row is touched by one statement at the very end (its lock is then held only until
 * this commit): it becomes runnable (unless a user stop parks its input) and `queued` when it was at
 * rest. A terminated parent takes nothing. With `wakeAfterCommit`, the parent's row is not touched
 * here at all: it is woken once the commit is through.
 */
async function queueReport(
  tx: SqlExecutor,
  parentId: string,
  report: {
    content: string;
    attachments: AttachmentRef[];
    metadata: Record<string, unknown>;
    idempotencyKey: string;
  },
  wakeAfterCommit: string[] | null = null,
): Promise<NewEvent[]> {
  const item = await insertInboxItemUnlessTerminated(
    tx,
    parentId,
    reportPayload(report.content, report.attachments, report.metadata),
    report.idempotencyKey,
  );
  if (!item) return [];
  if (wakeAfterCommit) {
    wakeAfterCommit.push(parentId);
    return [];
  }
  const woken = await wakeForReport(tx, parentId);
  return woken?.applied ? [threadEvent(woken.row)] : [];
}
