// Backpressure you can see (issue 19 item 4): GET /api/health reports threads waiting for a
// scheduler (and how long the oldest has waited), threads running, and this process's model calls in
// flight per provider. With TANDEM_MAX_CLAIMED_THREADS=1 (one thread held by this process, although
// a model call leaves its step slot) and a slow scripted model, one thread runs (its call in flight)
// while the others wait; once all have answered, nothing waits and no call is in flight.
import { describe, expect, it } from "vitest";
import type { RuntimeLoad } from "@/lib/contracts/runtime-load";
import { testBackend } from "../support/database";
import { testServerForFile } from "../support/fixture";
import { readRuntimeLoad, slowChatBundle } from "../support/runtime-load";
import { threadHelpers } from "../support/thread-helpers";

const fixture = testServerForFile({ TANDEM_CONCURRENCY: "1", TANDEM_MAX_CLAIMED_THREADS: "1" });
const { projectWith, startThread } = threadHelpers(fixture);

const slowChat = slowChatBundle("Done thinking.", 1500);

const readLoad = () => readRuntimeLoad(fixture);

async function waitForLoad(what: string, check: (load: RuntimeLoad) => boolean): Promise<RuntimeLoad> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const load = await readLoad();
    if (check(load)) return load;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(load)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe("GET /api/health load", () => {
  it("shows waiting threads, the running one and its model call in flight, then all clear", async () => {
    const idle = await readLoad();
    expect(idle.threads).toEqual({ waiting: 0, oldest_waiting_ms: null, running: 0 });
    expect(idle.this_process).toEqual({ running: 0, max_claimed: 1, steps_active: 0, concurrency: 1 });
    expect(idle.model_calls).toEqual({
      in_flight: 0,
      by_provider: {},
      queued: 0,
      queued_by_provider: {},
      providers: [],
    });
    // Group commit: on by default on a Postgres server, never on the embedded database.
    expect(idle.commits.grouped).toBe(testBackend() === "postgres");

    const projectId = await projectWith(slowChat);
    const threads = await Promise.all(
      [1, 2, 3].map((index) => startThread(projectId, "assistant", `hi ${index}`)),
    );
    expect(threads).toHaveLength(3);

    const busy = await waitForLoad(
      "one call in flight and two threads waiting",
      (load) => load.model_calls.in_flight === 1 && load.threads.waiting === 2,
    );
    expect(busy.model_calls.by_provider).toEqual({ scripted: 1 });
    expect(busy.threads.running).toBe(1);
    // The thread waits on its model away from its step slot.
    expect(busy.this_process).toEqual({ running: 1, max_claimed: 1, steps_active: 0, concurrency: 1 });
    // The two others have waited at least since they were created, before this read.
    const later = await waitForLoad(
      "the oldest wait to grow",
      (load) => (load.threads.oldest_waiting_ms ?? 0) >= 200,
    );
    expect(later.threads.waiting).toBeGreaterThanOrEqual(1);

    const done = await waitForLoad(
      "every thread answered",
      (load) => load.threads.waiting === 0 && load.threads.running === 0 && load.model_calls.in_flight === 0,
    );
    expect(done.threads.oldest_waiting_ms).toBeNull();
    expect(done.model_calls.by_provider).toEqual({});
    expect(done.this_process.running).toBe(0);
    // The replies' one-statement commits went through the batcher (alone: one thread at a time).
    if (testBackend() === "postgres") expect(done.commits.alone + done.commits.parts).toBeGreaterThan(0);
  });
});
