// Provider trouble through the whole runtime (issue 47): threads whose model is an
// `openai-compatible` server started here that answers 429 bursts, 500s and cut streams. Each
// conversation ends with exactly one clean reply (no partial, no duplicate), its waits are live
// `model_wait` telemetry, /api/health shows the endpoint paused and its lowered limit, and a user stop
// during a long wait returns at once with the thread stopped, not failed.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RuntimeLoad } from "@/lib/contracts/runtime-load";
import {
  type FakeOpenAIServer,
  type FakeReply,
  startFakeOpenAIServer,
  textReply,
} from "../support/fake-openai-server";
import { testServerForFile } from "../support/fixture";
import { connectSse } from "../support/sse";
import { threadHelpers } from "../support/thread-helpers";

const fixture = testServerForFile({ TANDEM_PROVIDER_BREAKER_FAILURES: "2" });
const { projectWith, startThread, waitFor, messagesOf } = threadHelpers(fixture);

/** What the provider does, per model id; each scenario has its own. */
const scenarios = new Map<string, (index: number) => FakeReply>();
const seen = new Map<string, number>();
let provider: FakeOpenAIServer;

const reply = (model: string) =>
  textReply(model, ["Hello ", "from ", "the model."], { prompt_tokens: 5, completion_tokens: 4 });
const tooMany = (headers: Record<string, string>): FakeReply => ({
  status: 429,
  body: { error: { message: "Rate limit reached for requests" } },
  headers,
});

beforeAll(async () => {
  provider = await startFakeOpenAIServer((request) => {
    const index = seen.get(request.model) ?? 0;
    seen.set(request.model, index + 1);
    return scenarios.get(request.model)?.(index) ?? reply(request.model);
  });
});

afterAll(async () => {
  await provider?.close();
});

function chat(modelId: string, fallback?: string, baseURL = provider.baseURL) {
  return {
    agents: [{ name: "assistant", sideA: { prompt: "chat" } }],
    prompts: [{ name: "chat", toolDescription: "c", prompt: "Be brief.", model: "main", includeChat: true }],
    models: [
      {
        name: "main",
        provider: "openai-compatible",
        model: modelId,
        baseURL,
        ...(fallback ? { fallbacks: ["spare"] } : {}),
      },
      ...(fallback
        ? [{ name: "spare", provider: "openai-compatible", model: fallback, baseURL: provider.baseURL }]
        : []),
    ],
  };
}

async function assistantTexts(threadId: string): Promise<(string | null)[]> {
  return (await messagesOf(threadId)).filter((message) => message.role === "assistant").map((m) => m.content);
}

describe("provider trouble", () => {
  it("answers once after two 429s in a row, and streams each wait live", async () => {
    scenarios.set("burst", (index) => (index < 2 ? tooMany({ "retry-after-ms": "150" }) : reply("burst")));
    const threadId = await startThread(await projectWith(chat("burst")), "assistant");
    const events = await connectSse(`${fixture.server.baseUrl}/api/threads/${threadId}/events`);
    try {
      await fixture.api("POST", `/api/threads/${threadId}/messages`, { content: "Hi?" });
      const thread = await waitFor(threadId, ["idle", "failed"]);
      expect(thread.failure).toBeNull();
      expect(thread.status).toBe("idle");
      expect(await assistantTexts(threadId)).toEqual(["Hello from the model."]);
      const wait = await events.waitFor(
        (frame) => frame.event === "telemetry" && frame.data.includes('"model_wait"'),
      );
      expect(JSON.parse(wait.data)).toMatchObject({
        thread_id: threadId,
        type: "model_wait",
        model: "main",
        reason: "rate_limited",
        provider: `openai-compatible at ${new URL(provider.baseURL).host}`,
      });
      expect(events.frames.filter((frame) => frame.data.includes('"model_wait"'))).toHaveLength(2);
    } finally {
      events.close();
    }
  });

  it("keeps one clean reply when a stream is cut after two words", async () => {
    scenarios.set("cut", (index) => (index === 0 ? { ...reply("cut"), cutAfter: 3 } : reply("cut")));
    const threadId = await startThread(await projectWith(chat("cut")), "assistant", "Hi?");
    const thread = await waitFor(threadId, ["idle", "failed"]);
    expect(thread.status).toBe("idle");
    expect(await assistantTexts(threadId)).toEqual(["Hello from the model."]);
    expect(seen.get("cut")).toBe(2);
  });

  it("sends new calls straight to the fallback once the provider's breaker is open", async () => {
    scenarios.set("down", () => ({ status: 503, body: { error: { message: "Service Unavailable" } } }));
    const projectId = await projectWith(chat("down", "spare-model"));
    const first = await startThread(projectId, "assistant", "one");
    expect((await waitFor(first, ["idle", "failed"])).status).toBe("idle");
    expect(await assistantTexts(first)).toEqual(["Hello from the model."]);
    // Two 503s in a row opened the breaker (TANDEM_PROVIDER_BREAKER_FAILURES=2) …
    expect(seen.get("down")).toBe(2);
    const second = await startThread(projectId, "assistant", "two");
    expect((await waitFor(second, ["idle", "failed"])).status).toBe("idle");
    expect(await assistantTexts(second)).toEqual(["Hello from the model."]);
    // … so the next thread's call went to the fallback without asking the broken model.
    expect(seen.get("down")).toBe(2);
    expect(seen.get("spare-model")).toBe(2);
  });

  it("stops at once during a long wait, shows the paused endpoint in /api/health, and fails nothing", async () => {
    // An endpoint of its own (the breaker the test above opened is on the shared one).
    const busy = await startFakeOpenAIServer(() => tooMany({ "retry-after": "30" }));
    try {
      const threadId = await startThread(
        await projectWith(chat("busy", undefined, busy.baseURL)),
        "assistant",
        "Hi?",
      );
      const deadline = Date.now() + 10_000;
      let load: RuntimeLoad | undefined;
      for (;;) {
        load = (await fixture.api<{ load: RuntimeLoad }>("GET", "/api/health")).body.load;
        if (load.model_calls.providers.some((endpoint) => endpoint.state === "paused")) break;
        if (Date.now() > deadline) throw new Error(`no paused endpoint: ${JSON.stringify(load)}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(load.model_calls.providers).toContainEqual(
        expect.objectContaining({
          provider: "openai-compatible",
          label: `openai-compatible at ${new URL(busy.baseURL).host}`,
          state: "paused",
          rate_limited: expect.any(Number),
          retry_in_ms: expect.any(Number),
        }),
      );
      const stoppedAt = Date.now();
      const stop = await fixture.api("POST", `/api/threads/${threadId}/stop`);
      expect(stop.status).toBe(200);
      const thread = await waitFor(threadId, ["stopped", "idle", "failed"], 5_000);
      expect(Date.now() - stoppedAt).toBeLessThan(3_000);
      expect(thread.failure).toBeNull();
      expect(await assistantTexts(threadId)).toEqual([]);
      expect(busy.requests).toHaveLength(1);
    } finally {
      await busy.close();
    }
  });
});
