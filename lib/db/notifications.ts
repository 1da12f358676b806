// One notification interface over Postgres LISTEN/NOTIFY (postgres.js) and PGlite's in-process
// listen. Notifications are wake-up hints only (ids, never data): readers must re-read the tables.
import type { PGlite } from "@electric-sql/pglite";
import type postgres from "postgres";

export type NotificationHandler = (payload: string) => void;
export type Unsubscribe = () => Promise<void>;

export interface NotificationBus {
  listen(channel: string, handler: NotificationHandler): Promise<Unsubscribe>;
  notify(channel: string, payload?: string): Promise<void>;
}

/** Postgres limits NOTIFY payloads to 8000 bytes; we stay far below and say so loudly if not. */
export const MAX_NOTIFY_PAYLOAD_BYTES = 7900;
const CHANNEL_PATTERN = /^[a-z_][a-z0-9_]{0,62}$/;

export class NotificationError extends Error {
  readonly code = "notification_invalid";
}

function assertValid(channel: string, payload: string): void {
  if (!CHANNEL_PATTERN.test(channel)) {
    throw new NotificationError(`Channel "${channel}" must be lower-case snake_case, at most 63 characters.`);
  }
  if (Buffer.byteLength(payload) > MAX_NOTIFY_PAYLOAD_BYTES) {
    throw new NotificationError(
      `Notification payload on "${channel}" is ${Buffer.byteLength(payload)} bytes; send an id, not data.`,
    );
  }
}

export function notificationBusFromPostgres(sql: postgres.Sql): NotificationBus {
  return {
    async listen(channel, handler) {
      assertValid(channel, "");
      const subscription = await sql.listen(channel, (payload) => handler(payload));
      return () => subscription.unlisten();
    },
    async notify(channel, payload = "") {
      assertValid(channel, payload);
      await sql`SELECT pg_notify(${channel}, ${payload})`;
    },
  };
}

export function notificationBusFromPGlite(db: PGlite): NotificationBus {
  return {
    async listen(channel, handler) {
      assertValid(channel, "");
      const unlisten = await db.listen(channel, handler);
      return () => unlisten();
    },
    async notify(channel, payload = "") {
      assertValid(channel, payload);
      await db.query("SELECT pg_notify($1, $2)", [channel, payload]);
    },
  };
}
