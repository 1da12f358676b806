// Builders for the events that describe a thread's state, appended in the same transaction as the
// state they describe (API.md Events); their payloads are the wire contracts of lib/contracts/.

import type { TelemetryData } from "@/lib/contracts/events";
import type { ModelTelemetry } from "../models/types";
import type { NewEvent } from "./event-log";
import { toMessageView } from "./message-store";
import type { StoredMessage } from "./messages";
import { nowMicroseconds, type ThreadRow, threadViewSql, toThreadView } from "./thread-row";

export function messageEvent(row: ThreadRow, message: StoredMessage): NewEvent {
  const { type, data } = messageEventBatchItem(row.id, message);
  return { rootId: row.root_id, threadId: row.id, type, data };
}

export function threadEvent(row: ThreadRow): NewEvent {
  return { rootId: row.root_id, threadId: row.id, type: "thread", data: toThreadView(row) };
}

/**
 * `threadEvent` of the thread columns under `alias`, as the batch `appendEvents` stores for it: for a
 * statement that appends the event of the change it makes (`queueInputAndWake`).
 */
export function threadEventBatchSql(alias: string): string {
  return `json_build_array(${threadEventSql(alias)})`;
}

/** One `threadEvent` of the thread columns under `alias`, as an element of a stored batch. */
export function threadEventSql(alias: string): string {
  return `json_build_object('thread_id', ${alias}.id, 'type', 'thread', 'data', ${threadViewSql(alias)})`;
}

/** `messageEvent` as an element of a stored batch (`appendEvents`), for a statement that builds its batch. */
export function messageEventBatchItem(threadId: string, message: StoredMessage) {
  return {
    thread_id: threadId,
    type: "message" as const,
    data: { thread_id: threadId, message: toMessageView(message) },
  };
}

export function telemetryEvent(row: Pick<ThreadRow, "id" | "root_id">, data: TelemetryData): NewEvent {
  return {
    rootId: row.root_id,
    threadId: row.id,
    type: "telemetry",
    data: { thread_id: row.id, ...data, timestamp: nowMicroseconds() },
  };
}

export function telemetryEvents(row: ThreadRow, events: ModelTelemetry[]): NewEvent[] {
  return events.map((event) => telemetryEvent(row, { ...event }));
}
