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
 * Appends events (one statement). Their final ids are drawn at COMMIT by a deferred trigger under a
 * per-root advisory lock (migration `subagents`), so events of one root commit in id order and a
 * reader that has seen id N can never later miss an id below N, and no lock is held across a round
 * trip to this process. Nobody reads the statement's result: in a transaction it goes out with the
 * next statement or the COMMIT (see SqlExecutor.defer).
 */
export async function appendEvents(tx: SqlExecutor, events: NewEvent[]): Promise<void> {
  if (events.length === 0) return;
  // Sorted by root, so a transaction touching several trees takes their locks in a stable order.
  const ordered = [...events].sort((left, right) =>
    left.rootId < right.rootId ? -1 : left.rootId > right.rootId ? 1 : 0,
  );
  const roots = [...new Set(ordered.map((event) => event.rootId))];
  const values: unknown[] = [EVENTS_CHANNEL, nowMicroseconds()];
  const rows = ordered.map((event, index) => {
    values.push(event.rootId, event.threadId, event.type, JSON.stringify(event.data));
    const base = 2 + index * 4;
    return `($${base + 1}::uuid, $${base + 2}::uuid, $${base + 3}, $${base + 4}::text::json, $2::bigint)`;
  });
  const rootList = roots.map((_, index) => `$${2 + ordered.length * 4 + index + 1}::text`);
  values.push(...roots);
  const valuesList = rows.join(", ");
  const notify = `SELECT pg_notify($1, root) FROM (SELECT count(*) FROM inserted) AS done, unnest(ARRAY[${rootList.join(", ")}]) AS root`;
  await tx.defer(
    `WITH inserted AS (
       INSERT INTO events (root_id, thread_id, type, data, created_at) VALUES ${valuesList} RETURNING 1)
     ${notify}`,
    values as never[],
    // As (the rest of) a transaction's one statement: the roots' locks are taken before the rows
    // get their ids, so ids are in commit order already and the commit-time renumbering is skipped
    // (migration events_ordered_in_statement). Held for that one statement only, as at commit.
    {
      text: `WITH ordered AS (SELECT tandem_order_events(ARRAY[${rootList.join(", ")}]) AS taken),
       inserted AS (
         INSERT INTO events (root_id, thread_id, type, data, created_at)
         SELECT v.root_id, v.thread_id, v.type, v.data, v.created_at
         FROM ordered, (VALUES ${valuesList}) AS v(root_id, thread_id, type, data, created_at) RETURNING 1)
       ${notify}`,
      params: values as never[],
    },
  );
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
