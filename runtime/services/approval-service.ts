// Tool approvals through the API (API.md "Approvals"; docs/runtime.md "Approvals"): list a thread's
// and its subtree's (`GET /api/threads/:id/approvals`), a project's (`GET /api/approvals`), and decide
// one (`POST /api/approvals/:id`). A decision is one transaction under the asking thread's row lock:
// the compare-and-set from `pending`, its event, and — when it was the thread's last pending one —
// the `resumeApproved` transition that makes the thread runnable and wakes the schedulers. The step
// (engine/step/approval-gate.ts) then runs or answers the call through the normal claim path.
import "server-only";
import type { ApprovalDecision, ApprovalState, ApprovalView } from "@/lib/contracts/approval";
import type { SqlClient } from "@/lib/db/sql-client";
import { ConflictError, NotFoundError, UnprocessableError } from "../errors";
import {
  approvalEvent,
  findApproval,
  listApprovalsOf,
  listProjectApprovals,
  pendingApprovalCount,
  setApprovalDecision,
  toApprovalView,
} from "../store/approval-store";
import { appendEvents, type NewEvent } from "../store/event-log";
import { projectExists } from "../store/project-versions";
import { threadEvent } from "../store/thread-events";
import { apply } from "../store/thread-lifecycle";
import { findSubtreeIds, findThread, lockThread, notifyWork } from "../store/thread-store";
import { checkJsonSchema, formatSchemaIssues } from "../tools/json-schema-check";
import { isUuid } from "./project-service";

/** The most approvals `GET /api/approvals` lists. */
const PROJECT_LIST_LIMIT = 500;

export class ApprovalService {
  constructor(private readonly db: SqlClient) {}

  /** The thread's approvals and its subtree's, oldest first; `state` keeps one state's. */
  async listForThread(threadId: string, state?: ApprovalState): Promise<ApprovalView[]> {
    if (!isUuid(threadId) || !(await findThread(this.db, threadId)))
      throw new NotFoundError("Thread", threadId);
    const ids = await findSubtreeIds(this.db, threadId);
    return (await listApprovalsOf(this.db, ids, state)).map(toApprovalView);
  }

  /** A project's approvals (the inbox), oldest first. */
  async listForProject(projectId: string, state?: ApprovalState): Promise<ApprovalView[]> {
    if (!isUuid(projectId)) throw new NotFoundError("Project", projectId);
    if (!(await projectExists(this.db, projectId))) throw new NotFoundError("Project", projectId);
    return (await listProjectApprovals(this.db, projectId, state, PROJECT_LIST_LIMIT)).map(toApprovalView);
  }

  /**
   * Decides an approval once: 404 unknown, 409 decided already (or its thread terminated), 422 edited
   * arguments that do not fit the tool's schema. Approve runs the call (with `args` when given); deny
   * answers it with an error result carrying `reason`.
   */
  async decide(approvalId: string, body: ApprovalDecision): Promise<ApprovalView> {
    if (!isUuid(approvalId)) throw new NotFoundError("Approval", approvalId);
    const asked = await findApproval(this.db, approvalId);
    if (!asked) throw new NotFoundError("Approval", approvalId);
    const edited = body.decision === "approve" && body.args !== undefined ? body.args : null;
    if (edited !== null) {
      if (typeof edited !== "object" || Array.isArray(edited))
        throw new UnprocessableError("The edited args must be a JSON object.", {}, "invalid_args");
      const issues = checkJsonSchema(asked.args_schema ?? undefined, edited);
      if (issues.length > 0)
        throw new UnprocessableError(
          `The edited args do not fit tool "${asked.tool_name}": ${formatSchemaIssues(issues)}`,
          { issues },
          "invalid_args",
        );
    }
    return this.db.transaction(async (tx) => {
      // The thread's row lock first, as the step's park does: a decision and a park never interleave.
      const thread = await lockThread(tx, asked.thread_id);
      if (!thread) throw new NotFoundError("Approval", approvalId);
      if (thread.terminated_at !== null && asked.state === "pending")
        throw new ConflictError("The thread that asked was terminated.", {}, "thread_terminated");
      const decided = await setApprovalDecision(tx, approvalId, {
        state: body.decision === "approve" ? "approved" : "denied",
        decidedArgs: edited,
        reason: body.reason?.trim() ? body.reason.trim() : null,
      });
      if (!decided) {
        const current = await findApproval(tx, approvalId);
        throw new ConflictError(
          `Approval ${approvalId} was already decided: it is ${current?.state ?? "gone"}.`,
          { state: current?.state ?? null },
          "approval_decided",
        );
      }
      const events: NewEvent[] = [approvalEvent(decided)];
      if (thread.status === "waiting_approval" && (await pendingApprovalCount(tx, thread.id)) === 0) {
        const resumed = await apply(tx, thread.id, "resumeApproved");
        if (resumed) {
          events.push(threadEvent(resumed));
          await notifyWork(tx, thread.id);
        }
      }
      await appendEvents(tx, events);
      return toApprovalView(decided);
    });
  }
}
