import { afterEach, describe, expect, it } from "vitest";
import type { ModelDefinition } from "@/lib/standard";
import {
  type FakeOpenAIServer,
  type FakeResponder,
  startFakeOpenAIServer,
  textReply,
  toolCallReply,
} from "../../test/support/fake-openai-server";
import { callModel } from "./call-model";
import { ModelAbortedError, ModelCallFailedError } from "./errors";
import type { ModelCallRequest, ModelMessage, ModelTelemetry, ModelToolSpec } from "./types";

let server: FakeOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function serve(respond: FakeResponder): Promise<FakeOpenAIServer> {
  server = await startFakeOpenAIServer(respond);
  return server;
}

const lookupTool: ModelToolSpec = {
  name: "lookup_weather",
  description: "Looks up the weather for a city.",
  inputSchema: {
    type: "object",
    properties: { city: { type: "string" }, days: { type: "integer" } },
    required: ["city"],
  },
};
const noteTool: ModelToolSpec = {
  name: "add_note",
  description: "Adds a note.",
  inputSchema: { type: "object", properties: { text: { type: "string" } } },
};

const conversation: ModelMessage[] = [
  { role: "system", content: "You are a forecaster." },
  { role: "user", content: "Weather in Oslo?" },
  {
    role: "assistant",
    content: "Checking.",
    toolCalls: [
      { id: "call_a", name: "lookup_weather", args: { city: "Oslo" } },
      { id: "call_b", name: "add_note", args: { text: "asked about Oslo" } },
    ],
  },
  { role: "tool", toolCallId: "call_a", toolName: "lookup_weather", content: "rain, 7°C" },
  { role: "tool", toolCallId: "call_b", toolName: "add_note", content: "no such notebook", isError: true },
  { role: "user", content: "And tomorrow?" },
];

function request(extra: Partial<ModelCallRequest> = {}): ModelCallRequest {
  return {
    messages: conversation,
    tools: [lookupTool, noteTool],
    toolChoice: "auto",
    parallelToolCalls: false,
    ...extra,
  };
}

const noSleep = async () => {};

describe("AI SDK providers against a local chat-completions server", () => {
  it("streams text deltas in order and reports text and usage (openai-compatible)", async () => {
    const fake = await serve((body) =>
      textReply(body.model, ["Tomorrow ", "looks ", "dry."], {
        prompt_tokens: 120,
        completion_tokens: 6,
        cached_tokens: 100,
      }),
    );
    const models: ModelDefinition[] = [
      {
        name: "local",
        provider: "openai-compatible",
        model: "llama-test",
        baseURL: fake.baseURL,
        inputPrice: 1,
        cachedPrice: 0.5,
        outputPrice: 2,
      },
    ];
    const deltas: string[] = [];
    const result = await callModel("local", models, request({ onTextDelta: (d) => deltas.push(d) }), {
      env: {},
      sleep: noSleep,
    });
    expect(deltas).toEqual(["Tomorrow ", "looks ", "dry."]);
    expect(result).toMatchObject({
      text: "Tomorrow looks dry.",
      toolCalls: [],
      usage: { inputTokens: 120, outputTokens: 6, cachedInputTokens: 100 },
      modelName: "local",
      providerModelId: "llama-test",
      provider: "openai-compatible",
    });
    expect(result.costUsd).toBeCloseTo((20 * 1 + 100 * 0.5 + 6 * 2) / 1_000_000, 12);

    const sent = fake.requests[0]!;
    expect(sent.model).toBe("llama-test");
    expect(sent.stream).toBe(true);
    expect(sent.authorization).toBeUndefined();
    expect(sent.tools).toEqual([
      {
        type: "function",
        function: expect.objectContaining({ name: "lookup_weather", parameters: lookupTool.inputSchema }),
      },
      {
        type: "function",
        function: expect.objectContaining({ name: "add_note", parameters: noteTool.inputSchema }),
      },
    ]);
    expect(sent.parallel_tool_calls).toBe(false);
    expect(sent.tool_choice).toBe("auto");
    expect(sent.messages).toEqual([
      { role: "system", content: "You are a forecaster." },
      { role: "user", content: "Weather in Oslo?" },
      {
        role: "assistant",
        content: "Checking.",
        tool_calls: [
          expect.objectContaining({
            id: "call_a",
            type: "function",
            function: { name: "lookup_weather", arguments: JSON.stringify({ city: "Oslo" }) },
          }),
          expect.objectContaining({
            id: "call_b",
            type: "function",
            function: { name: "add_note", arguments: JSON.stringify({ text: "asked about Oslo" }) },
          }),
        ],
      },
      { role: "tool", tool_call_id: "call_a", content: "rain, 7°C" },
      { role: "tool", tool_call_id: "call_b", content: "no such notebook" },
      { role: "user", content: "And tomorrow?" },
    ]);
  });

  it("assembles a streamed tool call from argument fragments", async () => {
    const fake = await serve((body) =>
      toolCallReply(
        body.model,
        {
          id: "call_xyz",
          name: "lookup_weather",
          argumentFragments: ['{"ci', 'ty": "Os', 'lo", "days"', ": 2}"],
        },
        { prompt_tokens: 50, completion_tokens: 12 },
      ),
    );
    const models: ModelDefinition[] = [
      {
        name: "local",
        provider: "openai-compatible",
        model: "m",
        baseURL: fake.baseURL,
        apiKeyEnv: "LOCAL_KEY",
      },
    ];
    const deltas: string[] = [];
    const result = await callModel("local", models, request({ onTextDelta: (d) => deltas.push(d) }), {
      env: { LOCAL_KEY: "local-secret" },
      sleep: noSleep,
    });
    expect(result.toolCalls).toEqual([
      { id: "call_xyz", name: "lookup_weather", args: { city: "Oslo", days: 2 } },
    ]);
    expect(result.text).toBe("");
    expect(deltas).toEqual([]);
    expect(result.usage).toEqual({ inputTokens: 50, outputTokens: 12, cachedInputTokens: 0 });
    expect(fake.requests[0]!.authorization).toBe("Bearer local-secret");
  });

  it("keeps unparsable tool-call arguments as the raw string", async () => {
    const fake = await serve((body) =>
      toolCallReply(
        body.model,
        { id: "call_bad", name: "add_note", argumentFragments: ['{"text": "unfinished'] },
        { prompt_tokens: 5, completion_tokens: 5 },
      ),
    );
    const models: ModelDefinition[] = [
      { name: "local", provider: "openai-compatible", model: "m", baseURL: fake.baseURL },
    ];
    const result = await callModel("local", models, request(), { env: {}, sleep: noSleep });
    expect(result.toolCalls).toEqual([{ id: "call_bad", name: "add_note", args: '{"text": "unfinished' }]);
  });

  it("retries an HTTP 500 once, then the fallback answers", async () => {
    const fake = await serve((body) =>
      body.model === "broken-model"
        ? { status: 500, body: { error: { message: "upstream exploded", type: "server_error" } } }
        : textReply(body.model, ["from ", "backup"], { prompt_tokens: 10, completion_tokens: 2 }),
    );
    const models: ModelDefinition[] = [
      {
        name: "main",
        provider: "openai-compatible",
        model: "broken-model",
        baseURL: fake.baseURL,
        fallbacks: ["backup"],
      },
      { name: "backup", provider: "openai-compatible", model: "backup-model", baseURL: fake.baseURL },
    ];
    const delays: number[] = [];
    const telemetry: ModelTelemetry[] = [];
    const result = await callModel("main", models, request(), {
      env: {},
      random: () => 1,
      sleep: async (ms) => {
        delays.push(ms);
      },
      onTelemetry: (event) => telemetry.push(event),
    });
    expect(result.text).toBe("from backup");
    expect(result.modelName).toBe("backup");
    expect(result.providerModelId).toBe("backup-model");
    expect(fake.requests.map((sent) => sent.model)).toEqual(["broken-model", "broken-model", "backup-model"]);
    expect(delays).toEqual([1000]);
    expect(telemetry.filter((event) => event.type === "llm_error")).toEqual([
      { type: "llm_error", model: "main", attempt: 1, error: expect.stringContaining("upstream exploded") },
      { type: "llm_error", model: "main", attempt: 2, error: expect.stringContaining("upstream exploded") },
    ]);
    expect(telemetry).toContainEqual({ type: "fallback_triggered", from: "main", to: "backup" });
  });

  it("waits as long as a 429's retry-after (seconds) or retry-after-ms asks, plus up to a fifth for jitter", async () => {
    const fake = await serve((body, index) => {
      if (index === 0)
        return { status: 429, body: { error: { message: "slow down" } }, headers: { "retry-after": "1" } };
      if (index === 2)
        return {
          status: 429,
          body: { error: { message: "slow down" } },
          headers: { "retry-after-ms": "150" },
        };
      return textReply(body.model, ["ok"], { prompt_tokens: 1, completion_tokens: 1 });
    });
    const models: ModelDefinition[] = [
      { name: "limited", provider: "openai-compatible", model: "m", baseURL: fake.baseURL },
    ];
    const delays: number[] = [];
    const sleep = async (ms: number) => {
      delays.push(ms);
    };
    const options = { env: {}, sleep, random: () => 0.5 };
    expect((await callModel("limited", models, request(), options)).text).toBe("ok");
    expect((await callModel("limited", models, request(), options)).text).toBe("ok");
    // The provider's wait, not the 1 s back-off: 1000 + 0.5 · 200, 150 + 0.5 · 30.
    expect(delays).toEqual([1100, 165]);
    expect(fake.requests).toHaveLength(4);
  });

  it("retries the last model through an outage until its budget is spent, then names the provider's reason", async () => {
    const fake = await serve(() => ({ status: 500, body: { error: { message: "down" } } }));
    const models: ModelDefinition[] = [
      { name: "only", provider: "openai-compatible", model: "m", baseURL: fake.baseURL },
    ];
    const delays: number[] = [];
    const error = await callModel("only", models, request(), {
      env: {},
      random: () => 1,
      retryBudgetMs: 10_000,
      sleep: async (ms) => {
        delays.push(ms);
      },
    }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ModelCallFailedError);
    expect((error as ModelCallFailedError).message).toBe(
      "All retry attempts exhausted for model only and 0 fallbacks",
    );
    const host = new URL(fake.baseURL).host;
    expect(String((error as ModelCallFailedError).details.lastError)).toBe(
      `openai-compatible at ${host}: HTTP 500: down`,
    );
    // 1 + 2 + 4 s fit 10 s; the next 8 s would not.
    expect(delays).toEqual([1000, 2000, 4000]);
    expect(fake.requests).toHaveLength(4);
  });

  it("speaks chat completions for provider openai with a baseURL", async () => {
    const fake = await serve((body) =>
      textReply(body.model, ["hi", "!"], { prompt_tokens: 30, completion_tokens: 2 }),
    );
    const models: ModelDefinition[] = [
      {
        name: "gpt",
        provider: "openai",
        model: "gpt-test",
        baseURL: fake.baseURL,
        apiKeyEnv: "TEST_OPENAI_KEY",
      },
    ];
    const deltas: string[] = [];
    const result = await callModel(
      "gpt",
      models,
      request({ parallelToolCalls: true, toolChoice: "none", onTextDelta: (d) => deltas.push(d) }),
      { env: { TEST_OPENAI_KEY: "sk-test" }, sleep: noSleep },
    );
    expect(deltas).toEqual(["hi", "!"]);
    expect(result).toMatchObject({
      text: "hi!",
      provider: "openai",
      usage: { inputTokens: 30, outputTokens: 2 },
    });

    const sent = fake.requests[0]!;
    expect(sent.path).toBe("/v1/chat/completions");
    expect(sent.authorization).toBe("Bearer sk-test");
    expect(sent.parallel_tool_calls).toBe(true);
    expect(sent.tool_choice).toBe("none");
    expect(sent.tools?.map((entry) => (entry.function as { name: string }).name)).toEqual([
      "lookup_weather",
      "add_note",
    ]);
    expect(sent.tools?.[0]).toMatchObject({ function: { parameters: lookupTool.inputSchema } });
    expect(sent.messages.map((message) => message.role)).toEqual([
      "system",
      "user",
      "assistant",
      "tool",
      "tool",
      "user",
    ]);
    expect(sent.messages[3]).toMatchObject({ role: "tool", tool_call_id: "call_a", content: "rain, 7°C" });
    expect(sent.messages[4]).toMatchObject({ role: "tool", tool_call_id: "call_b" });
  });

  it('counts a text answer to toolChoice "required" as a failed attempt (the SDK enforces it)', async () => {
    const fake = await serve((body) =>
      body.model === "chatty"
        ? textReply(body.model, ["just talking"], { prompt_tokens: 1, completion_tokens: 1 })
        : toolCallReply(
            body.model,
            { id: "c1", name: "add_note", argumentFragments: ["{}"] },
            {
              prompt_tokens: 1,
              completion_tokens: 1,
            },
          ),
    );
    const models: ModelDefinition[] = [
      {
        name: "chatty",
        provider: "openai-compatible",
        model: "chatty",
        baseURL: fake.baseURL,
        fallbacks: ["obedient"],
      },
      { name: "obedient", provider: "openai-compatible", model: "obedient", baseURL: fake.baseURL },
    ];
    const result = await callModel("chatty", models, request({ toolChoice: "required" }), {
      env: {},
      sleep: noSleep,
    });
    expect(result.modelName).toBe("obedient");
    expect(result.toolCalls).toEqual([{ id: "c1", name: "add_note", args: {} }]);
    expect(fake.requests[0]!.tool_choice).toBe("required");
  });

  it("aborts a streaming call at once and never walks the fallbacks", async () => {
    const fake = await serve((body) => ({
      ...textReply(body.model, ["one ", "two ", "three"], { prompt_tokens: 1, completion_tokens: 1 }),
      pauseMs: 300,
    }));
    const models: ModelDefinition[] = [
      {
        name: "slow",
        provider: "openai-compatible",
        model: "slow",
        baseURL: fake.baseURL,
        fallbacks: ["other"],
      },
      { name: "other", provider: "openai-compatible", model: "other", baseURL: fake.baseURL },
    ];
    const controller = new AbortController();
    const deltas: string[] = [];
    const started = performance.now();
    const error = await callModel(
      "slow",
      models,
      request({
        abortSignal: controller.signal,
        onTextDelta: (delta) => {
          deltas.push(delta);
          controller.abort();
        },
      }),
      { env: {}, sleep: noSleep },
    ).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ModelAbortedError);
    expect(deltas).toEqual(["one "]);
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(fake.requests.map((sent) => sent.model)).toEqual(["slow"]);
  });

  it("sends no tools and no tool flags when the prompt has none", async () => {
    const fake = await serve((body) =>
      textReply(body.model, ["ok"], { prompt_tokens: 1, completion_tokens: 1 }),
    );
    const models: ModelDefinition[] = [
      { name: "local", provider: "openai-compatible", model: "m", baseURL: fake.baseURL },
    ];
    await callModel("local", models, request({ tools: [], parallelToolCalls: true }), {
      env: {},
      sleep: noSleep,
    });
    const sent = fake.requests[0]!;
    expect(sent.tools).toBeUndefined();
    expect(sent.tool_choice).toBeUndefined();
    expect(sent.parallel_tool_calls).toBeUndefined();
  });
});
