// A client that stops reading its event stream (issue 43; runtime/events/watch.ts): the server
// disconnects it once it has left TANDEM_SSE_HIGH_WATER_BYTES unread, while a reading client carries
// on, and it resumes with Last-Event-ID and still gets everything exactly once.
import { describe, expect, it } from "vitest";
import { chatBundle } from "../support/bench-bundles";
import { testServerForFile } from "../support/fixture";
import { openSseStream } from "../support/sse-stream";
import { threadHelpers } from "../support/thread-helpers";
import { viewerChecks } from "../support/viewer-checks";

// Well above one event (a turn's 300 KB echo), so a reading client is never cut off between reads.
const HIGH_WATER_BYTES = 1024 * 1024;
const fixture = testServerForFile({ TANDEM_SSE_HIGH_WATER_BYTES: String(HIGH_WATER_BYTES) });
const { projectWith, startThread, waitFor } = threadHelpers(fixture);
const { eventsUrl, replayAll } = viewerChecks(fixture);

describe("GET /api/threads/:id/events with a client that stops reading", () => {
  it("disconnects a client that stopped reading past the high-water mark; it resumes and loses nothing", async () => {
    // Each turn echoes a large message: ~10 MB of events, more than the kernel buffers between the
    // server and a client that reads nothing (about 4 MB on Linux loopback) plus the mark.
    const turns = 16;
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
