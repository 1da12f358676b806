// Delivering work to a child (spec §7.8, subagent_message): a message queued to the side that
// receives messages, as a new invocation keyed by the parent's tool call, with its own idempotency
// key, so a re-run call delivers nothing twice. Lock order: child row before parent row.
import { randomUUID } from "node:crypto";
import type { SqlExecutor } from "@/lib/db/sql-client";
import { copyFilesBetweenThreads } from "../store/attachments";
import { appendEvents } from "../store/event-log";
import { queueThreadInput, ThreadTerminatedError } from "../store/queue-input";
import { setRegistryStatus } from "../store/registry-lifecycle";
import { insertInvocation, registryEvent, type SubagentLink } from "../store/registry-store";
import { apply, isActive, isAwaitingApproval } from "../store/thread-lifecycle";
import { nowMicroseconds, type ThreadRow } from "../store/thread-row";
import { lockThread, updateThread } from "../store/thread-store";
import { ParentGoneError } from "./spawn-child";

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
  // A stop of the tree stopped the child too; its parent asking again is what a human's message is
  // to a root: the child runs again (docs/runtime.md "User stop").
  let current = child.user_stopped ? ((await apply(tx, child.id, "liftStopForParent")) ?? child) : child;
  // A child parked for an approval is mid-run: its turn goes on once the approval is decided.
  if (!isActive(child.status) && !isAwaitingApproval(child.status)) {
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
  await setRegistryStatus(tx, { childId: child.id, transition: "deliver", status: "running", now });
  await appendEvents(tx, [
    await registryEvent(tx, { id: link.parent_id, root_id: child.root_id }, [child.id]),
  ]);
  return current;
}
