// The rows of `event_watchers` (migration event_watchers): which process watches which root live, so
// the commits appending a root's events NOTIFY only when somebody watches it. The registry that
// decides when to write them is runtime/events/event-watchers.ts; these are its statements.
import type { SqlExecutor } from "@/lib/db/sql-client";

export interface WatcherRows {
  /** The watching process (one id per EventHub). */
  watcher: string;
  /** How long a row counts without a renewal. */
  ttlSeconds: number;
}

/**
 * Registers `watcher` for `rootId` (or extends its row) under the root's event lock, the lock every
 * commit of the root's events holds while it checks for watchers; held until this statement commits.
 */
export async function registerEventWatcher(
  db: SqlExecutor,
  { rootId, watcher, ttlSeconds }: WatcherRows & { rootId: string },
): Promise<void> {
  await db.query(
    `WITH locked AS MATERIALIZED (
       SELECT pg_advisory_xact_lock(hashtextextended('tandem_events:' || $1::uuid::text, 0)))
     INSERT INTO event_watchers (root_id, watcher, expires_at)
     SELECT $1::uuid, $2, now() + make_interval(secs => $3) FROM locked
     ON CONFLICT (root_id, watcher) DO UPDATE SET expires_at = EXCLUDED.expires_at`,
    [rootId, watcher, ttlSeconds],
  );
}

/** Extends the watcher's rows of `rootIds`; returns the roots whose row was still there. */
export async function renewEventWatchers(
  db: SqlExecutor,
  { rootIds, watcher, ttlSeconds }: WatcherRows & { rootIds: readonly string[] },
): Promise<string[]> {
  const renewed = await db.query<{ root_id: string }>(
    `UPDATE event_watchers SET expires_at = now() + make_interval(secs => $2)
     WHERE watcher = $1 AND root_id = ANY($3::uuid[]) RETURNING root_id`,
    [watcher, ttlSeconds, rootIds],
  );
  return renewed.map((row) => row.root_id);
}

/** Deletes every process's rows past their expiry (a process that died stops counting). */
export async function deleteExpiredEventWatchers(db: SqlExecutor): Promise<void> {
  await db.query("DELETE FROM event_watchers WHERE expires_at < now()");
}

/** Deletes all of the watcher's rows (its process closes its hub). */
export async function deleteWatcherRows(db: SqlExecutor, watcher: string): Promise<void> {
  await db.query("DELETE FROM event_watchers WHERE watcher = $1", [watcher]);
}

/** Deletes the watcher's row of one root (its last stream ended). */
export async function unregisterEventWatcher(
  db: SqlExecutor,
  { rootId, watcher }: { rootId: string; watcher: string },
): Promise<void> {
  await db.query("DELETE FROM event_watchers WHERE root_id = $1 AND watcher = $2", [rootId, watcher]);
}
