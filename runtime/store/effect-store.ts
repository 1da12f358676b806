// Scheduled effects (spec Effects), table `scheduled_effects`: the row ThreadState.scheduleEffect
// commits, the lease claims of the effect runner (runtime/effects/), the end of each attempt (done,
// a retry with back-off, failed) and cancellation. Times are microseconds on the database's clock
// (`NOW_US`), so processes whose clocks disagree still agree on what is due. Every state change is a
// compare-and-set on the status and, for a running effect, on the lease owner: a process that lost
// its lease (it stalled past it and another process took the effect) records nothing.
import type { EffectStatus } from "@/lib/contracts/effect";
import type { SqlExecutor } from "@/lib/db/sql-client";
import { EFFECT_STATUS } from "./effect-lifecycle";
import { ThreadTerminatedError } from "./queue-input";

/** Committing a new effect NOTIFYs this channel, so every runner looks at its next due time. */
export const EFFECTS_CHANNEL = "tandem_effects";

/** Now in µs on the database's clock (clock_timestamp: not frozen at the transaction's start). */
const NOW_US = "(extract(epoch from clock_timestamp()) * 1000000)::bigint";

export interface EffectRow {
  id: string;
  thread_id: string;
  name: string;
  args: Record<string, unknown>;
  /** Due time, µs. */
  run_at: number;
  status: EffectStatus;
  attempts: number;
  error: string | null;
  created_at: number;
  started_at: number | null;
  finished_at: number | null;
}

const COLUMNS =
  "id, thread_id, name, args, run_at, status, attempts, error, created_at, started_at, finished_at";

function parseArgs(value: unknown): Record<string, unknown> {
  const parsed = typeof value === "string" ? JSON.parse(value) : value;
  return parsed && typeof parsed === "object" && !Array.isArray(parsed)
    ? (parsed as Record<string, unknown>)
    : {};
}

const optionalNumber = (value: unknown) => (value === null || value === undefined ? null : Number(value));

function toEffectRow(row: Record<string, unknown>): EffectRow {
  return {
    id: String(row.id),
    thread_id: String(row.thread_id),
    name: String(row.name),
    args: parseArgs(row.args),
    run_at: Number(row.run_at),
    status: String(row.status) as EffectStatus,
    attempts: Number(row.attempts),
    error: row.error === null || row.error === undefined ? null : String(row.error),
    created_at: Number(row.created_at),
    started_at: optionalNumber(row.started_at),
    finished_at: optionalNumber(row.finished_at),
  };
}

/**
 * Commits a new effect of a live thread, due in `delayMs`, and NOTIFYs the runners in the same
 * statement. Throws ThreadTerminatedError for a terminated thread, an Error for a missing one.
 */
export async function insertEffect(
  db: SqlExecutor,
  effect: { id: string; threadId: string; name: string; args: Record<string, unknown>; delayMs: number },
): Promise<void> {
  const rows = await db.query<{ terminated_at: unknown; inserted: unknown }>(
    `WITH thread AS (SELECT id, terminated_at, ${NOW_US} AS now_us FROM threads WHERE id = $2),
     inserted AS (
       INSERT INTO scheduled_effects (id, thread_id, name, args, run_at, created_at)
       SELECT $1, id, $3, $4::text::jsonb, now_us + $5::bigint * 1000, now_us
       FROM thread WHERE terminated_at IS NULL
       RETURNING id
     )
     SELECT thread.terminated_at, (SELECT pg_notify($6, id::text) FROM inserted) AS inserted FROM thread`,
    [effect.id, effect.threadId, effect.name, JSON.stringify(effect.args), effect.delayMs, EFFECTS_CHANNEL],
  );
  const thread = rows[0];
  if (!thread) throw new Error(`Thread ${effect.threadId} no longer exists`);
  if (thread.terminated_at !== null)
    throw new ThreadTerminatedError(effect.threadId, Number(thread.terminated_at));
}

/** A thread's effects, soonest first; `pending` keeps only those not finished (scheduled, running). */
export async function listEffects(
  db: SqlExecutor,
  threadId: string,
  options: { name?: string; pending?: boolean } = {},
): Promise<EffectRow[]> {
  const rows = await db.query(
    `SELECT ${COLUMNS} FROM scheduled_effects
     WHERE thread_id = $1 AND ($2::text IS NULL OR name = $2)
       AND (NOT $3::boolean OR status IN ('scheduled', 'running'))
     ORDER BY run_at, created_at, id`,
    [threadId, options.name ?? null, options.pending ?? false],
  );
  return rows.map(toEffectRow);
}

export async function findEffect(db: SqlExecutor, threadId: string, id: string): Promise<EffectRow | null> {
  const rows = await db.query(`SELECT ${COLUMNS} FROM scheduled_effects WHERE thread_id = $1 AND id = $2`, [
    threadId,
    id,
  ]);
  return rows[0] ? toEffectRow(rows[0]) : null;
}

/**
 * Cancels an effect that has not started (a retry waiting counts as not started: it is not running).
 * A claim holds the row lock while it starts the effect, so a cancel either wins (the effect never
 * runs) or sees it started.
 */
export async function cancelEffect(
  db: SqlExecutor,
  threadId: string,
  id: string,
): Promise<"cancelled" | "started" | "not_found"> {
  const rows = await db.query<{ cancelled: boolean }>(
    `WITH cancelled AS (
       UPDATE scheduled_effects SET status = '${EFFECT_STATUS.target("cancel", "cancelled")}', finished_at = ${NOW_US},
         lease_owner = NULL, lease_expires_at = NULL
       WHERE thread_id = $1 AND id = $2 AND ${EFFECT_STATUS.fromSql("cancel")}
       RETURNING id
     )
     SELECT EXISTS (SELECT 1 FROM cancelled) AS cancelled
     FROM scheduled_effects WHERE thread_id = $1 AND id = $2`,
    [threadId, id],
  );
  if (!rows[0]) return "not_found";
  return rows[0].cancelled ? "cancelled" : "started";
}

/** An effect a runner took, with its lease. `attempts` counts this run. */
export type ClaimedEffect = EffectRow & { status: "running"; started_at: number };

/**
 * Takes up to `limit` effects that are due (scheduled, run_at passed) or were abandoned (running,
 * lease expired: the process running them died), soonest first, skipping rows another runner is
 * claiming, and starts them under this owner's lease in one statement.
 */
export async function claimDueEffects(
  db: SqlExecutor,
  owner: string,
  leaseMs: number,
  limit: number,
): Promise<ClaimedEffect[]> {
  const rows = await db.query(
    `UPDATE scheduled_effects SET status = '${EFFECT_STATUS.target("claim", "running")}', attempts = attempts + 1, lease_owner = $1,
       lease_expires_at = now() + ($2 || ' milliseconds')::interval, started_at = ${NOW_US}
     WHERE id IN (
       SELECT id FROM scheduled_effects
       WHERE (status = 'scheduled' AND run_at <= ${NOW_US})
          OR (status = 'running' AND lease_expires_at < now())
       ORDER BY run_at
       LIMIT $3
       FOR UPDATE SKIP LOCKED
     )
     RETURNING ${COLUMNS}`,
    [owner, String(leaseMs), limit],
  );
  return rows.map((row) => toEffectRow(row) as ClaimedEffect);
}

/**
 * Milliseconds until the next effect falls due or the next lease of a running effect expires (0 when
 * one is due now), or null when nothing waits: the runner sets its timer to it.
 */
export async function msUntilNextEffect(db: SqlExecutor): Promise<number | null> {
  const rows = await db.query<{ wait_us: unknown }>(
    `SELECT LEAST(
       (SELECT min(run_at) FROM scheduled_effects WHERE status = 'scheduled') - ${NOW_US},
       (SELECT ((extract(epoch from min(lease_expires_at)) * 1000000)::bigint) - ${NOW_US}
        FROM scheduled_effects WHERE status = 'running')
     ) AS wait_us`,
  );
  const wait = rows[0]?.wait_us;
  if (wait === null || wait === undefined) return null;
  return Math.max(0, Math.ceil(Number(wait) / 1000));
}

/** Renews the leases of this owner's running effects; answers the ids still held. */
export async function renewEffectLeases(
  db: SqlExecutor,
  ids: readonly string[],
  owner: string,
  leaseMs: number,
): Promise<Set<string>> {
  const rows = await db.query<{ id: string }>(
    `UPDATE scheduled_effects SET lease_expires_at = now() + ($3 || ' milliseconds')::interval
     WHERE id = ANY($1::uuid[]) AND lease_owner = $2 AND status = 'running' RETURNING id`,
    [ids, owner, String(leaseMs)],
  );
  return new Set(rows.map((row) => String(row.id)));
}

/**
 * Ends this owner's run of an effect: `done`, `failed` with the error, or back to `scheduled` after
 * `retryInMs` with the error kept. False when the lease was lost (nothing is written then).
 */
export async function endEffectRun(
  db: SqlExecutor,
  id: string,
  owner: string,
  outcome: { status: "done" } | { status: "failed"; error: string } | { retryInMs: number; error: string },
): Promise<boolean> {
  const rows =
    "retryInMs" in outcome
      ? await db.query(
          `UPDATE scheduled_effects SET status = '${EFFECT_STATUS.target("retry", "scheduled")}', error = $3,
             run_at = ${NOW_US} + $4::bigint * 1000, lease_owner = NULL, lease_expires_at = NULL
           WHERE id = $1 AND lease_owner = $2 AND ${EFFECT_STATUS.fromSql("retry")} RETURNING id`,
          [id, owner, outcome.error, Math.round(outcome.retryInMs)],
        )
      : await db.query(
          `UPDATE scheduled_effects SET status = $3, error = $4, finished_at = ${NOW_US},
             lease_owner = NULL, lease_expires_at = NULL
           WHERE id = $1 AND lease_owner = $2 AND ${EFFECT_STATUS.fromSql("finish")} RETURNING id`,
          [
            id,
            owner,
            EFFECT_STATUS.target("finish", outcome.status),
            outcome.status === "failed" ? outcome.error : null,
          ],
        );
  return rows.length > 0;
}

/** Cancels a claimed effect whose thread was terminated before it ran (it never runs). */
export async function cancelClaimedEffect(
  db: SqlExecutor,
  id: string,
  owner: string,
  reason: string,
): Promise<boolean> {
  const rows = await db.query(
    `UPDATE scheduled_effects SET status = '${EFFECT_STATUS.target("cancelClaimed", "cancelled")}', error = $3,
       finished_at = ${NOW_US}, lease_owner = NULL, lease_expires_at = NULL
     WHERE id = $1 AND lease_owner = $2 AND ${EFFECT_STATUS.fromSql("cancelClaimed")} RETURNING id`,
    [id, owner, reason],
  );
  return rows.length > 0;
}

/**
 * Hands this process's running effects back at shutdown: scheduled again, due as they were, their
 * interrupted attempt not counted, and every runner told (one statement; a NOTIFY per effect).
 */
export async function handBackRunningEffects(
  db: SqlExecutor,
  { ids, owner }: { ids: readonly string[]; owner: string },
): Promise<void> {
  await db.query(
    `WITH handed AS (
       UPDATE scheduled_effects SET status = 'scheduled', attempts = GREATEST(attempts - 1, 0),
         lease_owner = NULL, lease_expires_at = NULL
       WHERE id = ANY($1::uuid[]) AND lease_owner = $2 AND status = 'running' RETURNING id
     )
     SELECT pg_notify($3, id::text) FROM handed`,
    [ids, owner, EFFECTS_CHANNEL],
  );
}
