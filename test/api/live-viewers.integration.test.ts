// Many viewers of one run over real HTTP (issue 43; runtime/events/watch.ts): every viewer of a
// fan-out receives every persisted event once and in order; a viewer of a child thread gets exactly
// its subtree's events; a viewer that drops and reconnects with Last-Event-ID misses nothing and
// gets nothing twice. (A client that stops reading: live-slow-client.integration.test.ts.)
import { describe, expect, it } from "vitest";
import { testServerForFile } from "../support/fixture";
import { openSseStream, type SseStream } from "../support/sse-stream";
import { assetFanOutBundle } from "../support/subagent-bundles";
import { threadHelpers } from "../support/thread-helpers";
import { expectStrictlyIncreasing, threadOf, viewerChecks } from "../support/viewer-checks";

// The default high-water mark: a viewer a loaded test process reads slowly is not cut off here.
const fixture = testServerForFile();
const { projectWith, startThread } = threadHelpers(fixture);
const { eventsUrl, replayAll, settle } = viewerChecks(fixture);

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
        // On a fast run the second stream may already have had the last event: the third has nothing
        // to wait for then (it is still checked to have received nothing twice).
        if ((received[received.length - 1] ?? 0) < last) await third.waitForId(last, 30_000);
        else await new Promise((resolve) => setTimeout(resolve, 500));
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
});
