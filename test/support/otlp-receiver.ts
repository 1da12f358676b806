// A real OTLP/HTTP receiver for tests (docs/observability.md): a node http server on a free loopback
// port that takes `POST /v1/traces` and `POST /v1/metrics` in both encodings the OpenTelemetry
// exporters send — `application/x-protobuf`, decoded with protobufjs from the official OTLP proto
// definitions in ./otlp-proto (opentelemetry-proto, Apache-2.0), and `application/json` — and keeps
// every span and every metric data point, flattened to what assertions read.
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import protobuf from "protobufjs";

export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  /** "" for a root span. */
  parentSpanId: string;
  name: string;
  kind: number;
  attributes: Record<string, unknown>;
  events: { name: string; attributes: Record<string, unknown> }[];
  /** 0 unset, 1 ok, 2 error. */
  statusCode: number;
  statusMessage: string;
  startNs: bigint;
  endNs: bigint;
  resource: Record<string, unknown>;
}

/** One data point of one metric, flattened: a gauge's or sum's value, or a histogram's. */
export interface ReceivedMetricPoint {
  name: string;
  unit: string;
  kind: "gauge" | "sum" | "histogram" | "other";
  attributes: Record<string, unknown>;
  resource: Record<string, unknown>;
  /** A gauge's or a sum's value. */
  value?: number;
  /** A histogram's count of recordings, their sum and its buckets. */
  count?: number;
  sum?: number;
  bucketCounts?: number[];
  explicitBounds?: number[];
  /** 1 delta, 2 cumulative (sums and histograms). */
  temporality?: number;
}

export interface OtlpReceiver {
  /** `http://127.0.0.1:<port>`: the value of OTEL_EXPORTER_OTLP_ENDPOINT. */
  readonly endpoint: string;
  readonly spans: ReceivedSpan[];
  readonly metrics: ReceivedMetricPoint[];
  /** The requests received, by path and content type. */
  readonly requests: { path: string; contentType: string; headers: IncomingMessage["headers"] }[];
  /** Resolves once `predicate` holds for the spans received (checked on each export). */
  waitFor(predicate: (spans: ReceivedSpan[]) => boolean, timeoutMs?: number): Promise<ReceivedSpan[]>;
  /** Resolves once `predicate` holds for the metric points received (checked on each export). */
  waitForMetrics(
    predicate: (points: ReceivedMetricPoint[]) => boolean,
    timeoutMs?: number,
  ): Promise<ReceivedMetricPoint[]>;
  close(): Promise<void>;
}

const PROTO_ROOT = path.join(import.meta.dirname, "otlp-proto");
const requestTypes = new Map<string, protobuf.Type>();

/** The export request message of a signal (`trace` or `metrics`), from the official protos. */
function exportRequestType(signal: "trace" | "metrics"): protobuf.Type {
  let type = requestTypes.get(signal);
  if (!type) {
    const root = new protobuf.Root();
    root.resolvePath = (_origin, target) => path.join(PROTO_ROOT, target);
    root.loadSync(`opentelemetry/proto/collector/${signal}/v1/${signal}_service.proto`, { keepCase: false });
    type = root.lookupType(
      signal === "trace"
        ? "opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest"
        : "opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest",
    );
    requestTypes.set(signal, type);
  }
  return type;
}

/** An id as hex, from protobuf bytes or from JSON (hex per the OTLP/JSON spec, base64 tolerated). */
function idHex(value: unknown): string {
  if (value === undefined || value === null) return "";
  if (value instanceof Uint8Array) return Buffer.from(value).toString("hex");
  const text = String(value);
  if (/^[0-9a-f]*$/i.test(text) && (text.length === 32 || text.length === 16 || text.length === 0))
    return text.toLowerCase();
  return Buffer.from(text, "base64").toString("hex");
}

type AnyValue = {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: unknown;
  doubleValue?: number;
  arrayValue?: { values?: AnyValue[] };
};

function anyValue(value: AnyValue | undefined): unknown {
  if (!value) return undefined;
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.intValue !== undefined) return Number(String(value.intValue));
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.arrayValue) return (value.arrayValue.values ?? []).map(anyValue);
  return undefined;
}

function attributesOf(list: { key: string; value?: AnyValue }[] | undefined): Record<string, unknown> {
  return Object.fromEntries((list ?? []).map((entry) => [entry.key, anyValue(entry.value)]));
}

// biome-ignore lint/suspicious/noExplicitAny: the decoded OTLP request is read field by field below
type Decoded = any;

function spansOf(request: Decoded): ReceivedSpan[] {
  const spans: ReceivedSpan[] = [];
  for (const resourceSpans of request.resourceSpans ?? []) {
    const resource = attributesOf(resourceSpans.resource?.attributes);
    for (const scopeSpans of resourceSpans.scopeSpans ?? []) {
      for (const span of scopeSpans.spans ?? []) {
        spans.push({
          traceId: idHex(span.traceId),
          spanId: idHex(span.spanId),
          parentSpanId: idHex(span.parentSpanId),
          name: String(span.name),
          kind: Number(span.kind ?? 0),
          attributes: attributesOf(span.attributes),
          events: (span.events ?? []).map((event: Decoded) => ({
            name: String(event.name),
            attributes: attributesOf(event.attributes),
          })),
          statusCode: Number(span.status?.code ?? 0),
          statusMessage: String(span.status?.message ?? ""),
          startNs: BigInt(String(span.startTimeUnixNano ?? 0)),
          endNs: BigInt(String(span.endTimeUnixNano ?? 0)),
          resource,
        });
      }
    }
  }
  return spans;
}

const number = (value: unknown): number => Number(String(value ?? 0));

function metricPointsOf(request: Decoded): ReceivedMetricPoint[] {
  const points: ReceivedMetricPoint[] = [];
  for (const resourceMetrics of request.resourceMetrics ?? []) {
    const resource = attributesOf(resourceMetrics.resource?.attributes);
    for (const scopeMetrics of resourceMetrics.scopeMetrics ?? []) {
      for (const metric of scopeMetrics.metrics ?? []) {
        const base = { name: String(metric.name), unit: String(metric.unit ?? ""), resource };
        const numberPoints = (kind: "gauge" | "sum", data: Decoded) => {
          for (const point of data?.dataPoints ?? [])
            points.push({
              ...base,
              kind,
              attributes: attributesOf(point.attributes),
              value: point.asDouble !== undefined ? Number(point.asDouble) : number(point.asInt),
              ...(data.aggregationTemporality !== undefined
                ? { temporality: Number(data.aggregationTemporality) }
                : {}),
            });
        };
        if (metric.gauge) numberPoints("gauge", metric.gauge);
        else if (metric.sum) numberPoints("sum", metric.sum);
        else if (metric.histogram)
          for (const point of metric.histogram.dataPoints ?? [])
            points.push({
              ...base,
              kind: "histogram",
              attributes: attributesOf(point.attributes),
              count: number(point.count),
              sum: Number(point.sum ?? 0),
              bucketCounts: (point.bucketCounts ?? []).map(number),
              explicitBounds: (point.explicitBounds ?? []).map(Number),
              temporality: Number(metric.histogram.aggregationTemporality ?? 0),
            });
        else points.push({ ...base, kind: "other", attributes: {} });
      }
    }
  }
  return points;
}

async function bodyOf(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const metrics: ReceivedMetricPoint[] = [];
  const requests: OtlpReceiver["requests"] = [];
  const waiters = new Set<() => void>();
  const server: Server = createServer((request, response) => {
    void (async () => {
      const body = await bodyOf(request);
      const contentType = String(request.headers["content-type"] ?? "")
        .split(";")[0]!
        .trim();
      const signal =
        request.url === "/v1/traces" ? "trace" : request.url === "/v1/metrics" ? "metrics" : null;
      if (request.method !== "POST" || signal === null) {
        response.writeHead(404).end();
        return;
      }
      let decoded: Decoded;
      try {
        if (contentType === "application/json") decoded = JSON.parse(body.toString("utf8"));
        else if (contentType === "application/x-protobuf") {
          const type = exportRequestType(signal);
          decoded = type.toObject(type.decode(body), { longs: String, defaults: false });
        } else {
          response.writeHead(415).end();
          return;
        }
      } catch (error) {
        response.writeHead(400, { "content-type": "text/plain" }).end(String(error));
        return;
      }
      requests.push({ path: request.url ?? "", contentType, headers: request.headers });
      if (signal === "trace") spans.push(...spansOf(decoded));
      else metrics.push(...metricPointsOf(decoded));
      for (const wake of waiters) wake();
      if (contentType === "application/json")
        response.writeHead(200, { "content-type": "application/json" }).end("{}");
      else response.writeHead(200, { "content-type": "application/x-protobuf" }).end();
    })();
  });
  const names = (items: { name: string }[]) =>
    [...new Set(items.map((item) => item.name))].join(", ") || "none";
  function waitUntil<T>(
    items: T[],
    predicate: (items: T[]) => boolean,
    timeoutMs: number,
    what: () => string,
  ): Promise<T[]> {
    return new Promise((resolve, reject) => {
      const check = () => {
        if (!predicate(items)) return;
        clearTimeout(timer);
        waiters.delete(check);
        resolve(items);
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`The OTLP receiver did not get the expected ${what()} in ${timeoutMs} ms`));
      }, timeoutMs);
      waiters.add(check);
      check();
    });
  }
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    spans,
    requests,
    metrics,
    waitFor: (predicate, timeoutMs = 15_000) =>
      waitUntil(spans, predicate, timeoutMs, () => `spans; it has: ${names(spans)}`),
    waitForMetrics: (predicate, timeoutMs = 15_000) =>
      waitUntil(metrics, predicate, timeoutMs, () => `metrics; it has: ${names(metrics)}`),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
