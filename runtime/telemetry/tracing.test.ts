// Traces out: the settings read from the standard variables, the W3C traceparent parser, and the
// SDK's OTLP exporters in both encodings against a real OTLP/HTTP receiver (test/support).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type OtlpReceiver, startOtlpReceiver } from "../../test/support/otlp-receiver";
import {
  createTracing,
  parseTraceparent,
  randomSpanId,
  randomTraceId,
  toolCallSpanId,
  tracingSettingsFromEnv,
} from "./tracing";

describe("tracingSettingsFromEnv", () => {
  it("is off without an OTLP endpoint, or when the SDK or the traces exporter is switched off", () => {
    expect(tracingSettingsFromEnv({})).toBeNull();
    expect(tracingSettingsFromEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: "  " })).toBeNull();
    expect(
      tracingSettingsFromEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://x", OTEL_SDK_DISABLED: "true" }),
    ).toBeNull();
    expect(
      tracingSettingsFromEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://x", OTEL_TRACES_EXPORTER: "none" }),
    ).toBeNull();
  });

  it("reads the protocol (protobuf by default), the service name (tandem by default) and the content opt-in", () => {
    expect(tracingSettingsFromEnv({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://x/v1/traces" })).toEqual({
      protocol: "http/protobuf",
      serviceName: "tandem",
      captureContent: false,
      scheduledDelayMs: 1000,
    });
    expect(
      tracingSettingsFromEnv({
        OTEL_EXPORTER_OTLP_ENDPOINT: "http://x",
        OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
        OTEL_SERVICE_NAME: "agents",
        OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: "true",
        OTEL_BSP_SCHEDULE_DELAY: "50",
      }),
    ).toEqual({ protocol: "http/json", serviceName: "agents", captureContent: true, scheduledDelayMs: 50 });
    // The signal's own variable wins over the general one.
    expect(
      tracingSettingsFromEnv({
        OTEL_EXPORTER_OTLP_ENDPOINT: "http://x",
        OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
        OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: "http/protobuf",
      })?.protocol,
    ).toBe("http/protobuf");
  });
});

describe("parseTraceparent", () => {
  const traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
  const spanId = "00f067aa0ba902b7";

  it("reads a version-00 header's trace and parent span", () => {
    expect(parseTraceparent(`00-${traceId}-${spanId}-01`)).toEqual({ traceId, spanId });
    expect(parseTraceparent(` 00-${traceId.toUpperCase()}-${spanId}-00 `)).toEqual({ traceId, spanId });
  });

  it("ignores absent, malformed and all-zero headers", () => {
    expect(parseTraceparent(null)).toBeNull();
    expect(parseTraceparent("")).toBeNull();
    expect(parseTraceparent(`00-${traceId}-${spanId}`)).toBeNull();
    expect(parseTraceparent(`ff-${traceId}-${spanId}-01`)).toBeNull();
    expect(parseTraceparent(`00-${"0".repeat(32)}-${spanId}-01`)).toBeNull();
    expect(parseTraceparent(`00-${traceId}-${"0".repeat(16)}-01`)).toBeNull();
    expect(parseTraceparent(`00-${traceId}-${spanId}-01x`)).toBeNull();
  });
});

describe("toolCallSpanId", () => {
  it("is the same for a thread's call in every process, and differs between calls and threads", () => {
    const id = toolCallSpanId("thread-1", "call-1");
    expect(id).toMatch(/^[0-9a-f]{16}$/);
    expect(toolCallSpanId("thread-1", "call-1")).toBe(id);
    expect(toolCallSpanId("thread-1", "call-2")).not.toBe(id);
    expect(toolCallSpanId("thread-2", "call-1")).not.toBe(id);
  });
});

describe("exporting to a real OTLP/HTTP receiver", () => {
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
    it(`sends spans over ${protocol} with the chosen ids, parents, times, events and status`, async () => {
      process.env.OTEL_EXPORTER_OTLP_ENDPOINT = receiver.endpoint;
      process.env.OTEL_EXPORTER_OTLP_HEADERS = "x-tenant=tandem-test";
      const tracing = createTracing({
        protocol,
        serviceName: `svc-${protocol}`,
        captureContent: false,
        scheduledDelayMs: 10,
      });
      const traceId = randomTraceId();
      const runSpanId = randomSpanId();
      const started = Date.now() - 500;
      tracing.record({
        name: "invoke_agent writer",
        parent: { traceId, spanId: null },
        spanId: runSpanId,
        startMs: started,
        endMs: started + 400,
        attributes: { "gen_ai.operation.name": "invoke_agent", "gen_ai.usage.input_tokens": 12 },
        events: [{ name: "tandem.approval", attributes: { "tandem.approval.decision": "approved" } }],
        error: "it failed",
      });
      tracing.record({
        name: "chat gpt-x",
        parent: { traceId, spanId: runSpanId },
        startMs: started + 10,
        endMs: started + 20,
        attributes: { "gen_ai.response.finish_reasons": ["stop"] },
      });
      await tracing.shutdown();
      const spans = receiver.spans.filter((span) => span.traceId === traceId);
      expect(spans.map((span) => span.name).sort()).toEqual(["chat gpt-x", "invoke_agent writer"]);
      const run = spans.find((span) => span.name === "invoke_agent writer")!;
      const chat = spans.find((span) => span.name === "chat gpt-x")!;
      expect(run).toMatchObject({
        spanId: runSpanId,
        parentSpanId: "",
        statusCode: 2,
        statusMessage: "it failed",
        attributes: { "gen_ai.operation.name": "invoke_agent", "gen_ai.usage.input_tokens": 12 },
        events: [{ name: "tandem.approval", attributes: { "tandem.approval.decision": "approved" } }],
        resource: { "service.name": `svc-${protocol}` },
      });
      expect(run.endNs - run.startNs).toBe(400_000_000n);
      expect(chat.parentSpanId).toBe(runSpanId);
      expect(chat.attributes["gen_ai.response.finish_reasons"]).toEqual(["stop"]);
      const request = receiver.requests.at(-1)!;
      expect(request.contentType).toBe(
        protocol === "http/json" ? "application/json" : "application/x-protobuf",
      );
      expect(request.headers["x-tenant"]).toBe("tandem-test");
    });
  }
});
