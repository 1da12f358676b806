// Metrics out (docs/observability.md "Metrics"): the OpenTelemetry metrics SDK with its OTLP/HTTP
// exporters, configured only by the standard variables, started once per process on first use — or
// never, when no OTLP endpoint is set: then `metrics()` is a constant whose `enabled` is false, the
// runtime wires none of its hooks, and the step loop pays one boolean per call site.
//
// Instruments: the GenAI client metrics of the semantic conventions (`gen_ai.client.token.usage`,
// `gen_ai.client.operation.duration`) for every model call this process makes, and Tandem's own
// (`tandem.*`): queue depth, steps in flight, step latency, commit batch sizes, event-stream viewers.
// Gauges are read when the exporter collects (every OTEL_METRIC_EXPORT_INTERVAL), never per step.
import { type Attributes, type Histogram, ValueType } from "@opentelemetry/api";
import { OTLPMetricExporter as OtlpJsonMetricExporter } from "@opentelemetry/exporter-metrics-otlp-http";
import { OTLPMetricExporter as OtlpProtobufMetricExporter } from "@opentelemetry/exporter-metrics-otlp-proto";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { MeterProvider, PeriodicExportingMetricReader } from "@opentelemetry/sdk-metrics";
import type { ModelDefinition } from "@/lib/standard";
import type { ModelCallRequest, ModelCallResult } from "../models/types";

/** The settings read from the standard variables; null when metrics are off. */
export interface MetricsSettings {
  protocol: "http/protobuf" | "http/json";
  serviceName: string;
  /** OTEL_METRIC_EXPORT_INTERVAL: ms between two exports (default 60000). */
  exportIntervalMs: number;
  /** OTEL_METRIC_EXPORT_TIMEOUT: ms an export may take (default 30000, at most the interval). */
  exportTimeoutMs: number;
}

const TRUE = new Set(["1", "true", "yes", "on"]);

function positiveMs(raw: string | undefined, fallback: number): number {
  const value = Number(raw?.trim() || Number.NaN);
  return Number.isFinite(value) && value > 0 ? Math.round(value) : fallback;
}

export function metricsSettingsFromEnv(env: Record<string, string | undefined>): MetricsSettings | null {
  const endpoint = env.OTEL_EXPORTER_OTLP_METRICS_ENDPOINT?.trim() || env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  if (!endpoint) return null;
  if (TRUE.has((env.OTEL_SDK_DISABLED ?? "").trim().toLowerCase())) return null;
  if ((env.OTEL_METRICS_EXPORTER ?? "").trim().toLowerCase() === "none") return null;
  const rawProtocol = (env.OTEL_EXPORTER_OTLP_METRICS_PROTOCOL || env.OTEL_EXPORTER_OTLP_PROTOCOL || "")
    .trim()
    .toLowerCase();
  let protocol: MetricsSettings["protocol"] = "http/protobuf";
  if (rawProtocol === "http/json") protocol = "http/json";
  else if (rawProtocol !== "" && rawProtocol !== "http/protobuf")
    console.warn(
      `[tandem] OTEL_EXPORTER_OTLP_PROTOCOL=${rawProtocol} is not supported (http/protobuf or http/json): metrics go out as http/protobuf`,
    );
  const exportIntervalMs = positiveMs(env.OTEL_METRIC_EXPORT_INTERVAL, 60_000);
  return {
    protocol,
    serviceName: env.OTEL_SERVICE_NAME?.trim() || "tandem",
    exportIntervalMs,
    // The SDK refuses a timeout longer than the interval.
    exportTimeoutMs: Math.min(positiveMs(env.OTEL_METRIC_EXPORT_TIMEOUT, 30_000), exportIntervalMs),
  };
}

/** What the process's gauges read when the exporter collects (each optional). */
export interface MetricSources {
  /** Runnable threads waiting for a scheduler (every process on the database) and the oldest wait. */
  queue?: () => Promise<{ waiting: number; oldestWaitingMs: number | null }>;
  /** Threads this process is running a step of. */
  stepsInFlight?: () => number;
  /** Open event streams (SSE connections) this process serves. */
  eventStreamViewers?: () => number;
}

/** A model call as `callModel` does it: the function the runtime meters. */
type CallModel<Options> = (
  modelName: string,
  models: ModelDefinition[],
  request: ModelCallRequest,
  options: Options,
) => Promise<ModelCallResult>;

export interface Metrics {
  readonly enabled: boolean;
  /** `callModel` with the GenAI client metrics recorded for each call (the same function when off). */
  meterModelCalls<Options>(call: CallModel<Options>): CallModel<Options>;
  /** One step of a thread took `seconds` and ended with `outcome`. */
  step(seconds: number, outcome: string): void;
  /** One transaction committed `parts` threads' one-statement commits (group commit; 1 = alone). */
  commitBatch(parts: number): void;
  /** Registers the gauges' sources (once per process: later calls replace them). */
  observe(sources: MetricSources): void;
  /** Collects and exports now (tests, the benchmark). */
  flush(): Promise<void>;
  /** Exports what is left (before a process exits). */
  shutdown(): Promise<void>;
}

const DISABLED: Metrics = {
  enabled: false,
  meterModelCalls: (call) => call,
  step: () => {},
  commitBatch: () => {},
  observe: () => {},
  flush: async () => {},
  shutdown: async () => {},
};

// Bucket boundaries the GenAI semantic conventions advise for these two histograms.
const TOKEN_BUCKETS = [
  1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304, 16777216, 67108864,
];
const DURATION_BUCKETS = [
  0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92,
];
const STEP_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];
const BATCH_BUCKETS = [1, 2, 4, 8, 16, 32, 64, 128, 256];

/** `error.type` of a failed model call: the model layer's stable code, else the error's class. */
export function modelErrorType(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === "string" && code !== "") return code;
  if (error instanceof Error && error.name) return error.name;
  return "_OTHER";
}

class ExportingMetrics implements Metrics {
  readonly enabled = true;
  private readonly provider: MeterProvider;
  private readonly tokenUsage: Histogram;
  private readonly operationDuration: Histogram;
  private readonly stepDuration: Histogram;
  private readonly batchSize: Histogram;
  private sources: MetricSources = {};

  constructor(settings: MetricsSettings) {
    // The exporters read OTEL_EXPORTER_OTLP_(METRICS_)ENDPOINT and OTEL_EXPORTER_OTLP_(METRICS_)HEADERS.
    const exporter =
      settings.protocol === "http/json" ? new OtlpJsonMetricExporter() : new OtlpProtobufMetricExporter();
    this.provider = new MeterProvider({
      resource: resourceFromAttributes({ "service.name": settings.serviceName }),
      readers: [
        new PeriodicExportingMetricReader({
          exporter,
          exportIntervalMillis: settings.exportIntervalMs,
          exportTimeoutMillis: settings.exportTimeoutMs,
        }),
      ],
    });
    const meter = this.provider.getMeter("tandem");
    this.tokenUsage = meter.createHistogram("gen_ai.client.token.usage", {
      description: "Number of input and output tokens used",
      unit: "{token}",
      valueType: ValueType.INT,
      advice: { explicitBucketBoundaries: TOKEN_BUCKETS },
    });
    this.operationDuration = meter.createHistogram("gen_ai.client.operation.duration", {
      description: "GenAI operation duration",
      unit: "s",
      advice: { explicitBucketBoundaries: DURATION_BUCKETS },
    });
    this.stepDuration = meter.createHistogram("tandem.step.duration", {
      description: "How long one step of a thread took, model call included",
      unit: "s",
      advice: { explicitBucketBoundaries: STEP_BUCKETS },
    });
    this.batchSize = meter.createHistogram("tandem.commit.batch_size", {
      description: "Threads' commits sent in one transaction by group commit (1: alone)",
      unit: "{commit}",
      valueType: ValueType.INT,
      advice: { explicitBucketBoundaries: BATCH_BUCKETS },
    });
    const queueDepth = meter.createObservableGauge("tandem.queue.depth", {
      description: "Runnable threads waiting for a scheduler (all processes on the database)",
      unit: "{thread}",
      valueType: ValueType.INT,
    });
    const oldestWait = meter.createObservableGauge("tandem.queue.oldest_wait", {
      description: "How long the longest-waiting runnable thread has waited",
      unit: "s",
    });
    const inFlight = meter.createObservableGauge("tandem.steps.in_flight", {
      description: "Threads this process is running a step of",
      unit: "{step}",
      valueType: ValueType.INT,
    });
    const viewers = meter.createObservableGauge("tandem.event_stream.viewers", {
      description: "Open event streams (SSE connections) this process serves",
      unit: "{connection}",
      valueType: ValueType.INT,
    });
    meter.addBatchObservableCallback(
      async (observer) => {
        const { queue, stepsInFlight, eventStreamViewers } = this.sources;
        if (stepsInFlight) observer.observe(inFlight, stepsInFlight());
        if (eventStreamViewers) observer.observe(viewers, eventStreamViewers());
        if (queue) {
          try {
            const read = await queue();
            observer.observe(queueDepth, read.waiting);
            observer.observe(oldestWait, (read.oldestWaitingMs ?? 0) / 1000);
          } catch (error) {
            console.error("[tandem] reading the queue depth for metrics failed:", error);
          }
        }
      },
      [queueDepth, oldestWait, inFlight, viewers],
    );
  }

  meterModelCalls<Options>(call: CallModel<Options>): CallModel<Options> {
    return async (modelName, models, request, options) => {
      const started = performance.now();
      // The provider's model id, as on the `chat` span (the definition's name when it has none).
      const definition = models.find((model) => model.name === modelName);
      const requestModel = definition?.model || modelName;
      try {
        const result = await call(modelName, models, request, options);
        const attributes: Attributes = {
          "gen_ai.operation.name": "chat",
          "gen_ai.provider.name": result.provider,
          "gen_ai.request.model": requestModel,
          "gen_ai.response.model": result.providerModelId,
        };
        this.operationDuration.record((performance.now() - started) / 1000, attributes);
        this.tokenUsage.record(result.usage.inputTokens, { ...attributes, "gen_ai.token.type": "input" });
        this.tokenUsage.record(result.usage.outputTokens, { ...attributes, "gen_ai.token.type": "output" });
        return result;
      } catch (error) {
        this.operationDuration.record((performance.now() - started) / 1000, {
          "gen_ai.operation.name": "chat",
          "gen_ai.provider.name": definition?.provider ?? "unknown",
          "gen_ai.request.model": requestModel,
          "error.type": modelErrorType(error),
        });
        throw error;
      }
    };
  }

  step(seconds: number, outcome: string): void {
    this.stepDuration.record(seconds, { "tandem.step.outcome": outcome });
  }

  commitBatch(parts: number): void {
    this.batchSize.record(parts);
  }

  observe(sources: MetricSources): void {
    this.sources = sources;
  }

  flush(): Promise<void> {
    return this.provider.forceFlush();
  }

  shutdown(): Promise<void> {
    return this.provider.shutdown();
  }
}

const KEY = Symbol.for("tandem.metrics");
type Holder = { [KEY]?: Metrics };

/** Metrics with these settings (null: off); `metrics()` is the process's own. */
export function createMetrics(settings: MetricsSettings | null): Metrics {
  return settings ? new ExportingMetrics(settings) : DISABLED;
}

/** This process's metrics, started from the environment on first use (one per process). */
export function metrics(): Metrics {
  const holder = globalThis as Holder;
  let current = holder[KEY];
  if (!current) {
    current = createMetrics(metricsSettingsFromEnv(process.env));
    holder[KEY] = current;
  }
  return current;
}

/**
 * Puts `replacement` in place of this process's metrics (the benchmark compares steps/s with metrics
 * off and on in one process); returns the one it replaced. Never called by the product.
 */
export function replaceMetrics(replacement: Metrics): Metrics {
  const holder = globalThis as Holder;
  const previous = metrics();
  holder[KEY] = replacement;
  return previous;
}
