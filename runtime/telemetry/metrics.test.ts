// Metrics out: the settings read from the standard variables, and the SDK's OTLP metric exporters in
// both encodings against a real OTLP/HTTP receiver (test/support): the GenAI client metrics of a
// model call that answered and of one that failed, step latency, commit batch sizes and the gauges.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ModelDefinition } from "@/lib/standard";
import {
  type OtlpReceiver,
  type ReceivedMetricPoint,
  startOtlpReceiver,
} from "../../test/support/otlp-receiver";
import { ModelCallFailedError } from "../models/errors";
import type { ModelCallResult } from "../models/types";
import { createMetrics, metricsSettingsFromEnv, modelErrorType } from "./metrics";

describe("metricsSettingsFromEnv", () => {
  it("is off without an OTLP endpoint, or when the SDK or the metrics exporter is switched off", () => {
    expect(metricsSettingsFromEnv({})).toBeNull();
    expect(metricsSettingsFromEnv({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://x/v1/traces" })).toBeNull();
    expect(
      metricsSettingsFromEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://x", OTEL_SDK_DISABLED: "true" }),
    ).toBeNull();
    expect(
      metricsSettingsFromEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://x", OTEL_METRICS_EXPORTER: "none" }),
    ).toBeNull();
  });

  it("reads the endpoint, protocol, service name, interval and timeout (the timeout at most the interval)", () => {
    expect(metricsSettingsFromEnv({ OTEL_EXPORTER_OTLP_METRICS_ENDPOINT: "http://x/v1/metrics" })).toEqual({
      protocol: "http/protobuf",
      serviceName: "tandem",
      exportIntervalMs: 60_000,
      exportTimeoutMs: 30_000,
    });
    expect(
      metricsSettingsFromEnv({
        OTEL_EXPORTER_OTLP_ENDPOINT: "http://x",
        OTEL_EXPORTER_OTLP_PROTOCOL: "http/protobuf",
        OTEL_EXPORTER_OTLP_METRICS_PROTOCOL: "http/json",
        OTEL_SERVICE_NAME: "agents",
        OTEL_METRIC_EXPORT_INTERVAL: "5000",
      }),
    ).toEqual({
      protocol: "http/json",
      serviceName: "agents",
      exportIntervalMs: 5000,
      exportTimeoutMs: 5000,
    });
    expect(
      metricsSettingsFromEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://x", OTEL_METRIC_EXPORT_INTERVAL: "soon" })
        ?.exportIntervalMs,
    ).toBe(60_000);
  });

  it("names a failure by the model layer's code, else by the error's class", () => {
    expect(modelErrorType(new ModelCallFailedError("m", 0, [], new Error("boom")))).toBe("model_call_failed");
    expect(modelErrorType(new TypeError("x"))).toBe("TypeError");
    expect(modelErrorType("a string")).toBe("_OTHER");
  });
});

const MODELS: ModelDefinition[] = [{ name: "fast", provider: "openai", model: "gpt-x" } as ModelDefinition];

function answered(): ModelCallResult {
  return {
    text: "hi",
    toolCalls: [],
    usage: { inputTokens: 120, outputTokens: 7, cachedInputTokens: 0 },
    costUsd: 0,
    modelName: "fast",
    providerModelId: "gpt-x-2026",
    provider: "openai",
    latencyMs: 3,
  } as ModelCallResult;
}

const point = (points: ReceivedMetricPoint[], name: string, attributes: Record<string, unknown> = {}) =>
  points.find(
    (entry) =>
      entry.name === name &&
      Object.entries(attributes).every(([key, value]) => entry.attributes[key] === value),
  );

describe("exporting metrics to a real OTLP/HTTP receiver", () => {
  let receiver: OtlpReceiver;
  const saved = { ...process.env };

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
  });

  afterAll(async () => {
    process.env = saved;
    await receiver.close();
  });

  for (const protocol of ["http/protobuf", "http/json"] as const) {
    it(`sends the GenAI client metrics and Tandem's own over ${protocol}`, async () => {
      process.env.OTEL_EXPORTER_OTLP_ENDPOINT = receiver.endpoint;
      process.env.OTEL_EXPORTER_OTLP_HEADERS = "x-tenant=tandem-test";
      const serviceName = `metrics-${protocol}`;
      const metrics = createMetrics({
        protocol,
        serviceName,
        exportIntervalMs: 60_000,
        exportTimeoutMs: 5_000,
      });
      const call = metrics.meterModelCalls(
        async (name: string, _models, _request, options: { fail: boolean }) => {
          if (options.fail) throw new ModelCallFailedError(name, 0, [], new Error("HTTP 500"));
          return answered();
        },
      );
      await call("fast", MODELS, { messages: [] } as never, { fail: false });
      await expect(call("fast", MODELS, { messages: [] } as never, { fail: true })).rejects.toThrow(
        "All retry attempts exhausted",
      );
      metrics.step(0.25, "continue");
      metrics.step(0.5, "parked");
      metrics.commitBatch(5);
      metrics.commitBatch(1);
      metrics.observe({
        queue: async () => ({ waiting: 3, oldestWaitingMs: 1500 }),
        stepsInFlight: () => 2,
        eventStreamViewers: () => 4,
      });
      await metrics.shutdown(); // collects and exports once
      const points = receiver.metrics.filter((entry) => entry.resource["service.name"] === serviceName);

      const chat = {
        "gen_ai.operation.name": "chat",
        "gen_ai.provider.name": "openai",
        "gen_ai.request.model": "gpt-x",
      };
      const input = point(points, "gen_ai.client.token.usage", { ...chat, "gen_ai.token.type": "input" });
      const output = point(points, "gen_ai.client.token.usage", { ...chat, "gen_ai.token.type": "output" });
      expect(input).toMatchObject({ kind: "histogram", unit: "{token}", count: 1, sum: 120 });
      expect(input?.attributes["gen_ai.response.model"]).toBe("gpt-x-2026");
      expect(input?.explicitBounds?.slice(0, 3)).toEqual([1, 4, 16]);
      expect(output).toMatchObject({ count: 1, sum: 7 });
      const durations = points.filter((entry) => entry.name === "gen_ai.client.operation.duration");
      expect(durations.map((entry) => entry.unit)).toEqual(["s", "s"]);
      expect(durations.find((entry) => entry.attributes["error.type"] === undefined)).toMatchObject({
        count: 1,
        attributes: chat,
      });
      expect(durations.find((entry) => entry.attributes["error.type"] === "model_call_failed")).toMatchObject(
        {
          count: 1,
          attributes: chat,
        },
      );

      expect(point(points, "tandem.step.duration", { "tandem.step.outcome": "continue" })).toMatchObject({
        unit: "s",
        count: 1,
        sum: 0.25,
      });
      expect(point(points, "tandem.step.duration", { "tandem.step.outcome": "parked" })).toMatchObject({
        sum: 0.5,
      });
      expect(point(points, "tandem.commit.batch_size")).toMatchObject({ unit: "{commit}", count: 2, sum: 6 });
      expect(point(points, "tandem.queue.depth")).toMatchObject({
        kind: "gauge",
        unit: "{thread}",
        value: 3,
      });
      expect(point(points, "tandem.queue.oldest_wait")).toMatchObject({ unit: "s", value: 1.5 });
      expect(point(points, "tandem.steps.in_flight")).toMatchObject({ unit: "{step}", value: 2 });
      expect(point(points, "tandem.event_stream.viewers")).toMatchObject({ unit: "{connection}", value: 4 });

      const request = receiver.requests.filter((entry) => entry.path === "/v1/metrics").at(-1)!;
      expect(request.contentType).toBe(
        protocol === "http/json" ? "application/json" : "application/x-protobuf",
      );
      expect(request.headers["x-tenant"]).toBe("tandem-test");
    });
  }

  it("is inert when unset: the same callModel back, nothing sent", async () => {
    const metrics = createMetrics(null);
    const call = async () => answered();
    expect(metrics.enabled).toBe(false);
    expect(metrics.meterModelCalls(call)).toBe(call);
  });
});
