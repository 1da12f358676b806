// The replayable event log behind the live views: events are appended in the same transaction as
// the state they describe, numbered by a global sequence, and read back per root thread. A NOTIFY
// (delivered only after commit) wakes SSE streams; it carries the root id, never the data.
import type { SqlExecutor } from "@/lib/db/sql-client";
import { nowMicroseconds } from "../threads/thread-row";

export const EVENTS_CHANNEL = "tandem_events";

export type EventType = "thread" | "message" | "registry" | "telemetry";

export interface NewEvent {
  rootId: string;
  threadId: string;
  type: EventType;
  data: unknown;
}

export interface StoredEvent {
  id: number;
  root_id: string;
  thread_id: string;
  type: EventType;
  data: unknown;
  created_at: number;
}

/**
 * Appends events. Call it last in a transaction (after taking row locks): it takes a per-root
 * advisory lock held until commit, so events of one root commit in id order and a reader that has
 * seen id N can never later miss an id below N.
 */
export async function appendEvents(tx: SqlExecutor, events: NewEvent[]): Promise<void> {
  if (events.length === 0) return;
  const roots = [...new Set(events.map((event) => event.rootId))].sort();
  const createdAt = nowMicroseconds();
  if (roots.length === 1) {
    // One round trip: the lock is taken before the ids are drawn, and held until commit. Fewer
    // round trips under the lock is what lets many threads of one tree commit quickly.
    const values: unknown[] = [roots[0], EVENTS_CHANNEL, createdAt];
    const rows = events.map((event, index) => {
      values.push(event.threadId, event.type, JSON.stringify(event.data));
      const base = 3 + index * 3;
      return `(${index}, $${base + 1}::uuid, $${base + 2}::text, $${base + 3}::text::jsonb)`;
    });
    await tx.query(
      `WITH locked AS (SELECT pg_advisory_xact_lock(hashtextextended('tandem_events:' || $1, 0))),
       inserted AS (
         INSERT INTO events (root_id, thread_id, type, data, created_at)
         SELECT $1::uuid, v.thread_id, v.type, v.data, $3::bigint
         FROM locked, (VALUES ${rows.join(", ")}) AS v(position, thread_id, type, data)
         ORDER BY v.position
         RETURNING 1)
       SELECT pg_notify($2, $1::text) FROM (SELECT count(*) FROM inserted) AS done`,
      values as never[],
    );
    return;
  }
  for (const root of roots) {
    await tx.query("SELECT pg_advisory_xact_lock(hashtextextended('tandem_events:' || $1, 0))", [root]);
  }
  const values: unknown[] = [];
  const rows = events.map((event, index) => {
    values.push(event.rootId, event.threadId, event.type, JSON.stringify(event.data), createdAt);
    const base = index * 5;
    return `($${base + 1}, $${base + 2}, $${base + 3}, $${base + 4}::text::jsonb, $${base + 5})`;
  });
  await tx.query(
    `INSERT INTO events (root_id, thread_id, type, data, created_at) VALUES ${rows.join(", ")}`,
    values as never[],
  );
  for (const root of roots) await tx.query("SELECT pg_notify($1, $2)", [EVENTS_CHANNEL, root]);
}

export async function readEventsAfter(
  db: SqlExecutor,
  rootId: string,
  afterId: number,
  limit = 500,
): Promise<StoredEvent[]> {
  const rows = await db.query<Record<string, unknown>>(
    "SELECT id, root_id, thread_id, type, data, created_at FROM events WHERE root_id = $1 AND id > $2 ORDER BY id LIMIT $3",
    [rootId, afterId, limit],
  );
  return rows.map((row) => ({
    id: Number(row.id),
    root_id: String(row.root_id),
    thread_id: String(row.thread_id),
    type: row.type as EventType,
    data: typeof row.data === "string" ? JSON.parse(row.data) : row.data,
    created_at: Number(row.created_at),
  }));
}
