// Tool approvals (docs/runtime.md "Approvals"): the `tool_approvals` rows, their wire view and the
// `approval` event. A row is written by the commit that parks its thread (`waiting_approval`) and
// decided once, by a compare-and-set from `pending`, in a transaction that also resumes the thread
// when it was its last pending approval.
import { randomUUID } from "node:crypto";
import type { ApprovalState, ApprovalView } from "@/lib/contracts/approval";
import type { SqlExecutor } from "@/lib/db/sql-client";
import { APPROVAL_STATE } from "./approval-lifecycle";
import type { NewEvent } from "./event-log";
import { nowMicroseconds, type ThreadRow } from "./thread-row";

export interface ApprovalRow {
  id: string;
  thread_id: string;
  root_id: string;
  project_id: string;
  tool_call_id: string;
  tool_name: string;
  args: unknown;
  args_schema: Record<string, unknown> | null;
  state: ApprovalState;
  decided_args: unknown;
  reason: string | null;
  requested_at: number;
  decided_at: number | null;
  /** From the thread (joined), for the views. */
  thread_name: string | null;
  agent_id: string;
}

const COLUMNS = `a.id, a.thread_id, a.root_id, a.project_id, a.tool_call_id, a.tool_name, a.args, a.args_schema,
  a.state, a.decided_args, a.reason, a.requested_at, a.decided_at, t.name AS thread_name, t.agent_name AS agent_id`;

function json(value: unknown): unknown {
  return typeof value === "string" ? JSON.parse(value) : value;
}

function toApprovalRow(raw: Record<string, unknown>): ApprovalRow {
  return {
    id: String(raw.id),
    thread_id: String(raw.thread_id),
    root_id: String(raw.root_id),
    project_id: String(raw.project_id),
    tool_call_id: String(raw.tool_call_id),
    tool_name: String(raw.tool_name),
    args: json(raw.args),
    args_schema: (json(raw.args_schema) as Record<string, unknown> | null) ?? null,
    state: raw.state as ApprovalState,
    decided_args: raw.decided_args === null || raw.decided_args === undefined ? null : json(raw.decided_args),
    reason: (raw.reason as string | null) ?? null,
    requested_at: Number(raw.requested_at),
    decided_at: raw.decided_at === null || raw.decided_at === undefined ? null : Number(raw.decided_at),
    thread_name: (raw.thread_name as string | null) ?? null,
    agent_id: String(raw.agent_id ?? ""),
  };
}

/** The wire view (API.md "Approvals"). */
export function toApprovalView(row: ApprovalRow): ApprovalView {
  return {
    id: row.id,
    thread_id: row.thread_id,
    root_id: row.root_id,
    thread_name: row.thread_name,
    agent_id: row.agent_id,
    tool_call_id: row.tool_call_id,
    tool_name: row.tool_name,
    args: row.args,
    args_schema: row.args_schema,
    requested_at: row.requested_at,
    state: row.state,
    decided_at: row.decided_at,
    ...(row.decided_args !== null ? { decided_args: row.decided_args } : {}),
    reason: row.reason,
  };
}

/** The `approval` event of the root's stream: the approval as it is now. */
export function approvalEvent(row: ApprovalRow): NewEvent {
  return {
    rootId: row.root_id,
    threadId: row.thread_id,
    type: "approval",
    data: { thread_id: row.thread_id, approval: toApprovalView(row) },
  };
}

export interface ApprovalRequest {
  toolCallId: string;
  toolName: string;
  args: unknown;
  argsSchema: Record<string, unknown> | null;
}

/**
 * Inserts pending approvals for `thread`'s calls (one statement); a call that already has one keeps
 * it (a re-run after a crash). Answers the rows inserted now.
 */
export async function insertApprovals(
  tx: SqlExecutor,
  thread: Pick<ThreadRow, "id" | "root_id" | "project_id" | "name" | "agent_name">,
  requests: readonly ApprovalRequest[],
): Promise<ApprovalRow[]> {
  if (requests.length === 0) return [];
  const values: unknown[] = [thread.id, thread.root_id, thread.project_id, nowMicroseconds()];
  const rows = requests.map((request) => {
    values.push(
      randomUUID(),
      request.toolCallId,
      request.toolName,
      JSON.stringify(request.args ?? {}),
      request.argsSchema === null ? null : JSON.stringify(request.argsSchema),
    );
    const n = values.length;
    return `($${n - 4}::uuid, $1::uuid, $2::uuid, $3::uuid, $${n - 3}, $${n - 2}, $${n - 1}::text::jsonb, $${n}::text::jsonb, 'pending', $4::bigint)`;
  });
  const inserted = await tx.query<Record<string, unknown>>(
    `INSERT INTO tool_approvals (id, thread_id, root_id, project_id, tool_call_id, tool_name, args, args_schema, state, requested_at)
     VALUES ${rows.join(", ")}
     ON CONFLICT (thread_id, tool_call_id) DO NOTHING
     RETURNING id, thread_id, root_id, project_id, tool_call_id, tool_name, args, args_schema, state,
       decided_args, reason, requested_at, decided_at`,
    values as never[],
  );
  return inserted.map((raw) =>
    toApprovalRow({ ...raw, thread_name: thread.name, agent_id: thread.agent_name }),
  );
}

/** The approvals of `threadId`'s calls, by tool call id. */
export async function approvalsOfCalls(
  db: SqlExecutor,
  threadId: string,
  callIds: readonly string[],
): Promise<Map<string, ApprovalRow>> {
  if (callIds.length === 0) return new Map();
  const rows = await db.query<Record<string, unknown>>(
    `SELECT ${COLUMNS} FROM tool_approvals a JOIN threads t ON t.id = a.thread_id
     WHERE a.thread_id = $1 AND a.tool_call_id = ANY($2::text[])`,
    [threadId, [...callIds]],
  );
  return new Map(rows.map((raw) => [String(raw.tool_call_id), toApprovalRow(raw)]));
}

/** How many approvals of the thread wait for a decision. */
export async function pendingApprovalCount(db: SqlExecutor, threadId: string): Promise<number> {
  const [row] = await db.query<{ count: string | number }>(
    "SELECT count(*) AS count FROM tool_approvals WHERE thread_id = $1 AND state = 'pending'",
    [threadId],
  );
  return Number(row?.count ?? 0);
}

export async function findApproval(db: SqlExecutor, id: string): Promise<ApprovalRow | null> {
  const rows = await db.query<Record<string, unknown>>(
    `SELECT ${COLUMNS} FROM tool_approvals a JOIN threads t ON t.id = a.thread_id WHERE a.id = $1`,
    [id],
  );
  return rows[0] ? toApprovalRow(rows[0]) : null;
}

/** Approvals of the threads `threadIds` (a thread and its subtree), oldest first. */
export async function listApprovalsOf(
  db: SqlExecutor,
  threadIds: readonly string[],
  state?: ApprovalState,
): Promise<ApprovalRow[]> {
  if (threadIds.length === 0) return [];
  const rows = await db.query<Record<string, unknown>>(
    `SELECT ${COLUMNS} FROM tool_approvals a JOIN threads t ON t.id = a.thread_id
     WHERE a.thread_id = ANY($1::uuid[]) AND ($2::text IS NULL OR a.state = $2)
     ORDER BY a.requested_at, a.id`,
    [[...threadIds], state ?? null],
  );
  return rows.map(toApprovalRow);
}

/** Approvals of a project's threads (the project-wide inbox), oldest first, at most `limit`. */
export async function listProjectApprovals(
  db: SqlExecutor,
  projectId: string,
  state: ApprovalState | undefined,
  limit: number,
): Promise<ApprovalRow[]> {
  const rows = await db.query<Record<string, unknown>>(
    `SELECT ${COLUMNS} FROM tool_approvals a JOIN threads t ON t.id = a.thread_id
     WHERE a.project_id = $1 AND ($2::text IS NULL OR a.state = $2)
     ORDER BY a.requested_at, a.id LIMIT $3`,
    [projectId, state ?? null, limit],
  );
  return rows.map(toApprovalRow);
}

/**
 * The decision, once: a compare-and-set from `pending` (null when it was decided already).
 * `decidedArgs` null: the call runs with the arguments it was asked with.
 */
export async function setApprovalDecision(
  tx: SqlExecutor,
  id: string,
  decision: { state: "approved" | "denied" | "cancelled"; decidedArgs: unknown; reason: string | null },
): Promise<ApprovalRow | null> {
  const rows = await tx.query<Record<string, unknown>>(
    `WITH decided AS (
       UPDATE tool_approvals SET state = $2, decided_args = $3::text::jsonb, reason = $4, decided_at = $5
       WHERE id = $1 AND ${APPROVAL_STATE.fromSql("decide")} RETURNING *)
     SELECT ${COLUMNS} FROM decided a JOIN threads t ON t.id = a.thread_id`,
    [
      id,
      APPROVAL_STATE.target("decide", decision.state),
      decision.decidedArgs === null || decision.decidedArgs === undefined
        ? null
        : JSON.stringify(decision.decidedArgs),
      decision.reason,
      nowMicroseconds(),
    ],
  );
  return rows[0] ? toApprovalRow(rows[0]) : null;
}

/** Cancels the pending approvals of terminated threads; answers the rows cancelled (for their events). */
export async function cancelPendingApprovals(
  tx: SqlExecutor,
  threadIds: readonly string[],
): Promise<ApprovalRow[]> {
  if (threadIds.length === 0) return [];
  const rows = await tx.query<Record<string, unknown>>(
    `WITH cancelled AS (
       UPDATE tool_approvals SET state = '${APPROVAL_STATE.target("cancelForTermination", "cancelled")}',
         reason = 'The thread was terminated.', decided_at = $2
       WHERE thread_id = ANY($1::uuid[]) AND ${APPROVAL_STATE.fromSql("cancelForTermination")} RETURNING *)
     SELECT ${COLUMNS} FROM cancelled a JOIN threads t ON t.id = a.thread_id`,
    [[...threadIds], nowMicroseconds()],
  );
  return rows.map(toApprovalRow);
}
