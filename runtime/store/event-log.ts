// The replayable event log behind the live views: events are appended in the same transaction as
// the state they describe, numbered by a global sequence, and read back per root thread. A NOTIFY
// (delivered only after commit, sent only for roots with a watcher) wakes SSE streams; it carries
// the root id, never the data.
import type { ApprovalPayload } from "@/lib/contracts/approval";
import type { MessagePayload, RegistryPayload, TelemetryPayload } from "@/lib/contracts/events";
import type { DivergencePayload } from "@/lib/contracts/replay";
import type { ThreadViewWire } from "@/lib/contracts/thread";
import type { SqlExecutor } from "@/lib/db/sql-client";
import { nowMicroseconds } from "./thread-row";

export const EVENTS_CHANNEL = "tandem_events";

export type EventType = "thread" | "message" | "registry" | "telemetry" | "approval" | "divergence";

/** An event to append: its payload typed by the wire contract of its kind (lib/contracts/). */
export type NewEvent = { rootId: string; threadId: string } & (
  | { type: "thread"; data: ThreadViewWire }
  | { type: "message"; data: MessagePayload }
  | { type: "registry"; data: RegistryPayload }
  | { type: "telemetry"; data: TelemetryPayload }
  | { type: "approval"; data: ApprovalPayload }
  | { type: "divergence"; data: DivergencePayload }
);

export interface StoredEvent {
  id: number;
  root_id: string;
  thread_id: string;
  type: EventType;
  data: unknown;
  created_at: number;
}

/**
 * Positions per stored row: an event's id is its row's id × EVENT_ID_STRIDE + its position in the
 * row. One row holds the events one transaction appends for one root (more than this many take
 * several rows), so a step's six events cost one row, and ids still grow strictly in commit order.
 */
export const EVENT_ID_STRIDE = 64;

/**
 * Appends events (one statement). Their rows' final ids are drawn at COMMIT by a deferred trigger
 * under a per-root advisory lock (migration `subagents`), so events of one root commit in id order
 * and a reader that has seen id N can never later miss an id below N, and no lock is held across a
 * round trip to this process. Nobody reads the statement's result: in a transaction it goes out
 * with the next statement or the COMMIT (see SqlExecutor.defer).
 */
export async function appendEvents(tx: SqlExecutor, events: NewEvent[]): Promise<void> {
  if (events.length === 0) return;
  // Per root in a stable order, so a transaction touching several trees takes their locks in that order.
  const byRoot = new Map<string, NewEvent[]>();
  for (const event of events) {
    const list = byRoot.get(event.rootId);
    if (list) list.push(event);
    else byRoot.set(event.rootId, [event]);
  }
  const roots = [...byRoot.keys()].sort();
  const values: unknown[] = [nowMicroseconds()];
  const rows: string[] = [];
  for (const root of roots) {
    const list = byRoot.get(root)!;
    for (let start = 0; start < list.length; start += EVENT_ID_STRIDE) {
      const batch = list
        .slice(start, start + EVENT_ID_STRIDE)
        .map((event) => ({ thread_id: event.threadId, type: event.type, data: event.data }));
      values.push(root, JSON.stringify(batch));
      rows.push(`($${values.length - 1}::uuid, $${values.length}::text::json, $1::bigint)`);
    }
  }
  const valuesList = rows.join(", ");
  const rootList = roots.map((_, index) => `$${values.length + index + 1}::text`);
  // No NOTIFY here: the root's event lock is taken (at commit, or below) and a root somebody
  // watches is NOTIFYed then (migration event_watchers, runtime/events/event-watchers.ts).
  await tx.defer(
    `INSERT INTO events (root_id, batch, created_at) VALUES ${valuesList}`,
    values as never[],
    // As (the rest of) a transaction's one statement: the roots' locks are taken before the rows
    // get their ids, so ids are in commit order already and the commit-time renumbering is skipped
    // (migration events_ordered_in_statement). Held for that one statement only, as at commit.
    {
      text: `WITH ordered AS (SELECT tandem_order_events(ARRAY[${rootList.join(", ")}]) AS taken)
       INSERT INTO events (root_id, batch, created_at)
       SELECT v.root_id, v.batch, v.created_at
       FROM ordered, (VALUES ${valuesList}) AS v(root_id, batch, created_at)`,
      params: [...values, ...roots] as never[],
    },
  );
}

/** The events of a root after event id `afterId`, oldest first, from at most `limit` stored rows. */
export async function readEventsAfter(
  db: SqlExecutor,
  rootId: string,
  afterId: number,
  limit = 500,
): Promise<{ events: StoredEvent[]; complete: boolean }> {
  const rows = await db.query<Record<string, unknown>>(
    "SELECT id, batch, created_at FROM events WHERE root_id = $1 AND id >= $2 ORDER BY id LIMIT $3",
    [rootId, Math.floor(afterId / EVENT_ID_STRIDE), limit],
  );
  const events: StoredEvent[] = [];
  for (const row of rows) {
    const batch = (typeof row.batch === "string" ? JSON.parse(row.batch) : row.batch) as {
      thread_id: string;
      type: EventType;
      data: unknown;
    }[];
    const base = Number(row.id) * EVENT_ID_STRIDE;
    batch.forEach((event, position) => {
      const id = base + position;
      if (id <= afterId) return;
      events.push({
        id,
        root_id: rootId,
        thread_id: event.thread_id,
        type: event.type,
        data: event.data,
        created_at: Number(row.created_at),
      });
    });
  }
  return { events, complete: rows.length < limit };
}

/** The first event batch of a root's log (its creation), as the driver returned it; undefined when none. */
export async function firstEventBatch(db: SqlExecutor, rootId: string): Promise<unknown> {
  const [first] = await db.query<{ batch: unknown }>(
    "SELECT batch FROM events WHERE root_id = $1 ORDER BY id LIMIT 1",
    [rootId],
  );
  return first?.batch;
}
