// The per-provider concurrency limit (issue 19 item 1): with TANDEM_PROVIDER_CONCURRENCY_SCRIPTED=5,
// 12 threads whose steps leave their slots for the model keep exactly 5 scripted calls in flight and
// queue the rest (GET /api/health `load`: `queued_by_provider`), and every thread answers.
import { describe, expect, it } from "vitest";
import { testServerForFile } from "../support/fixture";
import { readRuntimeLoad, slowChatBundle } from "../support/runtime-load";
import { threadHelpers } from "../support/thread-helpers";

const fixture = testServerForFile({ TANDEM_CONCURRENCY: "2", TANDEM_PROVIDER_CONCURRENCY_SCRIPTED: "5" });
const { projectWith, startThread, waitFor, messagesOf } = threadHelpers(fixture);

const THREADS = 12;

const slowChat = slowChatBundle("Answer to {{input}}", 800);

const readLoad = () => readRuntimeLoad(fixture);

describe("per-provider concurrency limit", () => {
  it("keeps at most 5 scripted calls in flight and queues the others", async () => {
    const projectId = await projectWith(slowChat);
    const threads = await Promise.all(
      Array.from({ length: THREADS }, (_, index) => startThread(projectId, "assistant", `q${index}`)),
    );
    let most = 0;
    let mostQueued = 0;
    const deadline = Date.now() + 20_000;
    for (;;) {
      const load = await readLoad();
      most = Math.max(most, load.model_calls.in_flight);
      mostQueued = Math.max(mostQueued, load.model_calls.queued_by_provider.scripted ?? 0);
      if (load.threads.running === 0 && load.threads.waiting === 0 && load.model_calls.in_flight === 0) break;
      if (Date.now() > deadline) throw new Error(`threads did not finish: ${JSON.stringify(load)}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(most).toBe(5);
    expect(mostQueued).toBeGreaterThanOrEqual(3);
    for (const [index, threadId] of threads.entries()) {
      await waitFor(threadId, ["idle"]);
      expect((await messagesOf(threadId)).map((message) => message.content)).toEqual([
        `q${index}`,
        `Answer to q${index}`,
      ]);
    }
    expect((await readLoad()).model_calls.queued).toBe(0);
  }, 60_000);
});
