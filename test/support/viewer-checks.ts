// Checks for tests with many viewers of one run's event stream (issue 43; runtime/events/watch.ts):
// the persisted events as a fresh stream replays them, the thread an event is about, and waiting
// until a fan-out's tree is quiet.
import { expect } from "vitest";
import type { ServerFixture } from "./fixture";
import { openSseStream, type SseEvent } from "./sse-stream";
import { threadHelpers } from "./thread-helpers";

export function expectStrictlyIncreasing(ids: number[]): void {
  expect(ids.every((id, index) => index === 0 || id > (ids[index - 1] as number))).toBe(true);
}

/** The thread an event is about, from its payload (`thread` events carry the thread itself). */
export function threadOf(event: SseEvent): string {
  const data = JSON.parse(event.data ?? "{}") as { id?: string; thread_id?: string };
  return (event.event === "thread" ? data.id : data.thread_id) ?? "";
}

export function viewerChecks(fixture: ServerFixture) {
  const { waitFor } = threadHelpers(fixture);
  const eventsUrl = (threadId: string) => `${fixture.server.baseUrl}/api/threads/${threadId}/events`;
  return {
    eventsUrl,
    /** The persisted events of the tree as a fresh stream replays them from the log. */
    async replayAll(threadId: string): Promise<SseEvent[]> {
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
    },
    /** Waits until the root is idle after its children's last reports (it goes idle once per report). */
    async settle(rootId: string): Promise<void> {
      await waitFor(rootId, ["idle"], 60_000);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      await waitFor(rootId, ["idle"], 60_000);
    },
  };
}
