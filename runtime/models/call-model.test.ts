import { MockLanguageModelV4 } from "ai/test";
import { describe, expect, it } from "vitest";
import type { ModelDefinition } from "@/lib/standard";
import { callModel } from "./call-model";
import {
  ModelAbortedError,
  ModelApiKeyMissingError,
  ModelCallFailedError,
  ModelNotFoundError,
} from "./errors";
import type { ModelCallRequest, ModelTelemetry } from "./types";

const request = (extra: Partial<ModelCallRequest> = {}): ModelCallRequest => ({
  messages: [{ role: "user", content: "hello" }],
  tools: [],
  toolChoice: "auto",
  parallelToolCalls: false,
  ...extra,
});

function recorder() {
  const delays: number[] = [];
  const telemetry: ModelTelemetry[] = [];
  return {
    delays,
    telemetry,
    options: {
      sleep: async (ms: number) => {
        delays.push(ms);
      },
      onTelemetry: (event: ModelTelemetry) => telemetry.push(event),
      env: {},
      // The jitter at its top: the back-off's full 1000 · 2^(n−1) ms.
      random: () => 1,
    },
  };
}

const failing = (name: string, fallbacks?: string[]): ModelDefinition => ({
  name,
  provider: "scripted",
  model: "scripted",
  script: [{ error: `${name} is down` }],
  ...(fallbacks ? { fallbacks } : {}),
});

describe("callModel", () => {
  it("answers from the named model with cost, identity and telemetry", async () => {
    const { options, telemetry } = recorder();
    const models: ModelDefinition[] = [
      {
        name: "fast",
        provider: "scripted",
        model: "scripted-v1",
        inputPrice: 1_000_000,
        outputPrice: 2_000_000,
        script: [{ text: "hi there" }],
      },
    ];
    const result = await callModel("fast", models, request(), options);
    expect(result).toMatchObject({
      text: "hi there",
      toolCalls: [],
      usage: { inputTokens: 2, outputTokens: 2, cachedInputTokens: 0 },
      costUsd: 2 * 1 + 2 * 2,
      modelName: "fast",
      providerModelId: "scripted-v1",
      provider: "scripted",
    });
    expect(telemetry).toEqual([
      { type: "llm_request", model: "fast", attempt: 1 },
      { type: "llm_response", model: "fast", tokens: 4, latency: expect.any(Number) },
    ]);
  });

  it("tries each model twice with back-off, then the fallbacks in order", async () => {
    const { options, telemetry, delays } = recorder();
    const models: ModelDefinition[] = [
      failing("primary", ["second", "third"]),
      failing("second"),
      {
        name: "third",
        provider: "scripted",
        model: "scripted",
        script: [{ text: "third answers {{input}}" }],
      },
    ];
    const result = await callModel("primary", models, request(), options);
    expect(result.text).toBe("third answers hello");
    expect(result.modelName).toBe("third");
    expect(delays).toEqual([1000, 1000]);
    expect(
      telemetry.map((event) => (event.type === "llm_response" ? { ...event, latency: 0 } : event)),
    ).toEqual([
      { type: "llm_request", model: "primary", attempt: 1 },
      { type: "llm_error", model: "primary", attempt: 1, error: "primary is down" },
      {
        type: "model_wait",
        model: "primary",
        provider: "scripted",
        reason: "error",
        attempt: 1,
        delay_ms: 1000,
      },
      { type: "llm_request", model: "primary", attempt: 2 },
      { type: "llm_error", model: "primary", attempt: 2, error: "primary is down" },
      { type: "fallback_triggered", from: "primary", to: "second" },
      { type: "llm_request", model: "second", attempt: 1 },
      { type: "llm_error", model: "second", attempt: 1, error: "second is down" },
      {
        type: "model_wait",
        model: "second",
        provider: "scripted",
        reason: "error",
        attempt: 1,
        delay_ms: 1000,
      },
      { type: "llm_request", model: "second", attempt: 2 },
      { type: "llm_error", model: "second", attempt: 2, error: "second is down" },
      { type: "fallback_triggered", from: "second", to: "third" },
      { type: "llm_request", model: "third", attempt: 1 },
      { type: "llm_response", model: "third", tokens: expect.any(Number), latency: 0 },
    ]);
  });

  it("retries with the same scripted call index, so the fallback answers with its own script at that index", async () => {
    const { options } = recorder();
    const models: ModelDefinition[] = [
      {
        name: "primary",
        provider: "scripted",
        model: "scripted",
        script: [{ text: "p0" }, { error: "boom" }],
        fallbacks: ["backup"],
      },
      { name: "backup", provider: "scripted", model: "scripted", script: [{ text: "b0" }, { text: "b1" }] },
    ];
    const result = await callModel("primary", models, request({ scriptedCallIndex: 1 }), options);
    expect(result.text).toBe("b1");
  });

  it("throws the spec's exhaustion error with the last error in its details", async () => {
    const { options, delays } = recorder();
    const models = [failing("primary", ["second"]), failing("second")];
    const error = await callModel("primary", models, request(), options).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ModelCallFailedError);
    const failed = error as ModelCallFailedError;
    expect(failed.message).toBe("All retry attempts exhausted for model primary and 1 fallbacks");
    expect(failed.code).toBe("model_call_failed");
    expect(failed.details.lastError).toBe("second is down");
    expect((failed.cause as Error).message).toBe("second is down");
    expect(failed.attempts).toHaveLength(4);
    expect(delays).toEqual([1000, 1000]);
  });

  it("rejects an unknown model name", async () => {
    await expect(callModel("nope", [], request())).rejects.toBeInstanceOf(ModelNotFoundError);
    await expect(callModel("nope", [], request())).rejects.toMatchObject({ code: "model_not_found" });
  });

  it("treats an unknown fallback name as a failed model and moves on", async () => {
    const { options, telemetry } = recorder();
    const models: ModelDefinition[] = [
      failing("primary", ["ghost", "real"]),
      { name: "real", provider: "scripted", model: "scripted", script: [{ text: "ok" }] },
    ];
    const result = await callModel("primary", models, request(), options);
    expect(result.modelName).toBe("real");
    expect(telemetry.filter((event) => event.type === "llm_request" && event.model === "ghost")).toHaveLength(
      1,
    );
  });

  it("names the missing API key variable (never a value) and falls back without an in-place retry", async () => {
    const { options, telemetry, delays } = recorder();
    const models: ModelDefinition[] = [
      { name: "gpt", provider: "openai", model: "gpt-4o", apiKeyEnv: "MY_OPENAI_KEY", fallbacks: ["local"] },
      { name: "local", provider: "scripted", model: "scripted", script: [{ text: "fallback" }] },
    ];
    const result = await callModel("gpt", models, request(), { ...options, env: { OTHER: "secret-value" } });
    expect(result.text).toBe("fallback");
    expect(delays).toEqual([]);
    const error = telemetry.find((event) => event.type === "llm_error");
    expect(error).toMatchObject({ model: "gpt", attempt: 1 });
    expect(error?.type === "llm_error" && error.error).toContain("MY_OPENAI_KEY");

    const alone = await callModel("gpt", [{ ...models[0]!, fallbacks: [] }], request(), {
      ...options,
      env: {},
    }).catch((caught: unknown) => caught);
    expect(alone).toBeInstanceOf(ModelCallFailedError);
    expect((alone as ModelCallFailedError).cause).toBeInstanceOf(ModelApiKeyMissingError);
    expect((alone as ModelCallFailedError).message).toBe(
      "All retry attempts exhausted for model gpt and 0 fallbacks",
    );
  });

  it("uses the provider's default key variable when the model names none", async () => {
    const models: ModelDefinition[] = [{ name: "claude", provider: "anthropic", model: "claude-x" }];
    const error = await callModel("claude", models, request(), { env: {}, sleep: async () => {} }).catch(
      (caught: unknown) => caught,
    );
    expect(String((error as ModelCallFailedError).details.lastError)).toContain("ANTHROPIC_API_KEY");
  });

  it("stops at once on a user abort during a call, without walking the fallbacks", async () => {
    const { options, telemetry } = recorder();
    const controller = new AbortController();
    const models: ModelDefinition[] = [
      {
        name: "slow",
        provider: "scripted",
        model: "scripted",
        script: [{ text: "slow answer", delayMs: 5_000 }],
        fallbacks: ["backup"],
      },
      { name: "backup", provider: "scripted", model: "scripted", script: [{ text: "backup" }] },
    ];
    setTimeout(() => controller.abort(), 20);
    const error = await callModel("slow", models, request({ abortSignal: controller.signal }), options).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(ModelAbortedError);
    expect((error as ModelAbortedError).code).toBe("model_aborted");
    expect(telemetry).toEqual([{ type: "llm_request", model: "slow", attempt: 1 }]);
  });

  it("stops on a user abort during the back-off", async () => {
    const controller = new AbortController();
    const telemetry: ModelTelemetry[] = [];
    const models = [failing("primary", ["second"]), failing("second")];
    const error = await callModel("primary", models, request({ abortSignal: controller.signal }), {
      sleep: async () => controller.abort(),
      onTelemetry: (event) => telemetry.push(event),
    }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ModelAbortedError);
    expect(telemetry.some((event) => event.type === "fallback_triggered")).toBe(false);
    expect(telemetry.filter((event) => event.type === "llm_request")).toHaveLength(1);
  });

  it("does not start when the signal is already aborted", async () => {
    const models: ModelDefinition[] = [{ name: "m", provider: "scripted", model: "scripted" }];
    await expect(
      callModel("m", models, request({ abortSignal: AbortSignal.abort() })),
    ).rejects.toBeInstanceOf(ModelAbortedError);
  });

  it("goes through the injected language model factory for AI SDK providers", async () => {
    const seen: string[] = [];
    const models: ModelDefinition[] = [
      { name: "local", provider: "openai-compatible", model: "m", baseURL: "http://127.0.0.1:1/v1" },
    ];
    const result = await callModel("local", models, request(), {
      createLanguageModel: (definition) => {
        seen.push(definition.name);
        return new MockLanguageModelV4({
          doStream: async () => ({
            stream: new ReadableStream({
              start(controller) {
                controller.enqueue({ type: "stream-start", warnings: [] });
                controller.enqueue({ type: "text-start", id: "t" });
                controller.enqueue({ type: "text-delta", id: "t", delta: "mocked" });
                controller.enqueue({ type: "text-end", id: "t" });
                controller.enqueue({
                  type: "finish",
                  finishReason: { unified: "stop", raw: "stop" },
                  usage: {
                    inputTokens: { total: 7, noCache: 4, cacheRead: 3, cacheWrite: 0 },
                    outputTokens: { total: 2, text: 2, reasoning: 0 },
                  },
                });
                controller.close();
              },
            }),
          }),
        });
      },
    });
    expect(seen).toEqual(["local"]);
    expect(result.text).toBe("mocked");
    expect(result.usage).toEqual({ inputTokens: 7, outputTokens: 2, cachedInputTokens: 3 });
  });
});
