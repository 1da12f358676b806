// Providers that misbehave the way real ones do (issue 47), against local OpenAI- and
// Anthropic-compatible servers over real HTTP: 429 bursts with and without a wait, 500/503/529, cut
// streams, garbage bodies, a slow first token, a ten-minute outage (the clock faked, the server real),
// and a stop during a wait. Every call ends with one clean answer or one clear error.
import { afterEach, describe, expect, it, vi } from "vitest";
import type { ModelDefinition } from "@/lib/standard";
import {
  anthropicTextReply,
  type FakeOpenAIServer,
  type FakeReply,
  type FakeResponder,
  startFakeOpenAIServer,
  textReply,
} from "../../test/support/fake-openai-server";
import { callModel } from "./call-model";
import { ModelAbortedError, ModelCallFailedError } from "./errors";
import type { ModelCallRequest, ModelTelemetry } from "./types";

let server: FakeOpenAIServer | undefined;
afterEach(async () => {
  vi.useRealTimers();
  await server?.close();
  server = undefined;
});

async function serve(respond: FakeResponder): Promise<FakeOpenAIServer> {
  server = await startFakeOpenAIServer(respond);
  return server;
}

const request = (extra: Partial<ModelCallRequest> = {}): ModelCallRequest => ({
  messages: [{ role: "user", content: "Hello?" }],
  tools: [],
  toolChoice: "auto",
  parallelToolCalls: false,
  ...extra,
});

const compatible = (baseURL: string, extra: Partial<ModelDefinition> = {}): ModelDefinition => ({
  name: "local",
  provider: "openai-compatible",
  model: "m",
  baseURL,
  ...extra,
});

const tooMany = (headers: Record<string, string> = {}): FakeReply => ({
  status: 429,
  body: { error: { message: "Rate limit reached for requests", type: "requests" } },
  headers,
});
const reply = (body: { model: string }) =>
  textReply(body.model, ["Hello ", "from ", "the model."], { prompt_tokens: 5, completion_tokens: 4 });

function recording() {
  const telemetry: ModelTelemetry[] = [];
  const deltas: string[] = [];
  return { telemetry, deltas, onTelemetry: (event: ModelTelemetry) => telemetry.push(event) };
}

describe("a misbehaving OpenAI-compatible provider", () => {
  it("answers after two 429s in a row that ask for 150 ms each (the runtime used to give up after two attempts)", async () => {
    const fake = await serve((body, index) =>
      index < 2 ? tooMany({ "retry-after-ms": "150" }) : reply(body),
    );
    const { telemetry, onTelemetry } = recording();
    const result = await callModel("local", [compatible(fake.baseURL)], request(), { env: {}, onTelemetry });
    expect(result.text).toBe("Hello from the model.");
    expect(fake.requests).toHaveLength(3);
    const waits = telemetry.filter((event) => event.type === "model_wait");
    expect(waits).toHaveLength(2);
    for (const wait of waits) {
      expect(wait).toMatchObject({
        reason: "rate_limited",
        provider: `openai-compatible at ${new URL(fake.baseURL).host}`,
      });
      expect(wait.delay_ms).toBeGreaterThanOrEqual(150);
      expect(wait.delay_ms).toBeLessThanOrEqual(180);
    }
  });

  it("backs off with jitter through a burst of 429s that name no wait", async () => {
    const fake = await serve((body, index) => (index < 4 ? tooMany() : reply(body)));
    const delays: number[] = [];
    const result = await callModel("local", [compatible(fake.baseURL)], request(), {
      env: {},
      random: () => 0,
      sleep: async (ms) => {
        delays.push(ms);
      },
    });
    expect(result.text).toBe("Hello from the model.");
    // The lower half of 1, 2, 4, 8 s ("equal jitter" with the randomness at 0).
    expect(delays).toEqual([500, 1000, 2000, 4000]);
  });

  it("reads OpenAI's reset headers when a 429 has no retry-after", async () => {
    const fake = await serve((body, index) =>
      index === 0
        ? tooMany({
            "x-ratelimit-remaining-requests": "0",
            "x-ratelimit-reset-requests": "2.5s",
            "x-ratelimit-remaining-tokens": "9000",
            "x-ratelimit-reset-tokens": "6m0s",
          })
        : reply(body),
    );
    const delays: number[] = [];
    await callModel("local", [compatible(fake.baseURL)], request(), {
      env: {},
      random: () => 0,
      sleep: async (ms) => {
        delays.push(ms);
      },
    });
    // The exhausted limit's reset, not the token limit's that still had room.
    expect(delays).toEqual([2500]);
  });

  it("goes to the fallback when a 429's wait does not fit the model's budget", async () => {
    const fake = await serve((body) =>
      body.model === "busy" ? tooMany({ "retry-after": "120" }) : reply(body),
    );
    const models = [
      compatible(fake.baseURL, { name: "main", model: "busy", fallbacks: ["spare"] }),
      compatible(fake.baseURL, { name: "spare", model: "spare" }),
    ];
    const result = await callModel("main", models, request(), { env: {}, sleep: async () => {} });
    expect(result.modelName).toBe("spare");
    expect(fake.requests.map((sent) => sent.model)).toEqual(["busy", "spare"]);
  });

  it("retries 500 and 503 on the last model and answers once", async () => {
    const fake = await serve((body, index) =>
      index === 0
        ? { status: 500, body: { error: { message: "internal" } } }
        : index < 3
          ? { status: 503, body: { error: { message: "overloaded" } } }
          : reply(body),
    );
    const result = await callModel("local", [compatible(fake.baseURL)], request(), {
      env: {},
      sleep: async () => {},
    });
    expect(result.text).toBe("Hello from the model.");
    expect(fake.requests).toHaveLength(4);
  });

  it("keeps no part of a stream cut after two words: the retry's reply is the whole answer", async () => {
    const fake = await serve((body, index) => (index === 0 ? { ...reply(body), cutAfter: 3 } : reply(body)));
    const deltas: string[] = [];
    const result = await callModel(
      "local",
      [compatible(fake.baseURL)],
      request({ onTextDelta: (chunk) => deltas.push(chunk) }),
      { env: {}, sleep: async () => {} },
    );
    expect(result.text).toBe("Hello from the model.");
    expect(deltas.slice(0, 2)).toEqual(["Hello ", "from "]);
    expect(fake.requests).toHaveLength(2);
  });

  it("retries a garbage body once, and fails clearly when it stays garbage", async () => {
    let garbage = 1;
    const fake = await serve((body) =>
      garbage-- > 0 ? { raw: "data: {not json at all\n\n<html>oops</html>" } : reply(body),
    );
    const result = await callModel("local", [compatible(fake.baseURL)], request(), {
      env: {},
      sleep: async () => {},
    });
    expect(result.text).toBe("Hello from the model.");
    garbage = 10;
    const error = await callModel("local", [compatible(fake.baseURL)], request(), {
      env: {},
      sleep: async () => {},
    }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ModelCallFailedError);
    expect(String((error as ModelCallFailedError).details.lastError)).toMatch(/^openai-compatible at /);
  });

  it("waits for a slow first token without retrying", async () => {
    const fake = await serve((body) => ({ ...reply(body), firstChunkDelayMs: 400 }));
    const result = await callModel("local", [compatible(fake.baseURL)], request(), { env: {} });
    expect(result.text).toBe("Hello from the model.");
    expect(fake.requests).toHaveLength(1);
  });

  it("rides out a ten-minute outage within a longer budget, and fails with the provider's reason within the default one", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const outageEnds = Date.now() + 10 * 60_000;
    const fake = await serve((body) =>
      Date.now() < outageEnds
        ? { status: 503, body: { error: { message: "Service Unavailable" } } }
        : reply(body),
    );
    // Waits pass on the faked clock at once; the HTTP server and its streams stay real.
    const sleep = async (ms: number) => {
      vi.setSystemTime(Date.now() + ms);
    };
    const short = recording();
    const error = await callModel("local", [compatible(fake.baseURL)], request(), {
      env: {},
      sleep,
      random: () => 1,
      onTelemetry: short.onTelemetry,
    }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ModelCallFailedError);
    expect(String((error as ModelCallFailedError).details.lastError)).toContain(
      "HTTP 503: Service Unavailable",
    );
    const requestsWithinDefault = fake.requests.length;
    // Back-offs of 1, 2, 4, 8 and 16 s; the fifth failure in a row opened the breaker for 30 s, so
    // the sixth attempt waits the 14 s left of it (45 s of 60 spent), fails, and 30 s more would not fit.
    expect(requestsWithinDefault).toBe(6);
    expect(
      short.telemetry
        .filter((event) => event.type === "model_wait")
        .map((event) => [event.reason, event.delay_ms]),
    ).toEqual([
      ["unavailable", 1000],
      ["unavailable", 2000],
      ["unavailable", 4000],
      ["unavailable", 8000],
      ["unavailable", 16_000],
      ["unavailable", 14_000],
    ]);

    const long = recording();
    const result = await callModel("local", [compatible(fake.baseURL)], request(), {
      env: {},
      sleep,
      random: () => 1,
      retryBudgetMs: 15 * 60_000,
      onTelemetry: long.onTelemetry,
    });
    expect(result.text).toBe("Hello from the model.");
    expect(Date.now()).toBeGreaterThanOrEqual(outageEnds);
    const waits = long.telemetry.filter((event) => event.type === "model_wait");
    expect(waits.some((wait) => wait.reason === "unavailable" && wait.attempt === 0)).toBe(true);
    // While the breaker is open no request goes out: about one probe per 30 s, not a stampede.
    expect(fake.requests.length - requestsWithinDefault).toBeLessThan(25);
  });

  it("returns at once when stopped during a long wait", async () => {
    const fake = await serve(() => tooMany({ "retry-after": "30" }));
    const controller = new AbortController();
    const call = callModel("local", [compatible(fake.baseURL)], request({ abortSignal: controller.signal }), {
      env: {},
    });
    while (fake.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    await new Promise((resolve) => setTimeout(resolve, 100));
    const stoppedAt = performance.now();
    controller.abort(new Error("stopped by the user"));
    await expect(call).rejects.toBeInstanceOf(ModelAbortedError);
    expect(performance.now() - stoppedAt).toBeLessThan(200);
    expect(fake.requests).toHaveLength(1);
  });
});

describe("a misbehaving Anthropic-compatible provider", () => {
  it("honours retry-after and the reset headers, retries a 529 overload, and answers once", async () => {
    const fake = await serve((body, index) => {
      if (index === 0)
        return {
          status: 429,
          body: {
            type: "error",
            error: { type: "rate_limit_error", message: "Number of requests has exceeded your rate limit" },
          },
          headers: {
            "anthropic-ratelimit-requests-remaining": "0",
            "anthropic-ratelimit-requests-reset": new Date(Date.now() + 2000).toISOString(),
          },
        };
      if (index === 1)
        return {
          status: 529,
          body: { type: "error", error: { type: "overloaded_error", message: "Overloaded" } },
        };
      return anthropicTextReply(body.model, ["Hi ", "there."], { input_tokens: 7, output_tokens: 2 });
    });
    const delays: number[] = [];
    const { telemetry, onTelemetry } = recording();
    const result = await callModel(
      "claude",
      [
        {
          name: "claude",
          provider: "anthropic",
          model: "claude-test",
          baseURL: fake.baseURL,
          apiKeyEnv: "KEY",
        },
      ],
      request(),
      {
        env: { KEY: "sk-ant-test" },
        random: () => 0,
        onTelemetry,
        sleep: async (ms) => {
          delays.push(ms);
        },
      },
    );
    expect(result.text).toBe("Hi there.");
    expect(result.usage).toMatchObject({ inputTokens: 7, outputTokens: 2 });
    expect(fake.requests.map((sent) => sent.path)).toEqual(["/v1/messages", "/v1/messages", "/v1/messages"]);
    expect(delays[0]).toBeGreaterThan(1500);
    expect(delays[0]).toBeLessThanOrEqual(2000);
    // The 429's wait, then the overload's (with the sleep injected, the gate's pause after the 429 is
    // still on when the next attempt starts, and is announced as well).
    const reasons = telemetry.filter((event) => event.type === "model_wait").map((event) => event.reason);
    expect(reasons[0]).toBe("rate_limited");
    expect(reasons.at(-1)).toBe("unavailable");
  });
});
