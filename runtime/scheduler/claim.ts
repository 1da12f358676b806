// The claim: the one statement by which a scheduler takes runnable threads nobody holds, with a
// lease (`FOR NO KEY UPDATE SKIP LOCKED`, so any number of processes can share one database).
import type { SqlExecutor } from "@/lib/db/sql-client";
import type { StoredMessage } from "../store/messages";
import { THREAD_FOR_STEP_COLUMNS, type ThreadForStep, toThreadForStep } from "../store/thread-store";

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
 * Threads behind an expired lease first (a process died holding them), then those waiting longest
 * for a scheduler. Waiting threads are read in `queued_since` order from its partial index: a
 * trigger sets `queued_since` exactly while a thread is runnable without a lease (migration
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

/** Claims up to `limit` runnable threads nobody holds (none of `exclude`) for `owner`, in one statement. */
export async function claimRunnableThreads(
  db: SqlExecutor,
  claim: { owner: string; leaseMs: number; exclude: readonly string[]; limit: number },
): Promise<Claimed[]> {
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
