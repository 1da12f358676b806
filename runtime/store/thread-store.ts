// Thread rows: insert, read, lock and update. Every change to a thread's state happens in a
// transaction that first locks its row (`lockThread`), which serialises writers across processes.
// The status (and user_stopped, terminated_at) is written only through `thread-lifecycle.ts`, which
// alone imports the `*Status` / `insertThreadRows` functions below (scripts/thread-status-writes.test.ts).
import type { RowLock } from "@/lib/db/commit-batcher";
import type { SqlExecutor, SqlParameter, SqlStatement } from "@/lib/db/sql-client";
import { type InboxItem, toInboxItem } from "./inbox-item";
import type { LeaseTo } from "./local-take";
import type { ExecutionState } from "./messages";
import {
  finishedAtAfter,
  nowMicroseconds,
  THREAD_COLUMNS,
  type ThreadRow,
  type ThreadStatus,
  toThreadRow,
} from "./thread-row";

export const WORK_CHANNEL = "tandem_work";
/** The channel a stop or terminate notifies with a thread id: the process running it aborts its run. */
export const ABORT_CHANNEL = "tandem_abort";

export interface NewThread {
  id: string;
  projectId: string;
  projectVersion: number;
  agentName: string;
  parentId: string | null;
  rootId: string;
  depth: number;
  name: string | null;
  execution: ExecutionState;
  env: Record<string, string>;
  scopedEnv?: Record<string, string>;
  /** Messages the thread starts with (insertRunnableThreads; their rows are inserted by the caller). */
  messageSeq?: number;
  /** A fork: the thread it copies and the message of it the copy was cut at (null: copied whole). */
  forkedFrom?: { threadId: string; messageId: string | null };
}

/**
 * Inserts threads in one statement with their first status (`runnable`: new subagent children),
 * returned as a step reads them (version included) with no input waiting: nothing is queued for a
 * thread before it exists. For `thread-lifecycle.ts` only (its `spawn` transition).
 */
export async function insertThreadRows(
  tx: SqlExecutor,
  threads: readonly (NewThread & { status: ThreadStatus })[],
  runnable: boolean,
  lease?: LeaseTo & { count?: number },
): Promise<ThreadForStep[]> {
  if (threads.length === 0) return [];
  const { statement } = threadRowsInsert(threads, runnable, lease);
  const inserted = await tx.query<Record<string, unknown>>(
    `${statement.text} RETURNING ${THREAD_COLUMNS}, xmin::text AS row_version, '[]'::json AS pending_input`,
    statement.params as never[],
  );
  return inserted.map(toThreadForStep);
}

/**
 * `insertThreadRows` as a statement whose result nobody has to read (to `defer`), with the rows it
 * inserts as a read would return them: every column the insert does not set has its default (no
 * usage, no lease, no outcome), and the JSON columns go through `toThreadRow` as read JSON does.
 * For `thread-lifecycle.ts` only. (runtime/services/thread-service.integration.test.ts compares
 * these rows with the stored ones.)
 */
export function threadRowsInsert(
  threads: readonly (NewThread & { status: ThreadStatus })[],
  runnable: boolean,
  /**
   * The first `count` threads (all without it) are leased at once to `owner`: runnable threads this
   * process runs itself (`runtime/store/local-take.ts`).
   */
  lease?: LeaseTo & { count?: number },
): { statement: SqlStatement; rows: ThreadRow[] } {
  const now = nowMicroseconds();
  const values: unknown[] = [now, runnable];
  const rows = threads.map((thread, index) => {
    values.push(
      thread.id,
      thread.projectId,
      thread.projectVersion,
      thread.agentName,
      thread.parentId,
      thread.rootId,
      thread.depth,
      thread.name,
      thread.status,
      JSON.stringify(thread.execution),
      JSON.stringify(thread.env),
      JSON.stringify(thread.scopedEnv ?? {}),
      thread.messageSeq ?? 0,
      thread.forkedFrom?.threadId ?? null,
      thread.forkedFrom?.messageId ?? null,
    );
    const p = (offset: number) => `$${2 + index * 15 + offset}`;
    return `(${p(1)}::uuid, ${p(2)}::uuid, ${p(3)}::int, ${p(4)}, ${p(5)}::uuid, ${p(6)}::uuid, ${p(7)}::int, ${p(8)}, ${p(9)}, ${p(10)}::text::jsonb, ${p(11)}::text::jsonb, ${p(12)}::text::jsonb, $1::bigint, $1::bigint, $2::boolean, ${p(13)}::int, ${p(14)}::uuid, ${p(15)}::uuid)`;
  });
  const leased = lease ? Math.min(lease.count ?? threads.length, threads.length) : 0;
  let leaseColumns = "";
  let leaseValues = (_index: number) => "";
  if (lease && leased > 0) {
    values.push(lease.owner, String(lease.leaseMs));
    const taken = `, $${values.length - 1}::text, now() + ($${values.length}::text || ' milliseconds')::interval`;
    leaseColumns = ", lease_owner, lease_expires_at";
    leaseValues = (index) => (index < leased ? taken : ", NULL, NULL");
  }
  return {
    statement: {
      text: `INSERT INTO threads (id, project_id, project_version, agent_name, parent_id, root_id, depth, name, status,
       execution, env, scoped_env, created_at, updated_at, runnable, message_seq, forked_from_thread_id,
       forked_from_message_id${leaseColumns})
     VALUES ${rows.map((row, index) => `${row.slice(0, -1)}${leaseValues(index)})`).join(", ")}`,
      params: values as SqlParameter[],
    },
    rows: threads.map((thread, index) =>
      toThreadRow({
        id: thread.id,
        project_id: thread.projectId,
        project_version: thread.projectVersion,
        agent_name: thread.agentName,
        parent_id: thread.parentId,
        root_id: thread.rootId,
        depth: thread.depth,
        name: thread.name,
        status: thread.status,
        status_text: null,
        terminated_at: null,
        user_stopped: false,
        message_seq: thread.messageSeq ?? 0,
        execution: JSON.stringify(thread.execution),
        env: JSON.stringify(thread.env),
        scoped_env: JSON.stringify(thread.scopedEnv ?? {}),
        result: null,
        failure: null,
        stop_reason: null,
        input_tokens: 0,
        output_tokens: 0,
        cost_usd: 0,
        runnable,
        lease_owner: index < leased ? lease!.owner : null,
        created_at: now,
        updated_at: now,
        finished_at: null,
        forked_from_thread_id: thread.forkedFrom?.threadId ?? null,
        forked_from_message_id: thread.forkedFrom?.messageId ?? null,
      }),
    ),
  };
}

/** A thread copied by a fork (subagent subtrees): its source's row under new ids, never runnable. */
export type ThreadCopy = NewThread &
  Pick<
    ThreadRow,
    | "status"
    | "status_text"
    | "user_stopped"
    | "terminated_at"
    | "result"
    | "failure"
    | "stop_reason"
    | "input_tokens"
    | "output_tokens"
    | "cost_usd"
    | "created_at"
    | "updated_at"
    | "finished_at"
  > & { messageSeq: number };

/**
 * Inserts fork copies in one statement (for `thread-lifecycle.ts` only: its `copyThreads`), each with
 * the status and outcome of the thread it copies, not runnable and without a lease.
 */
export async function insertThreadCopyRows(
  tx: SqlExecutor,
  threads: readonly ThreadCopy[],
): Promise<ThreadRow[]> {
  if (threads.length === 0) return [];
  const fields = 27;
  const values: unknown[] = [];
  const rows = threads.map((thread, index) => {
    values.push(
      thread.id,
      thread.projectId,
      thread.projectVersion,
      thread.agentName,
      thread.parentId,
      thread.rootId,
      thread.depth,
      thread.name,
      thread.status,
      JSON.stringify(thread.execution),
      JSON.stringify(thread.env),
      JSON.stringify(thread.scopedEnv ?? {}),
      thread.messageSeq,
      thread.forkedFrom?.threadId ?? null,
      thread.forkedFrom?.messageId ?? null,
      thread.status_text,
      thread.user_stopped,
      thread.terminated_at,
      thread.result,
      thread.failure,
      thread.stop_reason,
      String(thread.created_at),
      String(thread.updated_at),
      String(thread.input_tokens),
      String(thread.output_tokens),
      thread.cost_usd,
      thread.finished_at === null ? null : String(thread.finished_at),
    );
    const p = (offset: number) => `$${index * fields + offset}`;
    return `(${p(1)}::uuid, ${p(2)}::uuid, ${p(3)}::int, ${p(4)}, ${p(5)}::uuid, ${p(6)}::uuid, ${p(7)}::int, ${p(8)}, ${p(9)}, ${p(10)}::text::jsonb, ${p(11)}::text::jsonb, ${p(12)}::text::jsonb, ${p(22)}::bigint, ${p(23)}::bigint, false, ${p(13)}::int, ${p(14)}::uuid, ${p(15)}::uuid, ${p(16)}::text, ${p(17)}::boolean, ${p(18)}::bigint, ${p(19)}::text, ${p(20)}::text, ${p(21)}::text, ${p(24)}::bigint, ${p(25)}::bigint, ${p(26)}::float8, ${p(27)}::bigint)`;
  });
  const inserted = await tx.query<Record<string, unknown>>(
    `INSERT INTO threads (id, project_id, project_version, agent_name, parent_id, root_id, depth, name, status,
       execution, env, scoped_env, created_at, updated_at, runnable, message_seq, forked_from_thread_id,
       forked_from_message_id, status_text, user_stopped, terminated_at, result, failure, stop_reason,
       input_tokens, output_tokens, cost_usd, finished_at)
     VALUES ${rows.join(", ")}
     RETURNING ${THREAD_COLUMNS}`,
    values as never[],
  );
  return inserted.map(toThreadRow);
}

export async function findThread(db: SqlExecutor, id: string): Promise<ThreadRow | null> {
  const rows = await db.query<Record<string, unknown>>(
    `SELECT ${THREAD_COLUMNS} FROM threads WHERE id = $1`,
    [id],
  );
  return rows[0] ? toThreadRow(rows[0]) : null;
}

/** The thread and the unconsumed input waiting in its inbox, in one round trip. */
export interface ThreadForStep {
  row: ThreadRow;
  /** Whether input waits (false when `pendingInput` was not read). */
  hasInput: boolean;
  /**
   * The unconsumed input, oldest first, as of the same snapshot as the row; null when not read with
   * it (`updateLockedThread` with `consumesInput`).
   */
  pendingInput: InboxItem[] | null;
  /**
   * The row version read (Postgres `xmin`: the transaction that wrote this version of the row).
   * Every UPDATE of the row writes a new version, so an unchanged `xmin` means an unchanged row;
   * row locks alone do not change it. See `threadVersionCheck`.
   */
  version: string;
}

export async function findThreadForStep(db: SqlExecutor, id: string): Promise<ThreadForStep | null> {
  const statement = threadForStepStatement(id);
  const rows = await db.query<Record<string, unknown>>(statement.text, statement.params);
  return rows[0] ? toThreadForStep(rows[0]) : null;
}

/** The input waiting in the thread's inbox, oldest first (`[]` when none). */
const PENDING_INPUT = `COALESCE((SELECT json_agg(json_build_object('id', id, 'seq', seq, 'payload', payload) ORDER BY seq)
    FROM inbox_items WHERE inbox_items.thread_id = threads.id AND consumed_at IS NULL), '[]'::json) AS pending_input`;

/** The thread row, its version and the input waiting (`toThreadForStep` reads them). */
export const THREAD_FOR_STEP_COLUMNS = `${THREAD_COLUMNS}, xmin::text AS row_version, ${PENDING_INPUT}`;

/**
 * What an update of a row known exactly (`updateLockedThread`) returns for the next step: the row's
 * new version, `runnable` (which it may decide in SQL) and the input waiting, or null for that when
 * the same commit consumes input. The caller knows the rest (`threadForStepAfterUpdate`).
 */
const VERSION_COLUMNS = `xmin::text AS row_version, runnable, ${PENDING_INPUT}`;
export const VERSION_COLUMNS_NO_INPUT = "xmin::text AS row_version, runnable, NULL::json AS pending_input";

/** The statement `findThreadForStep` sends (to send it along with others); `toThreadForStep` reads its row. */
export function threadForStepStatement(id: string): SqlStatement {
  return {
    text: `SELECT ${THREAD_FOR_STEP_COLUMNS} FROM threads WHERE id = $1`,
    params: [id],
  };
}

export function toThreadForStep(raw: Record<string, unknown>): ThreadForStep {
  return withVersion(toThreadRow(raw), raw);
}

/**
 * The thread after an `updateLockedThread` of a one-statement commit: `known` is the row it
 * computed (exact, since the commit's version check proved nobody else changed the row), `raw` what
 * the update returned (VERSION_COLUMNS).
 */
export function threadForStepAfterUpdate(known: ThreadRow, raw: Record<string, unknown>): ThreadForStep {
  return withVersion({ ...known, runnable: raw.runnable === true || raw.runnable === "t" }, raw);
}

function withVersion(row: ThreadRow, raw: Record<string, unknown>): ThreadForStep {
  const pending = typeof raw.pending_input === "string" ? JSON.parse(raw.pending_input) : raw.pending_input;
  const pendingInput = Array.isArray(pending)
    ? pending.map((item: Record<string, unknown>) => toInboxItem(item))
    : null;
  return {
    row,
    hasInput: (pendingInput?.length ?? 0) > 0,
    pendingInput,
    version: String(raw.row_version),
  };
}

/** The message of the error `threadVersionCheck` raises (its SQLSTATE is plpgsql's P0001). */
export const STALE_THREAD_MESSAGE = "tandem:stale_thread";

/**
 * A check (for a LazyTransaction, or `defer`red in a transaction) that locks the thread's row like
 * `lockThread` without a round trip of its own, and raises, failing the whole transaction, unless the
 * row is still the version `version` that the caller read earlier, or is as lease renewals left that
 * version (`renewLeases`: they change only the lease's expiry, which no step reads) — then the
 * caller's copy of the row is exact, and the work computed from that copy goes out in the same round
 * trip as its lock. `isStaleThreadError` recognises the failure: the caller retries with `lockThread`.
 */
export function threadVersionCheck(id: string, version: string): SqlStatement {
  return {
    text: `SELECT tandem_expect(
       (SELECT xmin::text = $2::text OR (xmin::text = lease_renewed_in AND lease_renewed_from = $2::text)
        FROM threads WHERE id = $1 FOR NO KEY UPDATE),
       '${STALE_THREAD_MESSAGE} ' || $1)`,
    params: [id, version],
  };
}

/** The row `threadVersionCheck` locks, for a group commit to lock ahead (`CommitPart.lock`). */
export function threadRowLock(id: string): RowLock {
  return { table: "threads", idType: "uuid", id };
}

export function isStaleThreadError(error: unknown): boolean {
  const message = (error as { message?: unknown } | null)?.message;
  return typeof message === "string" && message.startsWith(STALE_THREAD_MESSAGE);
}

/**
 * Locks the thread's row for this transaction. NO KEY UPDATE serialises every writer of the thread
 * (and waits for a spawn's FOR SHARE), but lets other transactions insert rows that reference the
 * thread (a child's report into its inbox) without waiting for it.
 */
export async function lockThread(tx: SqlExecutor, id: string): Promise<ThreadRow | null> {
  const rows = await tx.query<Record<string, unknown>>(
    `SELECT ${THREAD_COLUMNS} FROM threads WHERE id = $1 FOR NO KEY UPDATE`,
    [id],
  );
  return rows[0] ? toThreadRow(rows[0]) : null;
}

/** What any step may change on a thread; the status and its companions are `StatusChanges`. */
export interface ThreadChanges {
  statusText?: string | null;
  execution?: ExecutionState;
  agentName?: string;
  result?: string | null;
  failure?: string | null;
  stopReason?: string | null;
  /** `"if_input"`: runnable exactly when unconsumed input waits in the inbox (decided in SQL). */
  runnable?: boolean | "if_input";
  usage?: { inputTokens: number; outputTokens: number; costUsd: number };
  releaseLease?: boolean;
  /** The thread's last message seq (after `insertMessagesAfter`, which leaves it to the caller). */
  messageSeq?: number;
}

/**
 * A status write, for `thread-lifecycle.ts` only: the new status, the statuses it may replace (the
 * compare-and-set: the UPDATE matches no row from any other) and the columns that change with it.
 */
export interface StatusWrite {
  to: ThreadStatus;
  from: readonly ThreadStatus[];
  userStopped?: boolean;
  terminatedAt?: number;
}

type StatusChanges = ThreadChanges & { status?: ThreadStatus; userStopped?: boolean; terminatedAt?: number };

const COLUMN_FOR: Record<Exclude<keyof StatusChanges, "usage" | "releaseLease">, string> = {
  messageSeq: "message_seq",
  status: "status",
  statusText: "status_text",
  execution: "execution",
  agentName: "agent_name",
  result: "result",
  failure: "failure",
  stopReason: "stop_reason",
  runnable: "runnable",
  userStopped: "user_stopped",
  terminatedAt: "terminated_at",
};

export async function updateThread(tx: SqlExecutor, id: string, changes: ThreadChanges): Promise<ThreadRow> {
  return (await updateThreadStatus(tx, id, changes, null))!;
}

/**
 * `updateThread` with a status write (for `thread-lifecycle.ts` only): null when the row's status
 * is not one of `write.from` (nothing changed).
 */
export async function updateThreadStatus(
  tx: SqlExecutor,
  id: string,
  changes: ThreadChanges,
  write: StatusWrite | null,
): Promise<ThreadRow | null> {
  const update = updateStatement(id, withStatus(changes, write), nowMicroseconds(), write?.from);
  const rows = await tx.query<Record<string, unknown>>(
    returning(update, THREAD_COLUMNS),
    update.values as never[],
  );
  return rows[0] ? toThreadRow(rows[0]) : null;
}

function withStatus(changes: ThreadChanges, write: StatusWrite | null): StatusChanges {
  if (!write) return changes;
  const next: StatusChanges = { ...changes, status: write.to };
  if (write.userStopped !== undefined) next.userStopped = write.userStopped;
  if (write.terminatedAt !== undefined) next.terminatedAt = write.terminatedAt;
  return next;
}

/**
 * The same update, sent without waiting for it (pipelined with the transaction's next statement or
 * its COMMIT). `locked` is the row as this transaction last saw it (under its row lock); the row it
 * returns is computed here and exact for every field of the thread view (API.md `thread`).
 */
export function updateLockedThread(
  tx: SqlExecutor,
  locked: ThreadRow,
  changes: ThreadChanges,
  options: LockedUpdateOptions = {},
): Promise<ThreadRow> {
  return updateLockedThreadStatus(tx, locked, changes, null, options);
}

export interface LockedUpdateOptions {
  /**
   * The same commit consumes input (`consumeInboxItems`): its returned row then does not read the
   * inbox, which it would see as it was before the commit (and a one-statement commit refuses a
   * part that reads a table another part writes).
   */
  consumesInput?: boolean;
}

/**
 * `updateLockedThread` with a status write (for `thread-lifecycle.ts` only, which checks `write.from`
 * against `locked` first: the UPDATE's own check then always holds, the row being locked and exact).
 */
export async function updateLockedThreadStatus(
  tx: SqlExecutor,
  locked: ThreadRow,
  changes: ThreadChanges,
  write: StatusWrite | null,
  options: LockedUpdateOptions = {},
): Promise<ThreadRow> {
  const now = nowMicroseconds();
  const all = withStatus(changes, write);
  const update = updateStatement(locked.id, all, now, write?.from);
  const after = withThreadChanges(locked, all, now);
  // Inside a one-statement commit, the update also returns what the next step needs beyond the row
  // computed here (threadForStepAfterUpdate).
  await tx.defer(returning(update), update.values as never[], {
    text: returning(update, options.consumesInput ? VERSION_COLUMNS_NO_INPUT : VERSION_COLUMNS),
    params: update.values as never[],
    returnsRows: true,
    describes: after,
  });
  return after;
}

/** The row after `changes` (pure). `runnable: "if_input"` is decided in SQL: kept as it was here. */
export function withThreadChanges(row: ThreadRow, changes: StatusChanges, now: number): ThreadRow {
  const next: ThreadRow = { ...row, updated_at: now };
  if (changes.status !== undefined) {
    next.status = changes.status;
    next.finished_at = finishedAtAfter(row, changes.status, now);
  }
  if (changes.statusText !== undefined) next.status_text = changes.statusText;
  if (changes.execution !== undefined) next.execution = changes.execution;
  if (changes.agentName !== undefined) next.agent_name = changes.agentName;
  if (changes.result !== undefined) next.result = changes.result;
  if (changes.failure !== undefined) next.failure = changes.failure;
  if (changes.stopReason !== undefined) next.stop_reason = changes.stopReason;
  if (typeof changes.runnable === "boolean") next.runnable = changes.runnable;
  if (changes.userStopped !== undefined) next.user_stopped = changes.userStopped;
  if (changes.terminatedAt !== undefined) next.terminated_at = changes.terminatedAt;
  if (changes.usage) {
    next.input_tokens = row.input_tokens + changes.usage.inputTokens;
    next.output_tokens = row.output_tokens + changes.usage.outputTokens;
    next.cost_usd = row.cost_usd + changes.usage.costUsd;
  }
  if (changes.releaseLease) next.lease_owner = null;
  if (changes.messageSeq !== undefined) next.message_seq = changes.messageSeq;
  return next;
}

function updateStatement(
  id: string,
  changes: StatusChanges,
  now: number,
  /** The statuses the row must have for the update to apply (a compare-and-set), as SQL literals. */
  from?: readonly ThreadStatus[],
): UpdateStatement {
  const sets: string[] = [];
  const values: unknown[] = [id];
  for (const [key, column] of Object.entries(COLUMN_FOR) as [keyof typeof COLUMN_FOR, string][]) {
    const value = changes[key];
    if (value === undefined) continue;
    if (key === "runnable" && value === "if_input") {
      sets.push(
        "runnable = EXISTS (SELECT 1 FROM inbox_items WHERE inbox_items.thread_id = threads.id AND consumed_at IS NULL)",
      );
      continue;
    }
    values.push(key === "execution" ? JSON.stringify(value) : value);
    sets.push(`${column} = $${values.length}${key === "execution" ? "::text::jsonb" : ""}`);
  }
  if (changes.usage) {
    values.push(changes.usage.inputTokens, changes.usage.outputTokens, changes.usage.costUsd);
    const n = values.length;
    sets.push(
      `input_tokens = input_tokens + $${n - 2}`,
      `output_tokens = output_tokens + $${n - 1}`,
      `cost_usd = cost_usd + $${n}`,
    );
  }
  if (changes.releaseLease) sets.push("lease_owner = NULL", "lease_expires_at = NULL");
  values.push(now);
  sets.push(`updated_at = $${values.length}`);
  return {
    text: `UPDATE threads SET ${sets.join(", ")} WHERE id = $1${from ? ` AND ${statusIn(from)}` : ""}`,
    values,
    wakesIfRunnable: changes.runnable === "if_input",
  };
}

/**
 * `status IN (...)` for a set of statuses from the lifecycle table: literals, not parameters, so the
 * statement text of each transition is one constant (a prepared statement). FALSE for none (an insert).
 */
export function statusIn(statuses: readonly ThreadStatus[]): string {
  for (const status of statuses) if (!/^[a-z_]+$/.test(status)) throw new Error(`not a status: ${status}`);
  return statuses.length === 0
    ? "FALSE"
    : `status IN (${statuses.map((status) => `'${status}'`).join(", ")})`;
}

interface UpdateStatement {
  /** The UPDATE, without a RETURNING list (`returning` adds it). */
  text: string;
  values: unknown[];
  /** It decides `runnable` in SQL, and must wake the schedulers when that comes out true. */
  wakesIfRunnable: boolean;
}

/**
 * A thread parked while input arrived stays runnable (`runnable: "if_input"`): the update itself wakes
 * the schedulers (NOTIFY, delivered at COMMIT), since no other notification is coming for input that
 * is already queued. In the RETURNING list, so the update stays one plain statement that a
 * one-statement commit can combine (a data-modifying WITH part runs to completion, RETURNING
 * included, whether or not its rows are read).
 */
const NOTIFY_IF_RUNNABLE = `CASE WHEN runnable THEN pg_notify('${WORK_CHANNEL}', id::text) END AS work_notified`;

/** The update with its RETURNING list: `columns`, and the wake-up when it decides `runnable` in SQL. */
function returning(update: UpdateStatement, columns?: string): string {
  const list = [columns, update.wakesIfRunnable ? NOTIFY_IF_RUNNABLE : undefined].filter(Boolean);
  return list.length > 0 ? `${update.text} RETURNING ${list.join(", ")}` : update.text;
}

export async function notifyWork(tx: SqlExecutor, threadId: string): Promise<void> {
  await tx.query("SELECT pg_notify($1, $2)", [WORK_CHANNEL, threadId]);
}

/** Tells every process to abort the runs of these threads (a stop or terminate, in its transaction). */
export async function notifyAbort(tx: SqlExecutor, threadIds: readonly string[]): Promise<void> {
  for (const id of threadIds) await tx.query("SELECT pg_notify($1, $2)", [ABORT_CHANNEL, id]);
}

/**
 * A thread and all its descendants, deepest first (then by id): the order a stop or terminate locks
 * them in, as a child's report locks its parent after itself. Empty when the thread does not exist.
 */
export async function subtreeIdsDeepestFirst(tx: SqlExecutor, threadId: string): Promise<string[]> {
  const rows = await tx.query<{ id: string }>(
    `WITH RECURSIVE subtree AS (
       SELECT id, depth FROM threads WHERE id = $1
       UNION ALL SELECT t.id, t.depth FROM threads t JOIN subtree s ON t.parent_id = s.id
     ) SELECT id FROM subtree ORDER BY depth DESC, id`,
    [threadId],
  );
  return rows.map((row) => String(row.id));
}

/** A thread and all its descendants (the subtree an event stream below the root is limited to). */
export async function findSubtreeIds(db: SqlExecutor, threadId: string): Promise<string[]> {
  const rows = await db.query<{ id: string }>(
    `WITH RECURSIVE s AS (SELECT id FROM threads WHERE id = $1
       UNION ALL SELECT t.id FROM threads t JOIN s ON t.parent_id = s.id) SELECT id FROM s`,
    [threadId],
  );
  return rows.map((row) => row.id);
}
