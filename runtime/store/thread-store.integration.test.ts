// Row versions for speculative commits (threadVersionCheck) and event ids in commit order, on each
// backend: PGlite always, the Postgres server too when DATABASE_URL names one.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TelemetryPayload } from "@/lib/contracts/events";
import type { Database } from "@/lib/db/database";
import { LazyTransaction } from "@/lib/db/lazy-transaction";
import type { SqlExecutor } from "@/lib/db/sql-client";
import { openTestDatabase, testDatabaseBackends } from "../../test/support/open-database";
import { insertTestProject, insertTestThread } from "../../test/support/thread-rows";
import { appendEvents, EVENT_ID_STRIDE, type NewEvent, readEventsAfter } from "./event-log";
import { consumeInboxItems, insertInboxItemUnlessTerminated } from "./inbox";
import type { ThreadRow } from "./thread-row";
import {
  findThreadForStep,
  isStaleThreadError,
  lockThread,
  threadForStepAfterUpdate,
  threadVersionCheck,
  updateLockedThread,
  WORK_CHANNEL,
} from "./thread-store";

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

/**
 * A telemetry event of `root` carrying the marker `n` (an opaque payload: the log stores data as
 * given, and these tests only read the markers back).
 */
function rootEvent(root: string, n: string | number): NewEvent {
  return { rootId: root, threadId: root, type: "telemetry", data: { n } as unknown as TelemetryPayload };
}

describe.each(testDatabaseBackends())("thread rows and events on %s", (backend) => {
  let database: Database;

  beforeAll(async () => {
    database = await openTestDatabase(backend);
  });
  afterAll(async () => {
    await database?.close();
  });

  /** The data of a root's events, in id order, as the event stream reads them. */
  async function eventData(root: string): Promise<{ n: unknown }[]> {
    const { events } = await readEventsAfter(database.sql, root, 0);
    return events.map((event) => event.data as { n: unknown });
  }

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
        await appendEvents(tx, [rootEvent(id, 1)]);
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
    expect(await eventData(id)).toEqual([]);
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

  /** A report-like input for `thread` (queued without waking it). */
  async function queueInput(thread: string, content: string): Promise<void> {
    const payload = {
      role: "user" as const,
      content,
      attachments: [],
      silent: false,
      metadata: {},
      fromHuman: false,
      messageId: randomUUID(),
    };
    await insertInboxItemUnlessTerminated(database.sql, thread, payload, `input:${randomUUID()}`);
  }

  it("reads the waiting input with the row, oldest first, and consumes it by id in one statement", async () => {
    const id = await newThread();
    expect((await findThreadForStep(database.sql, id))?.pendingInput).toEqual([]);
    await queueInput(id, "first");
    await queueInput(id, "second");
    const read = await findThreadForStep(database.sql, id);
    expect(read?.hasInput).toBe(true);
    expect(read?.pendingInput?.map((item) => item.payload.content)).toEqual(["first", "second"]);
    await queueInput(id, "third"); // after the read: not consumed with the others
    const lazy = new LazyTransaction(database.sql, [threadVersionCheck(id, read!.version)]);
    await consumeInboxItems(lazy, read!.pendingInput!);
    await lazy.commit();
    expect(lazy.began).toBe(false);
    const after = await findThreadForStep(database.sql, id);
    expect(after?.pendingInput?.map((item) => item.payload.content)).toEqual(["third"]);
  });

  it("refuses to consume input twice: the commit fails as stale and consumes nothing", async () => {
    const id = await newThread();
    await queueInput(id, "once");
    await queueInput(id, "also");
    const read = await findThreadForStep(database.sql, id);
    const [first] = read!.pendingInput!;
    await database.sql.query("UPDATE inbox_items SET consumed_at = 1 WHERE id = $1", [first!.id]);
    const lazy = new LazyTransaction(database.sql, [threadVersionCheck(id, read!.version)]);
    await consumeInboxItems(lazy, read!.pendingInput!);
    const failure = await lazy.commit().then(
      () => null,
      (error: unknown) => error,
    );
    expect(isStaleThreadError(failure), String(failure)).toBe(true);
    const after = await findThreadForStep(database.sql, id);
    expect(after?.pendingInput?.map((item) => item.payload.content)).toEqual(["also"]);
  });

  it("parks a thread in one statement and wakes the schedulers only when input waits", async () => {
    const woken: string[] = [];
    const stopListening = await database.notifications.listen(WORK_CHANNEL, (threadId) =>
      woken.push(threadId),
    );
    try {
      const park = async (id: string) => {
        const read = await findThreadForStep(database.sql, id);
        const lazy = new LazyTransaction(database.sql, [threadVersionCheck(id, read!.version)]);
        await updateLockedThread(lazy, read!.row, {
          runnable: "if_input",
          releaseLease: true,
        });
        const committed = await lazy.commit([], { returnedInsteadOfAfter: true });
        expect(lazy.began).toBe(false);
        const known = committed.returnedFrom?.describes as ThreadRow;
        return threadForStepAfterUpdate(known, committed.returned![0]!);
      };
      const waiting = await newThread();
      const quiet = await newThread();
      await queueInput(waiting, "pending");
      const parkedWaiting = await park(waiting);
      const parkedQuiet = await park(quiet);
      expect(parkedWaiting.row.runnable).toBe(true);
      expect(parkedWaiting.hasInput).toBe(true);
      expect(parkedQuiet.row.runnable).toBe(false);
      const deadline = Date.now() + 5_000;
      while (!woken.includes(waiting) && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 20));
      expect(woken).toContain(waiting);
      expect(woken).not.toContain(quiet);
    } finally {
      await stopListening();
    }
  });

  it("numbers a transaction's events in insertion order, per root, several roots at once", async () => {
    const [left, right] = [randomUUID(), randomUUID()];
    const event = (rootId: string, n: number): NewEvent => rootEvent(rootId, n);
    await database.sql.transaction(async (tx) => {
      await appendEvents(tx, [event(left, 1), event(left, 2)]);
      await appendEvents(tx, [event(right, 1)]);
      await appendEvents(tx, [event(left, 3), event(right, 2)]);
    });
    for (const [root, count] of [
      [left, 3],
      [right, 2],
    ] as const) {
      expect((await eventData(root)).map((data) => data.n)).toEqual(
        Array.from({ length: count }, (_, index) => index + 1),
      );
    }
  });

  it("packs a transaction's events of a root into rows of up to 64, and resumes from any id", async () => {
    const root = randomUUID();
    const count = EVENT_ID_STRIDE * 2 + 5;
    const lazy = new LazyTransaction(database.sql, []);
    await appendEvents(
      lazy,
      Array.from({ length: count }, (_, index) => rootEvent(root, String(index))),
    );
    await lazy.commit();
    const stored = await database.sql.query<{ rows: number }>(
      "SELECT count(*)::int AS rows FROM events WHERE root_id = $1",
      [root],
    );
    expect(Number(stored[0]?.rows)).toBe(3);
    const { events: all, complete } = await readEventsAfter(database.sql, root, 0);
    expect(complete).toBe(true);
    expect(all.map((event) => (event.data as { n: string }).n)).toEqual(
      Array.from({ length: count }, (_, index) => String(index)),
    );
    const ids = all.map((event) => event.id);
    expect(ids.every((id, index) => index === 0 || id > ids[index - 1]!)).toBe(true);
    // Resuming after any id (inside a row, at a row's end) gives exactly the rest.
    for (const cut of [0, 1, EVENT_ID_STRIDE - 1, EVENT_ID_STRIDE, count - 2]) {
      const { events } = await readEventsAfter(database.sql, root, ids[cut]!);
      expect(events.map((event) => event.id)).toEqual(ids.slice(cut + 1));
    }
    // A page of rows: not complete until the last row was read.
    const firstPage = await readEventsAfter(database.sql, root, 0, 2);
    expect(firstPage.complete).toBe(false);
    expect(firstPage.events).toHaveLength(EVENT_ID_STRIDE * 2);
  });

  it("numbers the events of a one-statement transaction in insertion order, per root", async () => {
    const [left, right] = [randomUUID(), randomUUID()];
    const lazy = new LazyTransaction(database.sql, []);
    await appendEvents(lazy, [
      rootEvent(right, 1),
      rootEvent(left, 1),
      rootEvent(left, 2),
      rootEvent(right, 2),
    ]);
    await lazy.commit();
    expect(lazy.began).toBe(false);
    for (const root of [left, right]) {
      expect((await eventData(root)).map((data) => data.n)).toEqual([1, 2]);
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
      expect((await eventData(root)).map((data) => data.n)).toEqual(["holder", "combined-1", "combined-2"]);
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
      expect((await eventData(root)).map((data) => data.n)).toEqual([
        "late-1",
        "late-2",
        "early-1",
        "early-2",
      ]);
    });
});
