// Row versions for speculative commits (threadVersionCheck) and event ids in commit order, on each
// backend: PGlite always, the Postgres server too when DATABASE_URL names one.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@/lib/db/database";
import { LazyTransaction } from "@/lib/db/lazy-transaction";
import type { SqlExecutor } from "@/lib/db/sql-client";
import { openTestDatabase, testDatabaseBackends } from "../../test/open-database";
import { insertTestProject, insertTestThread } from "../../test/thread-rows";
import { appendEvents, type NewEvent } from "../events/event-log";
import { insertInboxItemUnlessTerminated } from "./inbox";
import { findThreadForStep, isStaleThreadError, lockThread, threadVersionCheck } from "./thread-store";

/** The version check as a speculative commit in a transaction sends it: pipelined, not awaited. */
async function deferCheck(tx: SqlExecutor, id: string, version: string): Promise<void> {
  const check = threadVersionCheck(id, version);
  await tx.defer(check.text, check.params);
}

/** A promise and the function that resolves it (to hold a transaction open until a test says so). */
function signal(): { promise: Promise<void>; fire: () => void } {
  let fire: () => void = () => {};
  const promise = new Promise<void>((resolve) => (fire = resolve));
  return { promise, fire };
}

/** A telemetry event of `root` carrying `n`. */
function rootEvent(root: string, n: string): NewEvent {
  return { rootId: root, threadId: root, type: "telemetry", data: { n } };
}

describe.each(testDatabaseBackends())("thread rows and events on %s", (backend) => {
  let database: Database;

  beforeAll(async () => {
    database = await openTestDatabase(backend);
  });
  afterAll(async () => {
    await database?.close();
  });

  const newThread = async () => insertTestThread(database.sql, await insertTestProject(database.sql));

  async function versionOf(id: string): Promise<string> {
    const found = await findThreadForStep(database.sql, id);
    if (!found) throw new Error("no thread");
    return found.version;
  }

  it("keeps a row's version through row locks and changes it with every update", async () => {
    const id = await newThread();
    const before = await versionOf(id);
    await database.sql.transaction(async (tx) => {
      await lockThread(tx, id);
    });
    expect(await versionOf(id)).toBe(before);
    // An update that changes no value still writes a new row version.
    await database.sql.query("UPDATE threads SET updated_at = updated_at WHERE id = $1", [id]);
    expect(await versionOf(id)).not.toBe(before);
  });

  it("commits work pipelined behind a current version, and nothing of it behind a stale one", async () => {
    const id = await newThread();
    const current = await versionOf(id);
    await database.sql.transaction(async (tx) => {
      await deferCheck(tx, id, current);
      await tx.defer("UPDATE threads SET status_text = 'first' WHERE id = $1", [id]);
    });
    const [first] = await database.sql.query<{ status_text: string }>(
      "SELECT status_text FROM threads WHERE id = $1",
      [id],
    );
    expect(first?.status_text).toBe("first");

    // `current` is stale now: the update above wrote a new version.
    const failure = await database.sql
      .transaction(async (tx) => {
        await deferCheck(tx, id, current);
        await tx.defer("UPDATE threads SET status_text = 'second' WHERE id = $1", [id]);
        await appendEvents(tx, [{ rootId: id, threadId: id, type: "telemetry", data: { n: 1 } }]);
      })
      .then(
        () => null,
        (error: unknown) => error,
      );
    expect(isStaleThreadError(failure), String(failure)).toBe(true);
    const [after] = await database.sql.query<{ status_text: string }>(
      "SELECT status_text FROM threads WHERE id = $1",
      [id],
    );
    expect(after?.status_text).toBe("first");
    const events = await database.sql.query("SELECT id FROM events WHERE root_id = $1", [id]);
    expect(events).toEqual([]);
    expect(isStaleThreadError(new Error("something else"))).toBe(false);
  });

  it("queues a report only into a thread that is not terminated, once per key", async () => {
    const live = await newThread();
    const ended = await newThread();
    await database.sql.query("UPDATE threads SET terminated_at = 1 WHERE id = $1", [ended]);
    const report = {
      role: "user" as const,
      content: "done",
      attachments: [],
      silent: true,
      metadata: {},
      fromHuman: false,
      messageId: randomUUID(),
    };
    const key = `report:${randomUUID()}`;
    expect(await insertInboxItemUnlessTerminated(database.sql, live, report, key)).not.toBeNull();
    expect(await insertInboxItemUnlessTerminated(database.sql, live, report, key)).toBeNull();
    expect(await insertInboxItemUnlessTerminated(database.sql, ended, report, `${key}:ended`)).toBeNull();
    const rows = await database.sql.query<{ thread_id: string }>(
      "SELECT thread_id FROM inbox_items WHERE thread_id = ANY($1::uuid[])",
      [[live, ended]],
    );
    expect(rows.map((row) => row.thread_id)).toEqual([live]);
  });

  it("numbers a transaction's events in insertion order, per root, several roots at once", async () => {
    const [left, right] = [randomUUID(), randomUUID()];
    const event = (rootId: string, n: number): NewEvent => ({
      rootId,
      threadId: rootId,
      type: "telemetry",
      data: { n },
    });
    await database.sql.transaction(async (tx) => {
      await appendEvents(tx, [event(left, 1), event(left, 2)]);
      await appendEvents(tx, [event(right, 1)]);
      await appendEvents(tx, [event(left, 3), event(right, 2)]);
    });
    for (const [root, count] of [
      [left, 3],
      [right, 2],
    ] as const) {
      const rows = await database.sql.query<{ id: string; data: { n: number } }>(
        "SELECT id, data FROM events WHERE root_id = $1 ORDER BY id",
        [root],
      );
      expect(rows.map((row) => row.data.n)).toEqual(Array.from({ length: count }, (_, index) => index + 1));
    }
  });

  it("numbers the events of a one-statement transaction in insertion order, per root", async () => {
    const [left, right] = [randomUUID(), randomUUID()];
    const lazy = new LazyTransaction(database.sql, []);
    await appendEvents(lazy, [
      { rootId: right, threadId: right, type: "telemetry", data: { n: 1 } },
      { rootId: left, threadId: left, type: "telemetry", data: { n: 1 } },
      { rootId: left, threadId: left, type: "telemetry", data: { n: 2 } },
      { rootId: right, threadId: right, type: "telemetry", data: { n: 2 } },
    ]);
    await lazy.commit();
    expect(lazy.began).toBe(false);
    for (const root of [left, right]) {
      const rows = await database.sql.query<{ data: { n: number } }>(
        "SELECT data FROM events WHERE root_id = $1 ORDER BY id",
        [root],
      );
      expect(rows.map((row) => row.data.n)).toEqual([1, 2]);
    }
  });

  if (backend === "postgres")
    it("makes a one-statement transaction wait for the root's event lock before its events get ids", async () => {
      const root = randomUUID();
      const holderMayCommit = signal();
      const holderLocked = signal();
      // A transaction holding the root's lock (as a one-statement commit does while it runs).
      const holder = database.sql.transaction(async (tx) => {
        await tx.query("SELECT tandem_order_events(ARRAY[$1::text])", [root]);
        await appendEvents(tx, [rootEvent(root, "holder")]);
        await tx.query("SELECT 1");
        holderLocked.fire();
        await holderMayCommit.promise;
      });
      await holderLocked.promise;
      const lazy = new LazyTransaction(database.sql, []);
      await appendEvents(lazy, [rootEvent(root, "combined-1"), rootEvent(root, "combined-2")]);
      let combinedDone = false;
      const combined = lazy.commit().then(() => {
        combinedDone = true;
      });
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(combinedDone).toBe(false);
      holderMayCommit.fire();
      await holder;
      await combined;
      const rows = await database.sql.query<{ data: { n: string } }>(
        "SELECT data FROM events WHERE root_id = $1 ORDER BY id",
        [root],
      );
      expect(rows.map((row) => row.data.n)).toEqual(["holder", "combined-1", "combined-2"]);
    });

  if (backend === "postgres")
    it("gives a root's events ids in commit order, not in insertion order", async () => {
      const root = randomUUID();
      const earlyMayCommit = signal();
      const earlyInserted = signal();
      // The early transaction inserts first and commits last.
      const early = database.sql.transaction(async (tx) => {
        await appendEvents(tx, [rootEvent(root, "early-1"), rootEvent(root, "early-2")]);
        await tx.query("SELECT 1");
        earlyInserted.fire();
        await earlyMayCommit.promise;
      });
      await earlyInserted.promise;
      await database.sql.transaction(async (tx) => {
        await appendEvents(tx, [rootEvent(root, "late-1"), rootEvent(root, "late-2")]);
      });
      earlyMayCommit.fire();
      await early;
      const rows = await database.sql.query<{ data: { n: string } }>(
        "SELECT data FROM events WHERE root_id = $1 ORDER BY id",
        [root],
      );
      expect(rows.map((row) => row.data.n)).toEqual(["late-1", "late-2", "early-1", "early-2"]);
    });
});
