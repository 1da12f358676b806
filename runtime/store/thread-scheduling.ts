// The scheduling half of the thread lifecycle: what a thread's row says beside its status — whether
// it has work (`runnable`) and who runs it (the lease: `lease_owner`, `lease_expires_at`) — changed
// only by the named transitions of SCHEDULING_TRANSITIONS (claim, renew, release, wake, …) or by a
// status transition of thread-lifecycle.ts, which writes them with the status. The only module
// besides thread-lifecycle.ts and its row writer (thread-store.ts) that writes these columns:
// scripts/thread-status-writes.test.ts fails on any other writer. docs/runtime.md prints the table
// (`schedulingTableMarkdown`; a test keeps them equal).

import type { SqlExecutor } from "@/lib/db/sql-client";
import type { StoredMessage } from "./messages";
import {
  notifyWork,
  THREAD_FOR_STEP_COLUMNS,
  type ThreadForStep,
  toThreadForStep,
  WORK_CHANNEL,
} from "./thread-store";

export interface SchedulingTransition {
  /** The rows it applies to (checked in the SQL). */
  from: string;
  /** What it writes. */
  to: string;
  /** The code that applies it (for the docs). */
  callers: string;
}

const TABLE = {
  claim: {
    from: "runnable, no lease (oldest `queued_since` first) or an expired lease; none this process runs",
    to: "leased to the claiming process",
    callers: "Scheduler.claimRunnable (the work loop)",
  },
  claimOverdue: {
    from: "runnable, waiting unleased longer than maxQueuedMs or behind a lease expired that long",
    to: "leased to the claiming process, which fails it (queued time limit)",
    callers: "Scheduler.failOverdueQueued",
  },
  renew: {
    from: "leased to this process, row not locked now",
    to: "lease expiry moved a lease ahead",
    callers: "Scheduler.renewLeases (the heartbeat)",
  },
  release: {
    from: "leased to this process",
    to: "no lease; schedulers notified when runnable",
    callers: "Scheduler.releaseLease (a run's end, a drain)",
  },
  wakeThread: {
    from: "any (row locked by the caller)",
    to: "runnable; schedulers notified",
    callers:
      "enqueue (store/inbox), settleBlocking (subagents/report-to-parent: a blocking call's answer is in), the after_thread_created hook's end (services/thread-service)",
  },
  wakeParent: {
    from: "not runnable or leased; not user-stopped, not terminated",
    to: "runnable; schedulers notified when unleased",
    callers: "wakeParent (subagents/report-to-parent), after a child's report committed",
  },
  repairLostWakeup: {
    from: "not runnable with input waiting longer than the grace; not user-stopped, blocked or terminated",
    to: "runnable",
    callers: "Scheduler.repairLostWakeups (the poll)",
  },
  parkUntilInput: {
    from: "any (row locked by the caller)",
    to: "not runnable: it waits for input before it runs again",
    callers: "the replay gate (engine/step/replay-gate: a replayed thread waits for its source's next input)",
  },
} as const satisfies Record<string, SchedulingTransition>;

export type SchedulingTransitionName = keyof typeof TABLE;

/** Every change of `runnable` or the lease that is not part of a status transition. */
export const SCHEDULING_TRANSITIONS: Readonly<Record<SchedulingTransitionName, SchedulingTransition>> = TABLE;

/** A thread a claim took: its row as its first step needs it. */
export interface Claimed {
  id: string;
  /** When the thread's current run began (µs), null when it has not started yet. */
  runStartedAt: number | null;
  /** The thread as the claim left it (its first step starts from it instead of reading it again). */
  read: ThreadForStep | null;
  /** Stored with the run started, to announce (`TakenThread.announce`; only a thread taken at once). */
  announce?: readonly StoredMessage[];
}

/**
 * `claim`, in one statement (`FOR NO KEY UPDATE SKIP LOCKED`, so any number of processes can share
 * one database). Threads behind an expired lease first (a process died holding them), then those
 * waiting longest for a scheduler. Waiting threads are read in `queued_since` order from its partial
 * index: a trigger sets `queued_since` exactly while a thread is runnable without a lease (migration
 * time_limits), so a claim reads about the rows it takes. Reading every runnable thread and sorting
 * them was most of a claim's cost with thousands waiting (a fan-out). No `IS NULL` condition on the
 * waiting threads: without statistics (a burst of new threads outruns them) Postgres guesses such a
 * condition keeps almost no row, and then prefers reading and sorting the whole table. None is
 * needed: a terminated thread is never runnable (the `terminate` transition).
 */
export const CLAIM_STATEMENT = `WITH expired AS (
     SELECT id FROM threads
     WHERE runnable AND lease_expires_at < now() AND terminated_at IS NULL AND NOT (id = ANY($3::uuid[]))
     ORDER BY lease_expires_at
     LIMIT $4
     FOR NO KEY UPDATE SKIP LOCKED
   ), waiting AS (
     SELECT id FROM threads
     WHERE queued_since IS NOT NULL AND runnable AND NOT (id = ANY($3::uuid[]))
     ORDER BY queued_since
     LIMIT $4
     FOR NO KEY UPDATE SKIP LOCKED
   )
   UPDATE threads SET lease_owner = $1, lease_expires_at = now() + ($2 || ' milliseconds')::interval
   WHERE id IN (SELECT id FROM (SELECT id FROM expired UNION ALL SELECT id FROM waiting) AS claimable LIMIT $4)
   RETURNING run_started_at, ${THREAD_FOR_STEP_COLUMNS}`;

/** A claim: up to `limit` threads for `owner`, none of `exclude` (the threads it runs already). */
export interface ClaimRequest {
  owner: string;
  leaseMs: number;
  exclude: readonly string[];
  limit: number;
}

/** `claim`: up to `limit` runnable threads nobody holds (none of `exclude`) for `owner`. */
export async function claimRunnableThreads(db: SqlExecutor, claim: ClaimRequest): Promise<Claimed[]> {
  const rows = await db.query<Record<string, unknown>>(CLAIM_STATEMENT, [
    claim.owner,
    String(claim.leaseMs),
    [...claim.exclude],
    claim.limit,
  ]);
  return rows.map((row) => ({
    id: String(row.id),
    runStartedAt: row.run_started_at === null ? null : Number(row.run_started_at),
    read: toThreadForStep(row),
  }));
}

/**
 * `claimOverdue`: up to 20 threads that waited runnable and unclaimed (or behind a lease expired)
 * for longer than `maxQueuedMs`, leased to `owner` (which fails them). Their ids.
 */
export async function claimOverdueThreads(
  db: SqlExecutor,
  claim: { owner: string; leaseMs: number; maxQueuedMs: number; exclude: readonly string[] },
): Promise<string[]> {
  const rows = await db.query<{ id: string }>(
    `UPDATE threads SET lease_owner = $1, lease_expires_at = now() + ($2 || ' milliseconds')::interval
     WHERE id IN (
       SELECT id FROM threads
       WHERE runnable AND terminated_at IS NULL
         AND ((lease_owner IS NULL AND queued_since < $3)
           OR (lease_owner IS NOT NULL AND lease_expires_at < now() - ($4 || ' milliseconds')::interval))
         AND NOT (id = ANY($5::uuid[]))
       LIMIT 20
       FOR NO KEY UPDATE SKIP LOCKED
     )
     RETURNING id`,
    [
      claim.owner,
      String(claim.leaseMs),
      (Date.now() - claim.maxQueuedMs) * 1000,
      String(claim.maxQueuedMs),
      [...claim.exclude],
    ],
  );
  return rows.map((row) => row.id);
}

/** One lease `renew` looked at: `renewed` when its expiry moved, false when it was kept (locked now). */
export interface LeaseRenewal {
  id: string;
  renewed: boolean;
}

/**
 * `renew`, in one statement that never waits for a row lock: the leases `owner` holds on `threadIds`
 * whose rows are not locked now are moved `leaseMs` ahead; those locked now are returned as kept
 * (still naming `owner`, renewed next time). A thread missing from the answer is no longer leased
 * to `owner`.
 *
 * A renewal writes a new row version though it changes nothing a step reads, so each renewed row
 * records the version the renewals moved it from (`lease_renewed_from`: the row's version before
 * this renewal, or the one recorded there if the row is still as the previous renewal left it) and
 * the version this renewal leaves (`lease_renewed_in`: this transaction's id, the new row's xmin).
 * `threadVersionCheck` accepts a copy read before the renewals while the row is still that version,
 * so a step commit on its way across a renewal is not failed and made again.
 */
export function renewLeases(
  db: SqlExecutor,
  renewal: { owner: string; leaseMs: number; threadIds: readonly string[] },
): Promise<LeaseRenewal[]> {
  return db.query<LeaseRenewal>(
    `WITH unlocked AS (
       SELECT id FROM threads
       WHERE id = ANY($1::uuid[]) AND lease_owner = $2 FOR NO KEY UPDATE SKIP LOCKED
     ), renewed AS (
       UPDATE threads SET lease_expires_at = now() + ($3 || ' milliseconds')::interval,
         lease_renewed_from = CASE WHEN lease_renewed_in = xmin::text THEN lease_renewed_from ELSE xmin::text END,
         lease_renewed_in = (pg_current_xact_id()::text::bigint % 4294967296)::text
       WHERE id IN (SELECT id FROM unlocked) RETURNING id
     )
     SELECT id, true AS renewed FROM renewed
     UNION ALL
     SELECT id, false FROM threads
      WHERE id = ANY($1::uuid[]) AND lease_owner = $2 AND id NOT IN (SELECT id FROM unlocked)`,
    [[...renewal.threadIds], renewal.owner, String(renewal.leaseMs)],
  );
}

/** `release`: hands the thread back (when `owner` holds it) and, if it is runnable, tells every scheduler. */
export async function releaseLease(
  db: SqlExecutor,
  lease: { threadId: string; owner: string },
): Promise<void> {
  await db.query(
    `WITH released AS (
       UPDATE threads SET lease_owner = NULL, lease_expires_at = NULL
       WHERE id = $1 AND lease_owner = $2 RETURNING id, runnable
     )
     SELECT pg_notify($3, id::text) FROM released WHERE runnable`,
    [lease.threadId, lease.owner, WORK_CHANNEL],
  );
}

/** `wakeThread`: the thread (its row locked by the caller) has work; schedulers are notified. */
export async function wakeThread(tx: SqlExecutor, threadId: string): Promise<void> {
  await tx.query("UPDATE threads SET runnable = true WHERE id = $1", [threadId]);
  await notifyWork(tx, threadId);
}

/** `parkUntilInput`: the thread (its row locked by the caller) waits for input before it runs again. */
export async function parkUntilInput(tx: SqlExecutor, threadId: string): Promise<void> {
  await tx.query("UPDATE threads SET runnable = false WHERE id = $1", [threadId]);
}

/**
 * `wakeParent`, after a child's report committed: makes the parent runnable (not while a user stop
 * parks its input) and wakes schedulers, in one short statement; its row lock lasts only that
 * statement. If the process dies between the commit and this, the scheduler's poll finds the waiting
 * input (`repairLostWakeup`). A parent that is running (leased)
 * is written too, though it is runnable already: its step may be committing a park whose snapshot
 * was taken before the report committed (`runnable = EXISTS (input)` then reads false). The new row
 * version fails that commit's version check, and the locked commit it falls back to sees the report
 * and stays runnable. Without it, the report waited for the poll.
 */
export async function wakeParent(db: SqlExecutor, parentId: string): Promise<void> {
  await db.query(
    `UPDATE threads SET runnable = true
     WHERE id = $1 AND (NOT runnable OR lease_owner IS NOT NULL) AND NOT user_stopped AND terminated_at IS NULL
     RETURNING CASE WHEN lease_owner IS NULL THEN pg_notify($2, $1::text) END`,
    [parentId, WORK_CHANNEL],
  );
}

/**
 * `repairLostWakeup`: makes runnable the threads whose input waited longer than `graceMs` with
 * nobody to wake them (a process died between a commit and its wake-up). How many it repaired.
 */
export async function repairLostWakeups(db: SqlExecutor, graceMs: number): Promise<number> {
  const rows = await db.query<{ id: string }>(
    `UPDATE threads SET runnable = true
     WHERE id IN (SELECT thread_id FROM inbox_items WHERE consumed_at IS NULL AND created_at < $1)
       AND NOT runnable AND NOT user_stopped AND terminated_at IS NULL
       AND COALESCE(execution -> 'blockedOn', 'null'::jsonb) = 'null'::jsonb
     RETURNING id`,
    [(Date.now() - graceMs) * 1000],
  );
  return rows.length;
}

/** SCHEDULING_TRANSITIONS as the markdown table docs/runtime.md prints. */
export function schedulingTableMarkdown(): string {
  const lines = ["| Transition | From | To | Called by |", "| --- | --- | --- | --- |"];
  for (const [name, transition] of Object.entries(SCHEDULING_TRANSITIONS)) {
    lines.push(`| \`${name}\` | ${transition.from} | ${transition.to} | ${transition.callers} |`);
  }
  return lines.join("\n");
}
