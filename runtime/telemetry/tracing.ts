// Traces out (docs/observability.md): the OpenTelemetry SDK, configured only by the standard
// variables, started once per process on first use — or never, when no OTLP endpoint is set: then
// `tracing()` is a constant whose `enabled` is false and nothing else of this module runs.
//
// The runtime's spans are recorded after the fact, with their real start and end times, from
// whichever process did the work: a thread's run (`invoke_agent`) can start in one process and end
// in another, so its span id is chosen when the run starts and stored with the thread
// (runtime/store/thread-traces.ts), and the span is written by the process that ends the run. The
// SDK's id generator takes such a chosen id for the next span (`PresetIdGenerator`).
import { createHash, randomBytes } from "node:crypto";
import {
  type Attributes,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  type TimeInput,
  TraceFlags,
  trace,
} from "@opentelemetry/api";
import { OTLPTraceExporter as OtlpJsonTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { OTLPTraceExporter as OtlpProtobufTraceExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import { resourceFromAttributes } from "@opentelemetry/resources";
import {
  AlwaysOnSampler,
  BasicTracerProvider,
  BatchSpanProcessor,
  type IdGenerator,
} from "@opentelemetry/sdk-trace-base";

/** The settings read from the standard variables; null when traces are off. */
export interface TracingSettings {
  protocol: "http/protobuf" | "http/json";
  serviceName: string;
  captureContent: boolean;
  scheduledDelayMs: number;
}

const TRUE = new Set(["1", "true", "yes", "on"]);

export function tracingSettingsFromEnv(env: Record<string, string | undefined>): TracingSettings | null {
  const endpoint = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim() || env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  if (!endpoint) return null;
  if (TRUE.has((env.OTEL_SDK_DISABLED ?? "").toLowerCase())) return null;
  if ((env.OTEL_TRACES_EXPORTER ?? "").trim().toLowerCase() === "none") return null;
  const rawProtocol = (env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL || env.OTEL_EXPORTER_OTLP_PROTOCOL || "")
    .trim()
    .toLowerCase();
  let protocol: TracingSettings["protocol"] = "http/protobuf";
  if (rawProtocol === "http/json") protocol = "http/json";
  else if (rawProtocol !== "" && rawProtocol !== "http/protobuf")
    console.warn(
      `[tandem] OTEL_EXPORTER_OTLP_PROTOCOL=${rawProtocol} is not supported (http/protobuf or http/json): traces go out as http/protobuf`,
    );
  const delay = Number(env.OTEL_BSP_SCHEDULE_DELAY);
  return {
    protocol,
    serviceName: env.OTEL_SERVICE_NAME?.trim() || "tandem",
    captureContent: TRUE.has((env.OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT ?? "").toLowerCase()),
    scheduledDelayMs: Number.isFinite(delay) && delay >= 0 ? delay : 1000,
  };
}

/** Where a span hangs: a trace, and the span it is a child of (null: the trace's root). */
export interface SpanParent {
  traceId: string;
  spanId: string | null;
}

/** A span written after the fact. */
export interface FinishedSpan {
  name: string;
  parent: SpanParent;
  /** The span's own id when it was chosen beforehand (a run, a tool call); else a random one. */
  spanId?: string;
  kind?: SpanKind;
  /** Milliseconds since the epoch. */
  startMs: number;
  endMs: number;
  attributes: Attributes;
  events?: { name: string; attributes?: Attributes; timeMs?: number }[];
  /** Sets the span's status to ERROR with this description. */
  error?: string | null;
}

export interface Tracing {
  readonly enabled: boolean;
  readonly captureContent: boolean;
  record(span: FinishedSpan): void;
  /** Sends what is buffered (before a process exits). */
  shutdown(): Promise<void>;
}

const DISABLED: Tracing = {
  enabled: false,
  captureContent: false,
  record: () => {},
  shutdown: async () => {},
};

/** Random ids, unless the next id was chosen beforehand (consumed by the next span started). */
class PresetIdGenerator implements IdGenerator {
  nextTraceId: string | null = null;
  nextSpanId: string | null = null;

  generateTraceId(): string {
    const preset = this.nextTraceId;
    this.nextTraceId = null;
    return preset ?? randomTraceId();
  }

  generateSpanId(): string {
    const preset = this.nextSpanId;
    this.nextSpanId = null;
    return preset ?? randomSpanId();
  }
}

class ExportingTracing implements Tracing {
  readonly enabled = true;
  readonly captureContent: boolean;
  private readonly provider: BasicTracerProvider;
  private readonly ids = new PresetIdGenerator();
  private readonly tracer;

  constructor(settings: TracingSettings) {
    this.captureContent = settings.captureContent;
    // The exporters read OTEL_EXPORTER_OTLP_(TRACES_)ENDPOINT and OTEL_EXPORTER_OTLP_(TRACES_)HEADERS.
    const exporter =
      settings.protocol === "http/json" ? new OtlpJsonTraceExporter() : new OtlpProtobufTraceExporter();
    this.provider = new BasicTracerProvider({
      resource: resourceFromAttributes({ "service.name": settings.serviceName }),
      idGenerator: this.ids,
      sampler: new AlwaysOnSampler(),
      spanProcessors: [new BatchSpanProcessor(exporter, { scheduledDelayMillis: settings.scheduledDelayMs })],
    });
    this.tracer = this.provider.getTracer("tandem");
  }

  record(span: FinishedSpan): void {
    const parentContext =
      span.parent.spanId === null
        ? ROOT_CONTEXT
        : trace.setSpanContext(ROOT_CONTEXT, {
            traceId: span.parent.traceId,
            spanId: span.parent.spanId,
            traceFlags: TraceFlags.SAMPLED,
            isRemote: true,
          });
    if (span.parent.spanId === null) this.ids.nextTraceId = span.parent.traceId;
    this.ids.nextSpanId = span.spanId ?? null;
    let started: Span;
    try {
      started = this.tracer.startSpan(
        span.name,
        {
          kind: span.kind ?? SpanKind.INTERNAL,
          startTime: span.startMs as TimeInput,
          attributes: span.attributes,
        },
        parentContext,
      );
    } finally {
      this.ids.nextTraceId = null;
      this.ids.nextSpanId = null;
    }
    for (const event of span.events ?? []) started.addEvent(event.name, event.attributes, event.timeMs);
    if (span.error) started.setStatus({ code: SpanStatusCode.ERROR, message: span.error });
    started.end(Math.max(span.endMs, span.startMs));
  }

  shutdown(): Promise<void> {
    return this.provider.shutdown();
  }
}

const KEY = Symbol.for("tandem.tracing");
type Holder = { [KEY]?: Tracing };

/** Tracing with these settings (null: off); `tracing()` is the process's own. */
export function createTracing(settings: TracingSettings | null): Tracing {
  return settings ? new ExportingTracing(settings) : DISABLED;
}

/** This process's tracing, started from the environment on first use (one per process). */
export function tracing(): Tracing {
  const holder = globalThis as Holder;
  let current = holder[KEY];
  if (!current) {
    const settings = tracingSettingsFromEnv(process.env);
    current = createTracing(settings);
    holder[KEY] = current;
  }
  return current;
}

/**
 * Puts `replacement` in place of this process's tracing (the benchmark compares steps/s with traces
 * off and on in one process); returns the one it replaced. Never called by the product.
 */
export function replaceTracing(replacement: Tracing): Tracing {
  const holder = globalThis as Holder;
  const previous = tracing();
  holder[KEY] = replacement;
  return previous;
}

export function randomTraceId(): string {
  return randomBytes(16).toString("hex");
}

export function randomSpanId(): string {
  return randomBytes(8).toString("hex");
}

/**
 * The span id of a tool call's `execute_tool` span, the same in every process: a child spawned by
 * the call stores it as its parent before the span is written (tool-call ids are unique per thread).
 */
export function toolCallSpanId(threadId: string, toolCallId: string): string {
  return createHash("sha256").update(`${threadId}\u0000${toolCallId}`).digest("hex").slice(0, 16);
}

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

/** A W3C `traceparent` header's trace and span; null when absent or malformed (then it is ignored). */
export function parseTraceparent(
  header: string | null | undefined,
): { traceId: string; spanId: string } | null {
  const match = TRACEPARENT.exec((header ?? "").trim().toLowerCase());
  if (!match || match[1] === "ff") return null;
  const traceId = match[2]!;
  const spanId = match[3]!;
  if (/^0+$/.test(traceId) || /^0+$/.test(spanId)) return null;
  return { traceId, spanId };
}
