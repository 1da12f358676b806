// Approvals at the tool-call phase (docs/runtime.md "Approvals"): a model's call of a tool marked
// `requiresApproval` runs only once a human approved it (with the arguments they may have edited),
// is answered with an error result carrying the reason once they denied it, and otherwise parks the
// thread (`waiting_approval`) with a pending approval row for every undecided such call left in the
// reply, so the human sees them all at once. Calls keep their order: the thread parks at the first
// undecided one, and the calls after it wait with it.

import {
  type ApprovalRequest,
  type ApprovalRow,
  approvalEvent,
  approvalsOfCalls,
  insertApprovals,
  pendingApprovalCount,
} from "../../store/approval-store";
import { appendEvents } from "../../store/event-log";
import type { StoredToolCall } from "../../store/messages";
import { threadEvent } from "../../store/thread-events";
import { apply, TransitionRefusedError } from "../../store/thread-lifecycle";
import { errorContent, type ToolExecution } from "../tool-executor";
import { safeJson } from "./tool-call-records";
import type { StepContext, StepOutcome } from "./types";

/** What a sub-prompt's nested call of such a tool answers: a nested step cannot park its thread. */
export const NESTED_APPROVAL_REFUSED =
  "This tool needs a human's approval, which a call made inside a sub-prompt cannot wait for. Call it from the prompt itself.";

/** Calls the runtime makes itself (a prompt's immediate subagent branches) are not the model's. */
const RUNTIME_CALL_PREFIX = "immediate_";

export type ApprovalVerdict =
  | { kind: "not_required" }
  | { kind: "wait" }
  | { kind: "approved"; approval: ApprovalRow }
  | { kind: "denied"; approval: ApprovalRow };

/** Whether this call waits for a human before it runs. */
export function needsApproval(ctx: Pick<StepContext, "catalog">, call: StoredToolCall): boolean {
  return ctx.catalog.approvals?.has(call.function.name) === true && !call.id.startsWith(RUNTIME_CALL_PREFIX);
}

/** The human's decision on `call`, read (one statement) only for calls that need one. */
export async function approvalVerdict(ctx: StepContext, call: StoredToolCall): Promise<ApprovalVerdict> {
  if (!needsApproval(ctx, call)) return { kind: "not_required" };
  const approval = (await approvalsOfCalls(ctx.db, ctx.threadId, [call.id])).get(call.id);
  return verdictOf(approval);
}

/** Pure: the verdict an approval row (or its absence) gives. */
export function verdictOf(approval: ApprovalRow | undefined): ApprovalVerdict {
  if (!approval || approval.state === "pending") return { kind: "wait" };
  return approval.state === "approved" ? { kind: "approved", approval } : { kind: "denied", approval };
}

/** The call as it runs once approved: with the approver's arguments when they edited them. */
export function approvedCall(call: StoredToolCall, approval: ApprovalRow): StoredToolCall {
  if (approval.decided_args === null || approval.decided_args === undefined) return call;
  return { ...call, function: { ...call.function, arguments: JSON.stringify(approval.decided_args) } };
}

/** What the tool message of a denied call says: an error result carrying the reason. */
export function deniedExecution(call: StoredToolCall, approval: ApprovalRow): ToolExecution {
  const reason = approval.reason?.trim();
  const text =
    approval.state === "cancelled"
      ? `The call was cancelled before a human decided${reason ? `: ${reason}` : "."}`
      : `A human denied this call${reason ? `: ${reason}` : "."}`;
  return {
    status: "error",
    content: errorContent(text),
    args: safeJson(call.function.arguments),
    metadata: { approval: { id: approval.id, state: approval.state } },
  };
}

/** The approval facts stored on an approved call's tool message. */
export function approvedMetadata(approval: ApprovalRow): Record<string, unknown> {
  return {
    approval: { id: approval.id, state: "approved", edited_args: approval.decided_args !== null },
  };
}

/**
 * Parks the thread at `calls[from]`: pending approvals for it and every later undecided call that
 * needs one, the `awaitApproval` transition and their events, in one commit. Under the thread's row
 * lock, which a decision takes too: when none is left pending (a decision committed since the step
 * read it), the step goes on instead.
 */
export async function parkOnApproval(
  ctx: StepContext,
  calls: readonly StoredToolCall[],
  from: number,
): Promise<StepOutcome> {
  const requests: ApprovalRequest[] = calls
    .slice(from)
    .filter((call) => needsApproval(ctx, call))
    .map((call) => ({
      toolCallId: call.id,
      toolName: call.function.name,
      args: safeJson(call.function.arguments),
      argsSchema: ctx.catalog.specs.find((spec) => spec.name === call.function.name)?.inputSchema ?? null,
    }));
  return ctx.commits.commit(ctx.threadId, async (tx, row) => {
    const inserted = await insertApprovals(tx, row, requests);
    if ((await pendingApprovalCount(tx, row.id)) === 0) return "continue";
    const updated = await apply(tx, row.id, "awaitApproval", ctx.commits.withMessageSeq(row.id, {}));
    if (!updated) throw new TransitionRefusedError("awaitApproval", row.id, row.status);
    await appendEvents(tx, [threadEvent(updated), ...inserted.map(approvalEvent)]);
    return "parked";
  });
}
