// Model calls do not occupy step slots (issue 19 item 1): with TANDEM_CONCURRENCY=2 and a slow
// scripted model, all 20 threads' model calls are in flight at once (GET /api/health `load`), while
// no more than 2 steps hold a slot; a user stop still aborts a call that waits away from its slot,
// and every other thread answers. On a scheduler whose slots are held through the model call, at
// most 2 calls would be in flight.
import { describe, expect, it } from "vitest";
import type { RuntimeLoad } from "@/lib/contracts/runtime-load";
import { testServerForFile } from "../support/fixture";
import { readRuntimeLoad, slowChatBundle } from "../support/runtime-load";
import { threadHelpers } from "../support/thread-helpers";

const fixture = testServerForFile({ TANDEM_CONCURRENCY: "2" });
const { api, projectWith, startThread, waitFor, messagesOf } = {
  api: fixture.api,
  ...threadHelpers(fixture),
};

const THREADS = 20;
const DELAY_MS = 4_000;

const slowChat = slowChatBundle("Answer to {{input}}", DELAY_MS);

const readLoad = () => readRuntimeLoad(fixture);

describe("model calls off the step slots", () => {
  it("keeps 20 threads' model calls in flight at once with TANDEM_CONCURRENCY=2", async () => {
    const projectId = await projectWith(slowChat);
    const threads = await Promise.all(
      Array.from({ length: THREADS }, (_, index) => startThread(projectId, "assistant", `q${index}`)),
    );
    const created = Date.now();
    let most = 0;
    let mostSteps = 0;
    let all: RuntimeLoad | null = null;
    // Each call takes DELAY_MS and none started before its thread was created: all of them are in
    // flight together well before DELAY_MS after the last creation.
    while (Date.now() - created < DELAY_MS) {
      const load = await readLoad();
      most = Math.max(most, load.model_calls.in_flight);
      mostSteps = Math.max(mostSteps, load.this_process.steps_active);
      if (load.model_calls.in_flight === THREADS) {
        all = load;
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(most).toBe(THREADS);
    expect(all?.model_calls.by_provider).toEqual({ scripted: THREADS });
    expect(all?.this_process.running).toBe(THREADS);
    expect(all?.this_process.concurrency).toBe(2);
    expect(all?.model_calls.queued).toBe(0);
    expect(mostSteps).toBeLessThanOrEqual(2);

    // A stop still reaches a call that waits away from its slot.
    const stopped = threads[0] as string;
    expect((await api("POST", `/api/threads/${stopped}/stop`)).status).toBe(200);
    const afterStop = await waitFor(stopped, ["stopped"], 2_000);
    expect(afterStop.stop_reason).toBe("Stopped by user");

    for (const [index, threadId] of threads.entries()) {
      if (threadId === stopped) continue;
      await waitFor(threadId, ["idle"], 20_000);
      expect((await messagesOf(threadId)).map((message) => message.content)).toEqual([
        `q${index}`,
        `Answer to q${index}`,
      ]);
    }
    expect((await messagesOf(stopped)).map((message) => message.content)).toEqual(["q0"]);
    const done = await readLoad();
    expect(done.model_calls).toEqual({
      in_flight: 0,
      by_provider: {},
      queued: 0,
      queued_by_provider: {},
      providers: [],
    });
    expect(done.this_process.steps_active).toBe(0);
  }, 60_000);
});
