// A blocking subagent call: the thread parks (not runnable, lease released) until the child it
// waits for reports; then the call is answered before new input is drained.
import type { SqlClient, SqlExecutor } from "@/lib/db/sql-client";
import { appendEvents } from "../../store/event-log";
import { findInvocation } from "../../store/registry-store";
import { threadEvent } from "../../store/thread-events";
import { apply, TransitionRefusedError } from "../../store/thread-lifecycle";
import type { ThreadRow } from "../../store/thread-row";
import type { RunnerContext, StepOutcome } from "./types";

/** Whether the call's child reported (or the invocation is gone). */
export async function invocationEnded(db: SqlClient, threadId: string, callId: string): Promise<boolean> {
  const invocation = await findInvocation(db, threadId, callId);
  return invocation === null || invocation.finished_at !== null;
}

/**
 * Parks the thread on a blocking subagent call (not runnable, lease released) unless the child
 * already reported (then the step goes on). Checked under the thread's lock: a child's report
 * locks the parent after its own row, so it either commits before this check or wakes the parent after.
 */
export async function parkOnChild(
  ctx: RunnerContext,
  tx: SqlExecutor,
  row: ThreadRow,
  callId: string,
): Promise<StepOutcome> {
  const invocation = await findInvocation(tx, row.id, callId);
  if (!invocation || invocation.finished_at !== null) return "continue";
  const updated = await apply(
    tx,
    row.id,
    "blockOnChild",
    ctx.commits.withMessageSeq(row.id, { execution: { ...row.execution, blockedOn: { callId } } }),
  );
  if (!updated) throw new TransitionRefusedError("blockOnChild", row.id, row.status);
  if (row.execution.blockedOn?.callId !== callId) await appendEvents(tx, [threadEvent(updated)]);
  return "parked";
}
