// A replayed thread's progress against its source (docs/runtime.md "Replay"), as its steps read it:
// whether it diverged, how many model calls and drains it made, the source's call starts, the
// replay tree's thread pairs, whether children it waits for still work, and the thread's
// divergence recorded once. (The inputs it drains: inbox-reads.ts.)
import type { SqlExecutor } from "@/lib/db/sql-client";

/** A replayed thread's state for its next model call; null when the thread is not a replay. */
export async function replayCallState(
  db: SqlExecutor,
  threadId: string,
  side: string,
): Promise<{ diverged: boolean; made: number } | null> {
  const [state] = await db.query<{ diverged: boolean; made: number }>(
    `SELECT divergence IS NOT NULL AS diverged,
            (SELECT count(*)::int FROM model_calls WHERE thread_id = $1 AND side = $2) AS made
       FROM thread_replays WHERE thread_id = $1`,
    [threadId, side],
  );
  return state ? { diverged: state.diverged, made: Number(state.made) } : null;
}

/** A replayed thread's state for its next drain; null when the thread is not a replay. */
export async function replayDrainState(
  db: SqlExecutor,
  threadId: string,
): Promise<{ diverged: boolean; drains: number; calls: number } | null> {
  const [state] = await db.query<{ diverged: boolean; drains: number; calls: number }>(
    `SELECT divergence IS NOT NULL AS diverged,
            (SELECT count(DISTINCT consumed_at)::int FROM inbox_items WHERE thread_id = $1 AND consumed_at IS NOT NULL) AS drains,
            (SELECT count(*)::int FROM model_calls WHERE thread_id = $1 AND side IN ('a', 'b')) AS calls
       FROM thread_replays WHERE thread_id = $1`,
    [threadId],
  );
  return state ?? null;
}

/** When each model call of the thread's two sides started (microseconds). */
export function modelCallStartsOf(
  db: SqlExecutor,
  threadId: string,
): Promise<{ created_at: string | number }[]> {
  return db.query<{ created_at: string | number }>(
    "SELECT created_at FROM model_calls WHERE thread_id = $1 AND side IN ('a', 'b')",
    [threadId],
  );
}

/** Each replayed thread of the tree and the source thread it follows. */
export function replayPairsOf(
  db: SqlExecutor,
  rootId: string,
): Promise<{ thread_id: string; source_thread_id: string }[]> {
  return db.query<{ thread_id: string; source_thread_id: string }>(
    "SELECT thread_id, source_thread_id FROM thread_replays WHERE root_id = $1",
    [rootId],
  );
}

/** Whether any of the threads still works or will (not terminated; runnable, queued, running or awaiting approval). */
export async function anyThreadWorking(db: SqlExecutor, threadIds: readonly string[]): Promise<boolean> {
  const working = await db.query(
    `SELECT 1 FROM threads WHERE id::text = ANY($1::text[]) AND terminated_at IS NULL
        AND (runnable OR status IN ('queued', 'running', 'waiting_approval')) LIMIT 1`,
    [[...threadIds]],
  );
  return working.length > 0;
}

/** Records the thread's divergence unless one is recorded already; true when this call recorded it. */
export async function recordDivergenceOnce(
  tx: SqlExecutor,
  threadId: string,
  divergence: unknown,
): Promise<boolean> {
  const updated = await tx.query(
    "UPDATE thread_replays SET divergence = $2::text::jsonb WHERE thread_id = $1 AND divergence IS NULL RETURNING thread_id",
    [threadId, JSON.stringify(divergence)],
  );
  return updated.length > 0;
}
