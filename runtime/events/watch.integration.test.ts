// The shared live feed (watch.ts) on a real database and EventHub, in process so the bytes can be
// compared: many viewers of a tree each get every event once and in order, from the same encoded
// bytes (one encoding per event, one subscription per tree); viewers that join late — inside the
// buffer or behind it — or resume at an id get exactly the rest; a stream nobody reads is closed
// past its high-water mark while the others carry on.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MessagePayload } from "@/lib/contracts/events";
import type { Database } from "@/lib/db/database";
import { openTestDatabase, testDatabaseBackends } from "../../test/support/open-database";
import { appendEvents, readEventsAfter } from "../store/event-log";
import { EventHub } from "./event-hub";
import { LiveWatch, WATCH_DEFAULTS, type WatchSettings } from "./watch";

const decoder = new TextDecoder();

/** Reads a stream to the end, keeping every chunk (by identity) and the ids of its frames. */
function reader(stream: ReadableStream<Uint8Array>) {
  const chunks: Uint8Array[] = [];
  const ids: number[] = [];
  /** The token chunks' text, in order (message_chunk frames). */
  const chunkText: string[] = [];
  let text = "";
  const waiters = new Set<() => void>();
  const done = (async () => {
    const read = stream.getReader();
    for (;;) {
      const { value, done: finished } = await read.read();
      if (finished) return;
      chunks.push(value);
      text += decoder.decode(value, { stream: true });
      let boundary = text.indexOf("\n\n");
      while (boundary !== -1) {
        const match = /^id: (\d+)$/m.exec(text.slice(0, boundary));
        if (match) ids.push(Number(match[1]));
        const chunk = /^event: message_chunk\ndata: (.*)$/m.exec(text.slice(0, boundary));
        if (chunk) chunkText.push((JSON.parse(chunk[1] as string) as { chunk: string }).chunk);
        text = text.slice(boundary + 2);
        boundary = text.indexOf("\n\n");
      }
      for (const wake of waiters) wake();
    }
  })();
  // A stream closed by the server with an error ends the read loop; the tests look at `ids`.
  done.catch(() => {});
  return {
    chunks,
    ids,
    chunkText,
    done,
    async until(count: number, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (ids.length < count) {
        if (Date.now() > deadline) throw new Error(`saw ${ids.length} of ${count} events`);
        await new Promise<void>((resolve) => {
          waiters.add(resolve);
          setTimeout(resolve, 50);
        });
      }
    },
  };
}

describe.each(testDatabaseBackends())("the shared live feed on %s", (backend) => {
  let database: Database;
  let hub: EventHub;
  const watches: LiveWatch[] = [];
  const watchWith = (settings: Partial<WatchSettings> = {}) => {
    const watch = new LiveWatch({
      hub,
      db: database.sql,
      settings: () => ({ ...WATCH_DEFAULTS, ...settings }),
    });
    watches.push(watch);
    return watch;
  };

  beforeAll(async () => {
    database = await openTestDatabase(backend);
    hub = new EventHub(database.notifications, database.sql, { releaseGraceMs: 50 });
  });
  afterAll(async () => {
    for (const watch of watches) watch.close();
    await hub?.close();
    await database?.close();
  });

  /** `count` events of the root in one commit, each with a payload of `size` characters. */
  const append = (root: string, count: number, size = 10) =>
    appendEvents(
      database.sql,
      Array.from({ length: count }, (_, index) => ({
        rootId: root,
        threadId: root,
        type: "message" as const,
        data: { text: `${index}:${"x".repeat(size)}` } as unknown as MessagePayload,
      })),
    );
  const loggedIds = async (root: string) =>
    (await readEventsAfter(database.sql, root, 0, 100_000)).events.map((event) => event.id);

  it("sends every viewer every event once, in order, from one encoding and one subscription", async () => {
    const root = randomUUID();
    const watch = watchWith();
    await append(root, 3);
    const viewers = await Promise.all(
      Array.from({ length: 20 }, () => watch.open({ rootId: root, threadId: root, after: 0 })).map(
        async (opened) => reader(await opened),
      ),
    );
    expect(watch.stats().trees).toBe(1);
    for (let commit = 0; commit < 10; commit += 1) await append(root, 7);
    const expected = await loggedIds(root);
    expect(expected).toHaveLength(73);
    await Promise.all(viewers.map((viewer) => viewer.until(expected.length)));
    for (const viewer of viewers) expect(viewer.ids).toEqual(expected);
    // The live pages were written as the very same bytes to every viewer.
    const first = viewers[0]?.chunks ?? [];
    const shared = first.filter((chunk) => viewers.every((viewer) => viewer.chunks.includes(chunk)));
    expect(shared.length).toBeGreaterThanOrEqual(2);
    // One watcher row for the tree, however many viewers.
    const rows = await database.sql.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM event_watchers WHERE root_id = $1",
      [root],
    );
    expect(rows[0]?.n).toBe(1);
    watch.close();
    expect(watch.stats()).toEqual({ trees: 0, streams: 0, bufferedFrames: 0 });
  });

  it("serves a late viewer from the buffer or, behind it, from the log, then live: no gap, nothing twice", async () => {
    const root = randomUUID();
    const watch = watchWith({ buffer: { frames: 10, bytes: 1 << 20 } });
    const first = reader(await watch.open({ rootId: root, threadId: root, after: 0 }));
    await append(root, 25);
    await first.until(25);
    const ids = first.ids.slice();
    // Inside the buffer (the last 10 frames), behind it, and from the start.
    const inside = reader(await watch.open({ rootId: root, threadId: root, after: ids[20] as number }));
    const behind = reader(await watch.open({ rootId: root, threadId: root, after: ids[3] as number }));
    const fromStart = reader(await watch.open({ rootId: root, threadId: root, after: 0 }));
    // Commits while they catch up, and after.
    await append(root, 30);
    await append(root, 5);
    const expected = await loggedIds(root);
    await first.until(expected.length);
    await inside.until(expected.filter((id) => id > (ids[20] as number)).length);
    await behind.until(expected.filter((id) => id > (ids[3] as number)).length);
    await fromStart.until(expected.length);
    expect(first.ids).toEqual(expected);
    expect(inside.ids).toEqual(expected.filter((id) => id > (ids[20] as number)));
    expect(behind.ids).toEqual(expected.filter((id) => id > (ids[3] as number)));
    expect(fromStart.ids).toEqual(expected);
    watch.close();
  });

  it("closes a stream whose reader stopped past the high-water mark; the others get everything", async () => {
    const root = randomUUID();
    // A short keep-alive: the write past the mark that closes the stalled stream comes soon.
    const watch = watchWith({ highWaterBytes: 8_192, keepAliveMs: 200 });
    const reading = reader(await watch.open({ rootId: root, threadId: root, after: 0 }));
    const stalled = await watch.open({ rootId: root, threadId: root, after: 0 });
    const stalledReader = stalled.getReader();
    const closed = stalledReader.closed.then(
      () => "closed",
      (error: Error) => error.message,
    );
    for (let commit = 0; commit < 10; commit += 1) await append(root, 5, 400);
    expect(await closed).toMatch(/did not read 8192 queued bytes/);
    expect(watch.stats().streams).toBe(1);
    const expected = await loggedIds(root);
    await reading.until(expected.length);
    expect(reading.ids).toEqual(expected);
    // Reconnecting after the last id it could have seen loses nothing.
    const resumed = reader(await watch.open({ rootId: root, threadId: root, after: 0 }));
    await resumed.until(expected.length);
    expect(resumed.ids).toEqual(expected);
    watch.close();
  });

  it("writes a burst of commits to each viewer in fewer writes than commits (coalesced), the same bytes to all", async () => {
    const root = randomUUID();
    const writesWithEvents = (viewer: ReturnType<typeof reader>) =>
      viewer.chunks.filter((chunk) => decoder.decode(chunk).includes("id: ")).length;
    // Coalescing off: each commit's page is its own write.
    const eager = watchWith({ coalesceMs: 0 });
    const one = reader(await eager.open({ rootId: root, threadId: root, after: 0 }));
    for (let commit = 0; commit < 6; commit += 1) {
      await append(root, 2);
      await one.until((commit + 1) * 2);
    }
    expect(writesWithEvents(one)).toBe(6);
    eager.close();
    // A window longer than the burst: the six commits reach each viewer in at most two writes.
    const coalescing = watchWith({ coalesceMs: 400 });
    const after = (await loggedIds(root))[11] as number;
    const viewers = await Promise.all(
      [0, 1, 2].map(async () => reader(await coalescing.open({ rootId: root, threadId: root, after }))),
    );
    for (let commit = 0; commit < 6; commit += 1) await append(root, 2);
    const expected = (await loggedIds(root)).slice(12);
    expect(expected).toHaveLength(12);
    await Promise.all(viewers.map((viewer) => viewer.until(12)));
    for (const viewer of viewers) {
      expect(viewer.ids).toEqual(expected);
      expect(writesWithEvents(viewer)).toBeLessThanOrEqual(2);
    }
    const last = (viewer: ReturnType<typeof reader>) => viewer.chunks[viewer.chunks.length - 1];
    expect(new Set(viewers.map(last)).size).toBe(1);
    coalescing.close();
  });

  it("writes pages as soon as they reach writeAtBytes, without waiting for the window; smaller ones wait", async () => {
    const root = randomUUID();
    const writesWithEvents = (viewer: ReturnType<typeof reader>) =>
      viewer.chunks.filter((chunk) => decoder.decode(chunk).includes("id: ")).length;
    // A window far longer than the test waits: only the size rule writes before it ends.
    const watch = watchWith({ coalesceMs: 2_000, writeAtBytes: 4_096 });
    const viewer = reader(await watch.open({ rootId: root, threadId: root, after: 0 }));
    // A small page (one short event) is held for the window.
    await append(root, 1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(viewer.ids).toEqual([]);
    // ~5 KB more: written at once, with the page held before it, in one write.
    await append(root, 10, 500);
    await viewer.until(11, 1_200);
    expect(viewer.ids).toEqual(await loggedIds(root));
    expect(writesWithEvents(viewer)).toBe(1);
    watch.close();
  });

  it("sends a message's chunks to a stream joining mid-message once each: the text so far, then the rest", async () => {
    const root = randomUUID();
    // A window long enough that chunks are held while viewers join.
    const watch = watchWith({ coalesceMs: 300 });
    const messageId = randomUUID();
    const publish = (chunk: string) => hub.publishChunk({ rootId: root, threadId: root, messageId, chunk });
    // Streamed before anybody watched: the new feed's subscription replays it, and the viewer's
    // opening sends it as the text so far; the viewer must get it once.
    publish("The ");
    const first = reader(await watch.open({ rootId: root, threadId: root, after: 0 }));
    publish("quick ");
    // Joins while "quick " is held for the window: it is in this viewer's text so far.
    const second = reader(await watch.open({ rootId: root, threadId: root, after: 0 }));
    publish("brown ");
    const third = reader(await watch.open({ rootId: root, threadId: root, after: 0 }));
    publish("fox.");
    await new Promise((resolve) => setTimeout(resolve, 700));
    for (const viewer of [first, second, third])
      expect(viewer.chunkText.join("")).toBe("The quick brown fox.");
    expect(second.chunkText[0]).toBe("The quick ");
    hub.endMessage(messageId);
    watch.close();
  });

  it("ends the tree's subscription with its last viewer", async () => {
    const root = randomUUID();
    const watch = watchWith();
    const stream = await watch.open({ rootId: root, threadId: root, after: 0 });
    expect(watch.stats()).toMatchObject({ trees: 1, streams: 1 });
    await stream.cancel();
    expect(watch.stats()).toMatchObject({ trees: 0, streams: 0 });
  });
});
