// Live event NOTIFYs go only to watched roots (migration event_watchers, event-watchers.ts), on each
// backend: a commit of a root's events NOTIFYs while a stream watches the root and not otherwise,
// in both commit forms (a transaction, ordered at COMMIT by the trigger; one statement, ordered by
// tandem_order_events); a registration waits for a commit holding the root's event lock, so the
// stream's first read finds that commit's events; rows that went missing come back with a re-read;
// expired rows of a dead process stop counting and are deleted.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MessagePayload } from "@/lib/contracts/events";
import type { Database } from "@/lib/db/database";
import { LazyTransaction } from "@/lib/db/lazy-transaction";
import { openTestDatabase, testDatabaseBackends } from "../../test/support/open-database";
import { appendEvents, EVENTS_CHANNEL, readEventsAfter } from "../store/event-log";
import { EventHub } from "./event-hub";

const GRACE_MS = 50;

/** A stream's side of a subscription that counts the NOTIFY hints it gets. */
function countingSubscriber() {
  const counted = { available: 0 };
  return {
    counted,
    subscriber: {
      onEventsAvailable: () => {
        counted.available += 1;
      },
      onChunk: () => {},
    },
  };
}

describe.each(testDatabaseBackends())("live event watchers on %s", (backend) => {
  let database: Database;
  let hub: EventHub;
  /** Every root a NOTIFY on the events channel named, in arrival order. */
  const heard: string[] = [];
  let stopListening: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    database = await openTestDatabase(backend);
    hub = new EventHub(database.notifications, database.sql, { releaseGraceMs: GRACE_MS });
    stopListening = await database.notifications.listen(EVENTS_CHANNEL, (root) => heard.push(root));
  });
  afterAll(async () => {
    await hub?.close();
    await stopListening?.();
    await database?.close();
  });

  const event = (root: string, text: string) => ({
    rootId: root,
    threadId: root,
    type: "message" as const,
    // An opaque payload: the log stores data as given, and these tests only count deliveries.
    data: { text } as unknown as MessagePayload,
  });
  /** A transaction of several statements: the root is ordered (and NOTIFYed) by the COMMIT trigger. */
  const appendInTransaction = (root: string, text: string) =>
    database.sql.transaction(async (tx) => {
      await tx.query("SELECT 1");
      await appendEvents(tx, [event(root, text)]);
    });
  /** One statement (the runtime's step commits): ordered and NOTIFYed by tandem_order_events. */
  const appendAsOneStatement = async (root: string, text: string) => {
    const lazy = new LazyTransaction(database.sql, []);
    await appendEvents(lazy, [event(root, text)]);
    await lazy.commit();
    expect(lazy.began).toBe(false);
  };
  /** NOTIFYs arrive in commit order: once `root`'s arrives, every earlier one has too. */
  const heardUpTo = async (root: string, count = 1): Promise<string[]> => {
    const deadline = Date.now() + 5_000;
    while (heard.filter((name) => name === root).length < count && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    return heard.splice(0);
  };
  const watcherRows = async (root: string) =>
    (
      await database.sql.query<{ watcher: string }>("SELECT watcher FROM event_watchers WHERE root_id = $1", [
        root,
      ])
    ).map((row) => row.watcher);

  it("NOTIFYs a root's commits in both forms only while a stream watches it", async () => {
    const unwatched = randomUUID();
    const watched = randomUUID();
    const { counted, subscriber: counting } = countingSubscriber();
    heard.splice(0);
    await appendInTransaction(unwatched, "nobody looks");
    await appendAsOneStatement(unwatched, "nobody looks either");

    const unsubscribe = await hub.subscribe(watched, counting);
    expect(await watcherRows(watched)).toEqual([hub.watchers.watcherId]);
    await appendInTransaction(watched, "seen");
    await appendAsOneStatement(watched, "seen too");
    expect(await heardUpTo(watched, 2)).toEqual([watched, watched]);
    expect(counted.available).toBe(2);
    // Both roots' events are in the log either way.
    expect((await readEventsAfter(database.sql, unwatched, 0)).events.map((e) => e.data)).toEqual([
      { text: "nobody looks" },
      { text: "nobody looks either" },
    ]);

    unsubscribe();
    const deadline = Date.now() + 5_000;
    while ((await watcherRows(watched)).length > 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(await watcherRows(watched)).toEqual([]);
    const barrier = randomUUID();
    const stopBarrier = await hub.subscribe(barrier, countingSubscriber().subscriber);
    await appendAsOneStatement(watched, "no longer watched");
    await appendAsOneStatement(barrier, "barrier");
    expect(await heardUpTo(barrier)).toEqual([barrier]);
    stopBarrier();
  });

  it("keeps a root registered through a reconnect within the grace period", async () => {
    const root = randomUUID();
    const subscriber = countingSubscriber().subscriber;
    const first = await hub.subscribe(root, subscriber);
    first();
    const second = await hub.subscribe(root, subscriber);
    await new Promise((resolve) => setTimeout(resolve, GRACE_MS * 3));
    expect(await watcherRows(root)).toEqual([hub.watchers.watcherId]);
    heard.splice(0);
    await appendAsOneStatement(root, "still watched");
    expect(await heardUpTo(root)).toEqual([root]);
    second();
  });

  it("registers a missing row again and tells the root's streams to re-read", async () => {
    const root = randomUUID();
    const { counted, subscriber: counting } = countingSubscriber();
    const unsubscribe = await hub.subscribe(root, counting);
    await database.sql.query("DELETE FROM event_watchers WHERE root_id = $1", [root]);
    await hub.watchers.renew();
    expect(await watcherRows(root)).toEqual([hub.watchers.watcherId]);
    expect(counted.available).toBe(1);
    heard.splice(0);
    await appendAsOneStatement(root, "after the restore");
    expect(await heardUpTo(root)).toEqual([root]);
    unsubscribe();
  });

  it("ignores the expired rows of a process that died, and a heartbeat deletes them", async () => {
    const root = randomUUID();
    const barrier = randomUUID();
    await database.sql.query(
      "INSERT INTO event_watchers (root_id, watcher, expires_at) VALUES ($1, 'dead process', now() - interval '1 second')",
      [root],
    );
    const stopBarrier = await hub.subscribe(barrier, countingSubscriber().subscriber);
    heard.splice(0);
    await appendInTransaction(root, "its watcher died");
    await appendAsOneStatement(root, "still dead");
    await appendAsOneStatement(barrier, "barrier");
    expect(await heardUpTo(barrier)).toEqual([barrier]);
    await hub.watchers.renew();
    expect(await watcherRows(root)).toEqual([]);
    stopBarrier();
  });

  // Needs two connections: PGlite has one.
  if (backend === "postgres")
    it("a registration waits for a commit that holds the root's event lock, then reads its events", async () => {
      const root = randomUUID();
      let registered = false;
      let subscription: Promise<() => void> | undefined;
      await database.sql.transaction(async (tx) => {
        // What a step commit does first: take the root's event lock (finding no watcher), append.
        await tx.query("SELECT tandem_order_events(ARRAY[$1::text])", [root]);
        await appendEvents(tx, [event(root, "committed while registering")]);
        subscription = hub.subscribe(root, countingSubscriber().subscriber);
        void subscription.then(() => {
          registered = true;
        });
        await new Promise((resolve) => setTimeout(resolve, 300));
        // Had it not waited, a read now would miss the events and no NOTIFY would follow.
        expect(registered).toBe(false);
      });
      const unsubscribe = await subscription!;
      expect((await readEventsAfter(database.sql, root, 0)).events.map((e) => e.data)).toEqual([
        { text: "committed while registering" },
      ]);
      unsubscribe();
    });
});
