// User stop of a thread and of the work below it (issue 41; docs/runtime.md "User stop"): one
// transaction stops the thread asked for and every thread of its subtree that is at work (queued,
// running — a parent blocked on its child included — or waiting for an approval), deepest first, so
// a child is stopped before the parent that waits for it. Each stopped thread aborts its run, answers
// its open tool calls (its pending approvals stay pending, as ever), and reports `stopped` to its parent — so
// a blocking call in a parent stopped with it is answered with that report (the child's "stopped"
// result), not with a bare "stopped by user". Settled threads of the subtree are left as they are.
// Every stopped thread stays usable: a human's next message (or, for a child, its parent's) runs it.
import "server-only";
import type { SqlExecutor } from "@/lib/db/sql-client";
import { unansweredToolCalls } from "../engine/step-runner";
import { NotFoundError } from "../errors";
import { appendEvents, type NewEvent } from "../store/event-log";
import { insertMessages, type NewMessage, readMessages } from "../store/message-store";
import { ThreadTerminatedError } from "../store/queue-input";
import { findInvocation } from "../store/registry-store";
import { messageEvent, telemetryEvent, threadEvent } from "../store/thread-events";
import { apply, TransitionRefusedError } from "../store/thread-lifecycle";
import type { ThreadRow } from "../store/thread-row";
import { lockThread, notifyAbort, subtreeIdsDeepestFirst } from "../store/thread-store";
import { reportToParent } from "../subagents/report-to-parent";

export const STOPPED_BY_USER = "Execution stopped by user";

/** Statuses of a thread at work: a stop of an ancestor stops it too. */
const AT_WORK = new Set(["queued", "running", "waiting_approval"]);

/**
 * Stops `id` and the threads of its subtree at work, in `tx` (see the file comment). Returns the
 * thread asked for as stopped and the ids of every thread stopped (to abort their runs).
 */
export async function stopSubtree(
  tx: SqlExecutor,
  id: string,
): Promise<{ thread: ThreadRow; stopped: string[] }> {
  const members = await subtreeIdsDeepestFirst(tx, id);
  if (members.length === 0) throw new NotFoundError("Thread", id);
  // Child rows before their parents', as a child's report locks them.
  const locked: ThreadRow[] = [];
  for (const member of members) {
    const row = await lockThread(tx, member);
    if (row) locked.push(row);
  }
  const target = locked.find((row) => row.id === id);
  if (!target) throw new NotFoundError("Thread", id);
  if (target.terminated_at !== null) throw new ThreadTerminatedError(id, target.terminated_at);
  const events: NewEvent[] = [];
  const stopped: string[] = [];
  let thread = target;
  for (const row of locked) {
    const asked = row.id === id;
    if (!asked && (row.terminated_at !== null || !AT_WORK.has(row.status))) continue;
    const updated = await stopOne(tx, row, events);
    stopped.push(row.id);
    if (asked) thread = updated;
  }
  await appendEvents(tx, events);
  await notifyAbort(tx, stopped);
  return { thread, stopped };
}

/** Stops one locked thread: its open calls answered, the stop recorded, its parent told. */
async function stopOne(tx: SqlExecutor, row: ThreadRow, events: NewEvent[]): Promise<ThreadRow> {
  const history = (await readMessages(tx, row.id, { includeSilent: true, maxDepth: 0 })).messages;
  const answers: NewMessage[] = [];
  for (const side of ["a", "b"] as const) {
    for (const call of unansweredToolCalls(history, side)?.calls ?? []) {
      answers.push(await stoppedCallAnswer(tx, row.id, side, call));
    }
  }
  const inserted = await insertMessages(tx, row.id, [
    ...answers,
    { role: "system", side: null, content: STOPPED_BY_USER, silent: true },
  ]);
  const updated = await apply(tx, row.id, "stopByUser", {
    stopReason: "Stopped by user",
    execution: { ...row.execution, blockedOn: null },
  });
  if (!updated) throw new TransitionRefusedError("stopByUser", row.id, row.status);
  const report = await reportToParent(
    tx,
    updated,
    { kind: "stopped", reason: "Stopped by user" },
    { wake: "in_transaction" },
  );
  events.push(
    ...report.events,
    ...inserted.map((message) => messageEvent(updated, message)),
    telemetryEvent(updated, { type: "stopped", reason: "Stopped by user", side: null }),
    threadEvent(updated),
  );
  return updated;
}

/**
 * The answer of a call the stop leaves open: a blocking subagent call whose child has reported
 * (stopped with it a moment ago, or finished) gets that report; any other call is stopped by the user.
 */
async function stoppedCallAnswer(
  tx: SqlExecutor,
  threadId: string,
  side: "a" | "b",
  call: { id: string; function: { name: string } },
): Promise<NewMessage> {
  const answer: NewMessage = {
    role: "tool",
    side,
    content: STOPPED_BY_USER,
    name: call.function.name,
    tool_call_id: call.id,
    tool_status: "error",
  };
  const invocation = await findInvocation(tx, threadId, call.id);
  if (!invocation?.blocking || invocation.finished_at === null) return answer;
  return {
    ...answer,
    content: invocation.result ?? STOPPED_BY_USER,
    tool_status: invocation.status === "completed" ? "success" : "error",
    metadata: { subagent: { reference: invocation.child_id, status: invocation.status } },
    attachments: invocation.attachments as NewMessage["attachments"],
  };
}
