// A thread endpoint that does not answer in time (TANDEM_ENDPOINT_TIMEOUT_MS) answers 504 with the
// usual error body and a logged reason, while a quick one on the same server still answers; uses
// test/extensions/threads/slow.ts, which sleeps for the `ms` it is asked.
import path from "node:path";
import { describe, expect, it } from "vitest";
import { testServerForFile } from "../support/fixture";
import { threadHelpers } from "../support/thread-helpers";

const LIMIT_MS = 800;
const fixture = testServerForFile({
  TANDEM_EXTENSIONS_DIR: path.resolve(__dirname, "../extensions"),
  TANDEM_ENDPOINT_TIMEOUT_MS: String(LIMIT_MS),
});
const { projectWith, startThread, waitFor } = threadHelpers(fixture);

const chat = {
  agents: [{ name: "assistant", sideA: { prompt: "assistant_chat" } }],
  prompts: [
    {
      name: "assistant_chat",
      toolDescription: "Chats",
      prompt: "You are helpful.",
      model: "demo",
      includeChat: true,
      tools: [],
    },
  ],
  models: [{ name: "demo", provider: "scripted", model: "scripted", script: [{ text: "hi there" }] }],
};

describe("thread endpoint time limit", () => {
  it("answers 504 endpoint_timeout when the handler is slower than the limit, and 200 when it is not", async () => {
    const threadId = await startThread(await projectWith(chat), "assistant", "hello");
    await waitFor(threadId, ["idle"]);

    const quick = await fixture.api("GET", `/api/threads/${threadId}/endpoints/slow?ms=10`);
    expect(quick.status).toBe(200);
    expect(quick.body).toEqual({ threadId, slept: 10 });

    const started = Date.now();
    const slow = await fixture.api("GET", `/api/threads/${threadId}/endpoints/slow?ms=20000`);
    const elapsed = Date.now() - started;
    expect(slow.status).toBe(504);
    expect(slow.body).toEqual({
      error: `The thread endpoint /slow did not answer within ${LIMIT_MS} ms.`,
      code: "endpoint_timeout",
      timeout_ms: LIMIT_MS,
    });
    expect(elapsed).toBeGreaterThanOrEqual(LIMIT_MS - 50);
    expect(elapsed).toBeLessThan(LIMIT_MS + 5_000);
    expect(fixture.server.output()).toMatch(
      /thread endpoint GET \/slow \(.*slow\.ts\) on thread [0-9a-f-]+ timed out after 800 ms \(TANDEM_ENDPOINT_TIMEOUT_MS\)/,
    );
  });
});
