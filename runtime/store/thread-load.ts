// How much work waits for a scheduler and how much runs, across every process on this database, as the
// scheduler's claim sees it (runnable, not terminated; a lease that has expired counts as waiting: the
// next claim takes it over). Read by the load service (GET /api/health, the studio's status line).
import type { SqlExecutor } from "@/lib/db/sql-client";

export interface ThreadLoadRow {
  waiting: number;
  /** When the longest-waiting thread began waiting, µs; null when none waits. */
  oldestQueuedSince: number | null;
  running: number;
  /** The database's clock now, µs (the wait is measured against it). */
  nowUs: number;
}

const LOAD_SQL = `SELECT
    count(*) FILTER (WHERE lease_expires_at IS NULL OR lease_expires_at < now())::int AS waiting,
    min(queued_since) FILTER (WHERE lease_expires_at IS NULL OR lease_expires_at < now()) AS oldest_queued_since,
    count(*) FILTER (WHERE lease_expires_at >= now())::int AS running,
    (extract(epoch FROM clock_timestamp()) * 1000000)::bigint AS now_us
  FROM threads WHERE runnable AND terminated_at IS NULL`;

/** Waiting and running threads now (one statement). */
export async function readThreadLoad(db: SqlExecutor): Promise<ThreadLoadRow> {
  const [row] = await db.query<Record<string, unknown>>(LOAD_SQL);
  const oldest = row?.oldest_queued_since;
  return {
    waiting: Number(row?.waiting ?? 0),
    oldestQueuedSince: oldest === null || oldest === undefined ? null : Number(oldest),
    running: Number(row?.running ?? 0),
    nowUs: Number(row?.now_us ?? Date.now() * 1000),
  };
}
