// Many viewers of one run over real HTTP (issue 43; runtime/events/watch.ts): every viewer of a
// fan-out receives every persisted event once and in order; a viewer of a child thread gets exactly
// its subtree's events; a viewer that drops and reconnects with Last-Event-ID misses nothing and
// gets nothing twice; and a client that stops reading is disconnected by the server once it has
// left TANDEM_SSE_HIGH_WATER_BYTES unread (while the others carry on), then resumes with
// Last-Event-ID and still gets everything exactly once.
import { describe, expect, it } from "vitest";
import { chatBundle } from "../support/bench-bundles";
import { testServerForFile } from "../support/fixture";
import { openSseStream, type SseEvent, type SseStream } from "../support/sse-stream";
import { assetFanOutBundle } from "../support/subagent-bundles";
import { threadHelpers } from "../support/thread-helpers";

const HIGH_WATER_BYTES = 16_384;
const fixture = testServerForFile({ TANDEM_SSE_HIGH_WATER_BYTES: String(HIGH_WATER_BYTES) });
const { projectWith, startThread, waitFor } = threadHelpers(fixture);

const eventsUrl = (threadId: string) => `${fixture.server.baseUrl}/api/threads/${threadId}/events`;

/** The persisted events of the tree as a fresh stream replays them from the log. */
async function replayAll(threadId: string): Promise<SseEvent[]> {
  const reference = await openSseStream(eventsUrl(threadId), { lastEventId: 0, keepData: true });
  try {
    // Quiet for a while: the replay is complete.
    let seen = -1;
    while (reference.events.length !== seen) {
      seen = reference.events.length;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    return reference.events.filter((event) => event.id !== null);
  } finally {
    reference.close();
  }
}

function expectStrictlyIncreasing(ids: number[]): void {
  expect(ids.every((id, index) => index === 0 || id > (ids[index - 1] as number))).toBe(true);
}

/** The thread an event is about, from its payload (`thread` events carry the thread itself). */
function threadOf(event: SseEvent): string {
  const data = JSON.parse(event.data ?? "{}") as { id?: string; thread_id?: string };
  return (event.event === "thread" ? data.id : data.thread_id) ?? "";
}

async function settle(rootId: string): Promise<void> {
  await waitFor(rootId, ["idle"], 60_000);
  // The children's last reports: the root goes idle once per report; wait for quiet.
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  await waitFor(rootId, ["idle"], 60_000);
}

describe("GET /api/threads/:id/events with many viewers", () => {
  it("sends every viewer of a fan-out every persisted event once, in order", async () => {
    const projectId = await projectWith(assetFanOutBundle(6));
    const rootId = await startThread(projectId, "orchestrator");
    const viewers = await Promise.all(
      Array.from({ length: 25 }, () => openSseStream(eventsUrl(rootId), { lastEventId: 0 })),
    );
    try {
      const posted = await fixture.api("POST", `/api/threads/${rootId}/messages`, { content: "go" });
      expect(posted.status).toBe(202);
      await settle(rootId);
      const expected = (await replayAll(rootId)).map((event) => event.id as number);
      expect(expected.length).toBeGreaterThan(30);
      expectStrictlyIncreasing(expected);
      const last = expected[expected.length - 1] as number;
      await Promise.all(viewers.map((viewer) => viewer.waitForId(last, 30_000)));
      for (const viewer of viewers) expect(viewer.ids).toEqual(expected);
    } finally {
      for (const viewer of viewers) viewer.close();
    }
  });

  it("sends a viewer of a child exactly its subtree's events, beside viewers of the whole tree", async () => {
    const projectId = await projectWith(assetFanOutBundle(3));
    const rootId = await startThread(projectId, "orchestrator");
    const rootViewer = await openSseStream(eventsUrl(rootId), { lastEventId: 0 });
    let childViewer: SseStream | null = null;
    try {
      await fixture.api("POST", `/api/threads/${rootId}/messages`, { content: "go" });
      // The first child, as soon as it exists.
      let childId: string | undefined;
      const deadline = Date.now() + 20_000;
      while (!childId && Date.now() < deadline) {
        const tree = await fixture.api<{ root: { children: { id: string }[] } }>(
          "GET",
          `/api/threads/${rootId}/tree`,
        );
        childId = tree.body.root?.children?.[0]?.id;
        if (!childId) await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(childId).toBeDefined();
      childViewer = await openSseStream(eventsUrl(childId as string), { lastEventId: 0, keepData: true });
      await settle(rootId);
      const all = await replayAll(rootId);
      const expected = all.filter((event) => threadOf(event) === childId).map((event) => event.id);
      expect(expected.length).toBeGreaterThan(3);
      await childViewer.waitForId(expected[expected.length - 1] as number, 30_000);
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(childViewer.ids).toEqual(expected);
      expect(all.length).toBeGreaterThan(expected.length);
      await rootViewer.waitForId(all[all.length - 1]?.id as number, 30_000);
      expect(rootViewer.ids).toEqual(all.map((event) => event.id));
    } finally {
      rootViewer.close();
      childViewer?.close();
    }
  });

  it("resumes a dropped viewer with Last-Event-ID: nothing missed, nothing twice", async () => {
    const projectId = await projectWith(assetFanOutBundle(4));
    const rootId = await startThread(projectId, "orchestrator");
    const steady = await openSseStream(eventsUrl(rootId), { lastEventId: 0 });
    const first = await openSseStream(eventsUrl(rootId), { lastEventId: 0 });
    const received: number[] = [];
    try {
      await fixture.api("POST", `/api/threads/${rootId}/messages`, { content: "go" });
      await first.waitForId(1, 20_000);
      // Drop it mid-run, and reconnect from the last id it saw, twice.
      first.close();
      received.push(...first.ids);
      const second = await openSseStream(eventsUrl(rootId), { lastEventId: received[received.length - 1] });
      await new Promise((resolve) => setTimeout(resolve, 300));
      second.close();
      received.push(...second.ids);
      const third = await openSseStream(eventsUrl(rootId), { lastEventId: received[received.length - 1] });
      try {
        await settle(rootId);
        const expected = (await replayAll(rootId)).map((event) => event.id as number);
        const last = expected[expected.length - 1] as number;
        await third.waitForId(last, 30_000);
        await steady.waitForId(last, 30_000);
        received.push(...third.ids);
        expect(received).toEqual(expected);
        expect(steady.ids).toEqual(expected);
      } finally {
        third.close();
      }
    } finally {
      steady.close();
    }
  });

  it("disconnects a client that stopped reading past the high-water mark; it resumes and loses nothing", async () => {
    // Each turn echoes a large message: ~6 MB of events, more than the kernel buffers between the
    // server and a client that reads nothing (about 4 MB on Linux loopback) plus the mark.
    const turns = 10;
    const projectId = await projectWith(chatBundle(turns));
    const rootId = await startThread(projectId, "chat");
    const healthy = await openSseStream(eventsUrl(rootId), { lastEventId: 0 });
    const stalled = await openSseStream(eventsUrl(rootId), { lastEventId: 0 });
    stalled.pause();
    try {
      const content = "y".repeat(300_000);
      for (let turn = 0; turn < turns; turn += 1) {
        const posted = await fixture.api("POST", `/api/threads/${rootId}/messages`, { content });
        expect(posted.status).toBe(202);
        await waitFor(rootId, ["idle"], 60_000);
      }
      const expected = (await replayAll(rootId)).map((event) => event.id as number);
      const last = expected[expected.length - 1] as number;
      await healthy.waitForId(last, 60_000);
      expect(healthy.ids).toEqual(expected);
      // The stalled client reads again: it gets what the kernel held, then the end of the stream.
      stalled.resume();
      await Promise.race([
        stalled.ended,
        new Promise((_, reject) =>
          setTimeout(() => reject(new Error("the server kept the stalled stream open")), 30_000),
        ),
      ]);
      const before = stalled.ids.slice();
      expect(before.length).toBeLessThan(expected.length);
      expect(before).toEqual(expected.slice(0, before.length));
      const resumed = await openSseStream(eventsUrl(rootId), { lastEventId: before[before.length - 1] ?? 0 });
      try {
        await resumed.waitForId(last, 30_000);
        expect([...before, ...resumed.ids]).toEqual(expected);
      } finally {
        resumed.close();
      }
    } finally {
      healthy.close();
      stalled.close();
    }
  });
});
