// The thread lifecycle: what each status means, and every change of status as a named
// compare-and-set from the table below. The only module that writes `threads.status` (and
// `user_stopped`, `terminated_at`): scripts/thread-status-writes.test.ts fails on any other writer.
// docs/runtime.md prints TRANSITIONS (`lifecycleTableMarkdown`; a test keeps them equal).

import { THREAD_STATUSES, type ThreadStatus } from "@/lib/contracts/thread";
import type { SqlClient, SqlExecutor } from "@/lib/db/sql-client";
import type { InboxItem } from "./inbox-item";
import type { LeaseTo } from "./local-take";
import { storedMessageRow } from "./message-store";
import type { Side, StoredMessage } from "./messages";
import { messageEventBatchItem, threadEventBatchSql, threadEventSql } from "./thread-events";
import { nowMicroseconds, THREAD_COLUMNS, type ThreadRow, toThreadRow } from "./thread-row";
import {
  insertThreadCopyRows,
  insertThreadRows,
  type LockedUpdateOptions,
  type NewThread,
  type StatusWrite,
  statusIn,
  type ThreadChanges,
  type ThreadCopy,
  type ThreadForStep,
  threadRowLock,
  threadRowsInsert,
  toThreadForStep,
  updateLockedThreadStatus,
  updateThreadStatus,
  VERSION_COLUMNS_NO_INPUT,
  WORK_CHANNEL,
} from "./thread-store";

export { THREAD_STATUSES, type ThreadStatus };

/** Its session ended (a step parked it with a verdict); input starts a new one. */
export function isSessionEnded(status: ThreadStatus): boolean {
  return status === "completed" || status === "failed" || status === "stopped";
}

/** It has work: input waits for it (queued) or it runs (running). */
export function isActive(status: ThreadStatus): boolean {
  return status === "queued" || status === "running";
}

/** Parked mid-run until a human decides its tool approvals (docs/runtime.md "Approvals"). */
export function isAwaitingApproval(status: ThreadStatus): boolean {
  return status === "waiting_approval";
}

/** Terminated: permanent, it accepts no new work. */
export function isTerminated(status: ThreadStatus): boolean {
  return status === "terminated";
}

const NOT_TERMINATED = THREAD_STATUSES.filter((status) => !isTerminated(status));
const SESSION_OVER = THREAD_STATUSES.filter((status) => status === "idle" || isSessionEnded(status));

export interface Transition {
  /** The statuses it applies from (checked in the SQL); empty for a transition that inserts the row. */
  from: readonly ThreadStatus[];
  to: ThreadStatus;
  /** The code that applies it (for the docs). */
  callers: string;
  /** The columns it writes with the status (for the docs). */
  sets: string;
  /** Columns every application writes, whatever the caller passes. */
  fixed?: Pick<ThreadChanges, "runnable" | "releaseLease"> & { userStopped?: boolean };
}

const TABLE = {
  create: {
    from: [],
    to: "idle",
    callers: "ThreadService.create (no first message); ThreadForkService.fork (no `content`)",
    sets: "the new row",
  },
  createWithInput: {
    from: [],
    to: "queued",
    callers:
      "ThreadService.create (with a first message, unless `createRunning`); ThreadForkService.fork (with `content`); ThreadReplayService.replay",
    sets: "the new row; runnable once its input is queued",
  },
  createRunning: {
    from: [],
    to: "running",
    callers: "ThreadService.create (one first message, and this process takes the thread at once)",
    sets: "the new row, runnable, leased here, first message stored (its input recorded consumed)",
  },
  postRunning: {
    from: SESSION_OVER,
    to: "running",
    callers:
      "ThreadService.postMessage (a thread that parked in this process, no input waiting, and this process takes it at once)",
    sets: "runnable, leased here, the message stored (its input recorded consumed), a new run's execution state; stop_reason cleared when a human wrote; finished_at cleared",
  },
  spawn: {
    from: [],
    to: "running",
    callers: "spawnChildren (subagents/child-transactions)",
    sets: "the new rows, runnable, first message stored",
  },
  wakeForInput: {
    from: SESSION_OVER,
    to: "queued",
    callers: "queueThreadInput (store/queue-input); a child's report (wakeForReport)",
    sets: "refused while user-stopped unless a human wrote; a report also sets runnable; finished_at cleared",
  },
  startRun: {
    from: NOT_TERMINATED,
    to: "running",
    callers: "drainInput (engine/step/drain-input)",
    sets: "runnable; user_stopped = false and stop_reason cleared when a human wrote; finished_at cleared",
    fixed: { runnable: true },
  },
  continueRun: {
    from: ["running"],
    to: "running",
    callers: "applyNextMove (run on, switch side), handoff",
    sets: "runnable",
    fixed: { runnable: true },
  },
  blockOnChild: {
    from: NOT_TERMINATED,
    to: "running",
    callers: "parkOnChild (engine/step/blocked-call)",
    sets: "execution.blockedOn; runnable = false; lease released",
    fixed: { runnable: false, releaseLease: true },
  },
  awaitApproval: {
    from: ["running"],
    to: "waiting_approval",
    callers: "parkOnApproval (engine/step/approval-gate)",
    sets: "pending approval rows for the reply's undecided calls (same commit); runnable = false; lease released",
    fixed: { runnable: false, releaseLease: true },
  },
  resumeApproved: {
    from: ["waiting_approval"],
    to: "running",
    callers: "ApprovalService.decide, when the decision leaves none of the thread pending",
    sets: "runnable; schedulers notified (same commit as the decision)",
    fixed: { runnable: true },
  },
  park: {
    from: ["running"],
    to: "idle",
    callers: "parkThread ← decideNext (the turn passes to the human)",
    sets: "finished_at; lease released; runnable if input waits (never when user-stopped, nor a one-off child)",
    fixed: { releaseLease: true },
  },
  completeSession: {
    from: ["running"],
    to: "completed",
    callers: "parkThread ← decideNext (the session completed)",
    sets: "result, stop_reason, finished_at; lease released; runnable if input waits; a child reports",
    fixed: { releaseLease: true },
  },
  failSession: {
    from: ["running"],
    to: "failed",
    callers:
      "parkThread ← decideNext (the session failed), model call failed, no active side, queued time limit",
    sets: "failure, stop_reason, finished_at; lease released; runnable if input waits; a child reports",
    fixed: { releaseLease: true },
  },
  stopSession: {
    from: ["running"],
    to: "stopped",
    callers: "parkThread ← decideNext (stop(), step cap, turn limit), run time limit",
    sets: "stop_reason, finished_at; lease released; runnable if input waits; a child reports",
    fixed: { releaseLease: true },
  },
  stopByUser: {
    from: NOT_TERMINATED,
    to: "stopped",
    callers: "ThreadService.stop",
    sets: "user_stopped = true, runnable = false, lease released, blockedOn cleared; finished_at only if it was at work; a child reports",
    fixed: { userStopped: true, runnable: false, releaseLease: true },
  },
  liftStopForParent: {
    from: ["stopped"],
    to: "stopped",
    callers: "deliverToChild (subagents/deliver-to-child): a parent messages a user-stopped child",
    sets: "user_stopped = false: the parent is a child's user, so its message runs the child again",
    fixed: { userStopped: false },
  },
  terminate: {
    from: NOT_TERMINATED,
    to: "terminated",
    callers: "ThreadService.terminate (each thread of the subtree)",
    sets: "terminated_at, runnable = false, lease released; finished_at only if it was at work; a child reports",
    fixed: { runnable: false, releaseLease: true },
  },
} as const satisfies Record<string, Transition>;

export type TransitionName = keyof typeof TABLE;

/** Every change of a thread's status. `from` → `to`, as the SQL of each checks it. */
export const TRANSITIONS: Readonly<Record<TransitionName, Transition>> = TABLE;
/** The transitions that insert the row. */
export type InsertTransition = "create" | "createWithInput" | "spawn";
/** The transitions that update a row. */
export type UpdateTransition = Exclude<TransitionName, InsertTransition>;
/** The transitions that end a run (`parkThread`). */
export type ParkTransition = "park" | "completeSession" | "failSession" | "stopSession";

export function allows(name: TransitionName, status: ThreadStatus): boolean {
  return TRANSITIONS[name].from.includes(status);
}

/** A transition refused on a row this transaction holds locked: a bug in the caller, never a race. */
export class TransitionRefusedError extends Error {
  constructor(name: TransitionName, threadId: string, status: ThreadStatus) {
    super(`Thread ${threadId}: transition ${name} does not apply from status ${status}.`);
    this.name = "TransitionRefusedError";
  }
}

function statusWrite(name: UpdateTransition, extra: { terminatedAt?: number } = {}): StatusWrite {
  const transition = TRANSITIONS[name];
  return {
    to: transition.to,
    from: transition.from,
    ...(transition.fixed?.userStopped !== undefined ? { userStopped: transition.fixed.userStopped } : {}),
    ...extra,
  };
}

function withFixed(name: UpdateTransition, changes: ThreadChanges): ThreadChanges {
  const fixed = TRANSITIONS[name].fixed;
  if (!fixed) return changes;
  const { userStopped: _userStopped, ...columns } = fixed;
  return { ...changes, ...columns };
}

/**
 * Applies `name` to a row this transaction holds locked, pipelined like `updateLockedThread` (no
 * round trip of its own): `locked` is exact, so the check is made here and the UPDATE's own
 * `status IN (...)` always holds. Throws TransitionRefusedError when `locked.status` is not allowed.
 */
export function applyLocked(
  tx: SqlExecutor,
  locked: ThreadRow,
  name: Exclude<UpdateTransition, "terminate">,
  changes: ThreadChanges,
  options: LockedUpdateOptions = {},
): Promise<ThreadRow> {
  if (!allows(name, locked.status)) throw new TransitionRefusedError(name, locked.id, locked.status);
  return updateLockedThreadStatus(tx, locked, withFixed(name, changes), statusWrite(name), options);
}

/**
 * Applies `name` to the thread in one statement and reads the row back: null when it did not apply
 * (the row's status is not one `name` leaves from, or the row is gone), and nothing changed.
 */
export function apply(
  tx: SqlExecutor,
  id: string,
  name: Exclude<UpdateTransition, "terminate">,
  changes: ThreadChanges = {},
): Promise<ThreadRow | null> {
  return updateThreadStatus(tx, id, withFixed(name, changes), statusWrite(name));
}

/** `terminate`: permanent; `terminatedAt` is shared by the subtree terminated together. Null if refused. */
export function terminate(
  tx: SqlExecutor,
  id: string,
  terminatedAt: number,
  changes: ThreadChanges = {},
): Promise<ThreadRow | null> {
  return updateThreadStatus(
    tx,
    id,
    withFixed("terminate", changes),
    statusWrite("terminate", { terminatedAt }),
  );
}

/** `startRun` for the drain of `locked`'s input: a human writing lifts a user stop. */
export function startRun(
  tx: SqlExecutor,
  locked: ThreadRow,
  changes: ThreadChanges,
  humanWrote: boolean,
  options: LockedUpdateOptions = {},
): Promise<ThreadRow> {
  if (!allows("startRun", locked.status))
    throw new TransitionRefusedError("startRun", locked.id, locked.status);
  const write = { ...statusWrite("startRun"), ...(humanWrote ? { userStopped: false } : {}) };
  const all = humanWrote ? { ...changes, stopReason: null } : changes;
  return updateLockedThreadStatus(tx, locked, withFixed("startRun", all), write, options);
}

/**
 * `wakeForInput` for input just queued for `locked` (its row lock held): a thread whose session is
 * over is queued again, unless a user stop parks input that no human wrote. Null when it did not
 * apply (a queued or running thread already has its work ahead); no statement is sent then.
 */
export async function wakeForInput(
  tx: SqlExecutor,
  locked: ThreadRow,
  input: Pick<InboxItem["payload"], "fromHuman">,
): Promise<ThreadRow | null> {
  if (!allows("wakeForInput", locked.status) || (locked.user_stopped && !input.fromHuman)) return null;
  const rows = await tx.query<Record<string, unknown>>(
    `UPDATE threads SET status = 'queued', updated_at = $2
     WHERE id = $1 AND ${statusIn(TRANSITIONS.wakeForInput.from)} AND (NOT user_stopped OR $3::boolean)
     RETURNING ${THREAD_COLUMNS}`,
    [locked.id, nowMicroseconds(), input.fromHuman],
  );
  return rows[0] ? toThreadRow(rows[0]) : null;
}

/** THREAD_COLUMNS qualified by `threads.` (a RETURNING of an UPDATE … FROM other tables). */
const THREAD_COLUMNS_OF_THREADS = THREAD_COLUMNS.split(",")
  .map((column) => `threads.${column.trim()}`)
  .join(", ");

/** What `queueInputAndWake` did: nothing for a missing or terminated thread. */
export type QueuedInput =
  | { kind: "missing" }
  | { kind: "terminated"; terminatedAt: number }
  | {
      kind: "queued";
      item: InboxItem;
      woken: ThreadRow | null;
      /** Leased to `take.owner` by the statement: the thread as its first step needs it. */
      taken: { read: ThreadForStep; runStartedAt: number | null } | null;
    };

/**
 * `enqueue` and `wakeForInput` under the thread's row lock, in ONE statement (sent on its own, a
 * queued message then costs one round trip and no BEGIN or COMMIT): locks the row, inserts the input
 * unless the thread is terminated, makes it runnable, applies `wakeForInput` when it allows (not
 * while user-stopped unless a human wrote), appends the woken thread's event (`threadEventBatchSql`;
 * the root's event lock taken first, `tandem_order_events`, so its id is in commit order without the
 * commit-time renumbering, as in a one-statement step commit) and wakes the schedulers. `woken` is the
 * row when wakeForInput applied, as `wakeForInput` returns it.
 *
 * `take` (this process's scheduler has room, `Scheduler.takeLocally`): a thread nobody holds is
 * leased to `take.owner` by the same update, nobody is notified, and `taken` is the thread as its
 * first step needs it (row, version, the input waiting, this item included).
 */
export async function queueInputAndWake(
  tx: SqlExecutor,
  threadId: string,
  input: { id: string; payload: InboxItem["payload"]; createdAt: number },
  take?: LeaseTo,
): Promise<QueuedInput> {
  const wakes = `${statusIn(TRANSITIONS.wakeForInput.from)} AND (NOT user_stopped OR $5::boolean)`;
  const [raw] = await tx.query<Record<string, unknown>>(
    `WITH locked AS (
       SELECT id, terminated_at, (${wakes}) AS wakes, (lease_owner IS NULL AND $7::text IS NOT NULL) AS takes
       FROM threads WHERE id = $1 FOR NO KEY UPDATE
     ), item AS (
       INSERT INTO inbox_items (id, thread_id, kind, payload, created_at)
       SELECT $2, $1, 'message', $3::text::jsonb, $4 FROM locked WHERE terminated_at IS NULL
       RETURNING id, seq, payload
     ), woken AS (
       UPDATE threads SET runnable = true,
         status = CASE WHEN locked.wakes THEN 'queued' ELSE threads.status END,
         updated_at = CASE WHEN locked.wakes THEN $4 ELSE threads.updated_at END,
         lease_owner = CASE WHEN locked.takes THEN $7::text ELSE threads.lease_owner END,
         lease_expires_at = CASE WHEN locked.takes THEN now() + ($8 || ' milliseconds')::interval
           ELSE threads.lease_expires_at END
       FROM locked, item
       WHERE threads.id = $1
       RETURNING ${THREAD_COLUMNS_OF_THREADS}, threads.xmin::text AS row_version, threads.run_started_at, locked.wakes AS applied,
         locked.takes AS taken,
         CASE WHEN locked.takes THEN NULL ELSE pg_notify($6, $1::text) END AS notified
     ), announced AS (
       INSERT INTO events (root_id, batch, created_at)
       SELECT woken.root_id, ${threadEventBatchSql("woken")}, $4
       FROM woken, (SELECT tandem_order_events(ARRAY[woken.root_id::text]) AS taken FROM woken WHERE woken.applied) AS ordered
       WHERE woken.applied
     )
     SELECT (SELECT count(*) FROM locked)::int AS found, (SELECT terminated_at FROM locked) AS locked_terminated_at,
       (SELECT seq FROM item) AS item_seq, woken.*,
       CASE WHEN woken.taken THEN COALESCE((
         SELECT json_agg(json_build_object('id', waiting.id, 'seq', waiting.seq, 'payload', waiting.payload) ORDER BY waiting.seq)
         FROM (SELECT id, seq, payload FROM inbox_items WHERE thread_id = $1 AND consumed_at IS NULL
               UNION ALL SELECT id, seq, payload FROM item) AS waiting), '[]'::json) END AS pending_input
     FROM (SELECT 1) AS one LEFT JOIN woken ON true`,
    [
      threadId,
      input.id,
      JSON.stringify(input.payload),
      input.createdAt,
      input.payload.fromHuman,
      WORK_CHANNEL,
      take?.owner ?? null,
      String(take?.leaseMs ?? 0),
    ],
  );
  if (!raw || Number(raw.found) === 0) return { kind: "missing" };
  if (raw.locked_terminated_at !== null && raw.locked_terminated_at !== undefined)
    return { kind: "terminated", terminatedAt: Number(raw.locked_terminated_at) };
  const item: InboxItem = {
    id: input.id,
    seq: Number(raw.item_seq),
    kind: "message",
    payload: input.payload,
  };
  const applied = raw.applied === true || raw.applied === "t";
  const taken = raw.taken === true || raw.taken === "t";
  return {
    kind: "queued",
    item,
    woken: applied ? toThreadRow(raw) : null,
    taken: taken
      ? {
          read: toThreadForStep(raw),
          runStartedAt: raw.run_started_at === null ? null : Number(raw.run_started_at),
        }
      : null,
  };
}

/** The thread as `postRunningInput` expects it: what this process saw when it parked here. */
export interface ParkedAs {
  /** Its root: where its commit's locks go in a group (root, then thread; `commit-batcher.ts`). */
  rootId: string;
  projectVersion: number;
  agentName: string;
  /** Its last message's seq: the posted message is stored right after it. */
  messageSeq: number;
}

/** How the posted message starts the run (`runStartedBy` and `inputSide`, computed by the caller). */
export interface PostedRunStart {
  /** The side the message is stored on. */
  messageSide: Side | null;
  /** The side that acts first in the new run. */
  currentSide: Side;
  /** A human wrote in a chat: side B's turns count one more. */
  countsTurnB: boolean;
}

/** A message posted to a thread parked here, as `postRunningInput` stores it. */
export interface RunningPost {
  threadId: string;
  input: { id: string; payload: InboxItem["payload"]; createdAt: number };
  /** How the thread parked here: the statement applies only while it is still so. */
  parkedAs: ParkedAs;
  start: PostedRunStart;
  /** The process that runs the thread's first step at once. */
  take: LeaseTo;
}

/** What `postRunningInput` stored: the thread as its first step needs it, and the message. */
export interface PostedRunning {
  read: ThreadForStep;
  message: StoredMessage;
  runStartedAt: number | null;
}

/**
 * `postRunning`: a message posted to a thread whose session is over stores the message and starts
 * the run in ONE statement (sent on its own), as the thread's next drain would have, and leases the
 * thread to `take.owner`, whose first step then goes straight to the model (docs/runtime.md "A
 * message posted to a thread parked here"). It applies only to the thread exactly as `parkedAs`
 * says (same message_seq, version and agent) with nothing else to do first: no input waiting, not
 * runnable, not leased, not user-stopped, not blocked on a child, not a replay. Null when it did not
 * apply; then nothing was written and the caller queues the message instead (`queueInputAndWake`).
 * The input is recorded in the inbox as consumed (replays read it), and the message's and the
 * thread's events are appended with the root's event lock taken first, as in `queueInputAndWake`.
 */
export async function postRunningInput(client: SqlClient, post: RunningPost): Promise<PostedRunning | null> {
  const { threadId, input, parkedAs, start, take } = post;
  const { payload, createdAt } = input;
  const seq = parkedAs.messageSeq + 1;
  const message = storedMessageRow(
    {
      id: payload.messageId,
      role: payload.role,
      side: start.messageSide,
      content: payload.content,
      silent: payload.silent,
      metadata: payload.metadata,
      attachments: payload.attachments,
    },
    payload.messageId,
    seq,
    createdAt,
  );
  const text = `WITH woken AS (
       UPDATE threads SET status = '${TRANSITIONS.postRunning.to}', runnable = true, message_seq = $2::int,
         execution = execution || jsonb_build_object('currentSide', $3::text, 'turnStartSeq', $2::int,
           'turnSteps', 0, 'runSteps', 0,
           'turnsB', COALESCE((execution->>'turnsB')::int, 0) + CASE WHEN $4::boolean THEN 1 ELSE 0 END),
         stop_reason = CASE WHEN $5::boolean THEN NULL ELSE stop_reason END,
         updated_at = $6::bigint, lease_owner = $7::text,
         lease_expires_at = now() + ($8 || ' milliseconds')::interval
       WHERE id = $1 AND ${statusIn(TRANSITIONS.postRunning.from)} AND NOT user_stopped AND NOT runnable
         AND terminated_at IS NULL AND lease_owner IS NULL
         AND message_seq = $2::int - 1 AND project_version = $9::int AND agent_name = $10::text
         AND COALESCE(execution->'blockedOn', 'null'::jsonb) = 'null'::jsonb
         AND COALESCE(execution->'replayOf', 'null'::jsonb) = 'null'::jsonb
         AND NOT EXISTS (SELECT 1 FROM inbox_items WHERE thread_id = $1 AND consumed_at IS NULL)
       RETURNING ${THREAD_COLUMNS_OF_THREADS}, threads.xmin::text AS row_version, threads.run_started_at
     ), stored AS (
       INSERT INTO messages (id, thread_id, seq, role, side, content, depth, silent, metadata, attachments, created_at)
       SELECT $11::uuid, woken.id, $2::int, $12::text, $13::text, $14::text, 0, $15::boolean,
         $16::text::jsonb, $17::text::jsonb, $6::bigint
       FROM woken
     ), recorded AS (
       INSERT INTO inbox_items (id, thread_id, kind, payload, created_at, consumed_at)
       SELECT $18::uuid, woken.id, 'message', $19::text::jsonb, $6::bigint, $6::bigint FROM woken
     ), announced AS (
       INSERT INTO events (root_id, batch, created_at)
       SELECT woken.root_id, json_build_array($20::text::json, ${threadEventSql("woken")}), $6::bigint
       FROM woken, (SELECT tandem_order_events(ARRAY[woken.root_id::text]) AS taken FROM woken) AS ordered
     )
     SELECT woken.*, '[]'::json AS pending_input FROM woken`;
  const params = [
    threadId, // $1
    seq, // $2
    start.currentSide, // $3
    start.countsTurnB, // $4
    payload.fromHuman, // $5
    createdAt, // $6
    take.owner, // $7
    String(take.leaseMs), // $8
    parkedAs.projectVersion, // $9
    parkedAs.agentName, // $10
    message.id, // $11
    message.role, // $12
    message.side, // $13
    message.content, // $14
    message.silent, // $15
    JSON.stringify(message.metadata), // $16
    JSON.stringify(message.attachments), // $17
    input.id, // $18
    JSON.stringify(payload), // $19
    JSON.stringify(messageEventBatchItem(threadId, message)), // $20
  ];
  // A whole transaction by itself: posts at the same moment share a group commit, like step commits.
  // In a group, the thread's row is locked ahead with the other parts' rows (`lock`), before any
  // part takes its root's event lock, as for a step commit: a post and another commit of the same
  // tree in one group cannot then wait on each other's locks in opposite orders.
  const [outcome] = await client.commitStatement({
    statement: { text, params },
    checks: [],
    after: [],
    order: `${parkedAs.rootId}/${threadId}`,
    lock: threadRowLock(threadId),
  });
  if (!outcome || "error" in outcome)
    throw outcome?.error ?? new Error("The post's statement sent nothing back.");
  const raw = outcome.rows[0];
  if (!raw) return null;
  return {
    read: toThreadForStep(raw),
    message,
    runStartedAt: raw.run_started_at === null ? null : Number(raw.run_started_at),
  };
}

/**
 * `wakeForInput` for a child's report in a parent's inbox, without the parent's row lock beforehand:
 * one statement makes it runnable (unless user-stopped) and queued (when `wakeForInput` applies),
 * and wakes the schedulers. Null when the parent is terminated; `applied` says whether its status
 * changed.
 */
export async function wakeForReport(
  tx: SqlExecutor,
  parentId: string,
): Promise<{ row: ThreadRow; applied: boolean } | null> {
  const [raw] = await tx.query<Record<string, unknown>>(
    `WITH before AS (SELECT status FROM threads WHERE id = $1)
     UPDATE threads SET
       runnable = runnable OR NOT user_stopped,
       status = CASE WHEN ${statusIn(TRANSITIONS.wakeForInput.from)} AND NOT user_stopped THEN 'queued' ELSE status END,
       updated_at = $2
     WHERE id = $1 AND terminated_at IS NULL
     RETURNING ${THREAD_COLUMNS}, (SELECT status FROM before) AS previous_status, pg_notify($3, $1::text) AS notified`,
    [parentId, nowMicroseconds(), WORK_CHANNEL],
  );
  if (!raw) return null;
  const row = toThreadRow(raw);
  return { row, applied: raw.previous_status !== row.status };
}

/** `create` / `createWithInput`: a new root thread (not runnable until its input is queued). */
export async function createThread(
  tx: SqlExecutor,
  thread: NewThread,
  withInput: boolean,
  /** Runnable at once: its input is queued in this same transaction (and nothing has to run first). */
  runnable = false,
  /** Runnable and run by this process: leased to it at once (`runtime/store/local-take.ts`). */
  lease?: LeaseTo,
): Promise<ThreadRow> {
  const to = TRANSITIONS[withInput ? "createWithInput" : "create"].to;
  // Deferred: nothing of the insert has to be read back (the row is known), so in a transaction it
  // goes out with the next statement or the COMMIT, and in a LazyTransaction it is part of the one
  // statement (thread creation in one round trip: ThreadService.create).
  const runsAtOnce = runnable && withInput;
  const { statement, rows } = threadRowsInsert(
    [{ ...thread, status: to }],
    runsAtOnce,
    runsAtOnce ? lease : undefined,
  );
  await tx.defer(statement.text, statement.params);
  return rows[0]!;
}

/**
 * `createRunning`: a root thread whose first message is stored with it (`thread.messageSeq`; the
 * caller inserts the message in the same transaction), its run started and leased to this process,
 * which starts its first step from the row at once (`runtime/store/local-take.ts`). Deferred, like
 * `createThread`. In a one-statement commit the insert returns the row's version for that step
 * (`LazyTransaction.commit` with `returnedInsteadOfAfter`, then `threadForStepAfterUpdate` with the
 * row returned here): its input is consumed already, none waits.
 */
export async function createRunningThread(
  tx: SqlExecutor,
  thread: NewThread & { messageSeq: number },
  lease: LeaseTo,
): Promise<ThreadRow> {
  const { statement, rows } = threadRowsInsert(
    [{ ...thread, status: TRANSITIONS.createRunning.to }],
    true,
    lease,
  );
  await tx.defer(statement.text, statement.params, {
    text: `${statement.text} RETURNING ${VERSION_COLUMNS_NO_INPUT}`,
    params: statement.params,
    returnsRows: true,
    describes: rows[0],
  });
  return rows[0]!;
}

/**
 * `spawn`: new subagent children, runnable at once, in one statement; the first `lease.count` of
 * them leased to this process (taken at once, `runtime/store/local-take.ts`). Each comes back as its
 * first step needs it: its row, its version, no input waiting (a child's first message is stored
 * with it, not queued).
 */
export function spawnThreads(
  tx: SqlExecutor,
  threads: readonly NewThread[],
  lease?: LeaseTo & { count: number },
): Promise<ThreadForStep[]> {
  const to = TRANSITIONS.spawn.to;
  return insertThreadRows(
    tx,
    threads.map((thread) => ({ ...thread, status: to })),
    true,
    lease,
  );
}

/**
 * A fork's copies of subagent threads (ThreadForkService.fork): each keeps the status its source had,
 * which must be a settled one (idle, a session's end, or terminated), never runnable, so no scheduler
 * picks a copy up until input is queued for it like for any settled thread. Not a row of TRANSITIONS:
 * it changes no status, it copies one.
 */
export function copyThreads(tx: SqlExecutor, threads: readonly ThreadCopy[]): Promise<ThreadRow[]> {
  for (const thread of threads) {
    if (!isCopyableStatus(thread.status))
      throw new Error(`Thread copy ${thread.id}: a ${thread.status} thread cannot be copied.`);
  }
  return insertThreadCopyRows(tx, threads);
}

/** Whether a fork may copy a thread in this status: nothing of its run is under way. */
export function isCopyableStatus(status: ThreadStatus): boolean {
  return status === "idle" || isSessionEnded(status) || isTerminated(status);
}

/** The status `parkThread` ends a run with. */
export function parkStatus(name: ParkTransition): ThreadStatus {
  return TRANSITIONS[name].to;
}

/** TRANSITIONS as the markdown table docs/runtime.md prints. */
export function lifecycleTableMarkdown(): string {
  const lines = ["| Transition | From | To | Called by | Also sets |", "| --- | --- | --- | --- | --- |"];
  for (const [name, transition] of Object.entries(TRANSITIONS)) {
    const from =
      transition.from.length === 0
        ? "— (insert)"
        : transition.from.length === NOT_TERMINATED.length &&
            transition.from.every((status) => !isTerminated(status))
          ? "any but `terminated`"
          : transition.from.map((status) => `\`${status}\``).join(", ");
    lines.push(
      `| \`${name}\` | ${from} | \`${transition.to}\` | ${transition.callers} | ${transition.sets} |`,
    );
  }
  return lines.join("\n");
}

// The scheduling transitions (`runnable` and the lease without a status change) are part of the
// lifecycle; their table and SQL are in thread-scheduling.ts.
export {
  claimOverdueThreads,
  claimRunnableThreads,
  parkUntilInput,
  releaseLease,
  renewLeases,
  repairLostWakeups,
  SCHEDULING_TRANSITIONS,
  wakeParent,
  wakeThread,
} from "./thread-scheduling";
