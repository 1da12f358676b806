// Traces and metrics out (docs/observability.md): what exporting costs. The throughput workload of
// benchmark 3 (200 dual_ai threads × 10 steps, scripted at zero delay, concurrency 64, pool 10) runs
// with no OTLP variable set (no SDK: the step loop's no-op path), exporting every span, and exporting
// the metrics (every second) over OTLP/HTTP protobuf to a real local receiver
// (test/support/otlp-receiver.ts), twice each, in mirrored order, in this one process.
import { createMetrics, type Metrics, replaceMetrics } from "@/runtime/telemetry/metrics";
import { createTracing, replaceTracing, type Tracing } from "@/runtime/telemetry/tracing";
import { startOtlpReceiver } from "../test/support/otlp-receiver";
import { type BaselineResult, printBaselineBeside } from "./baseline";
import type { Cluster } from "./cluster";
import { printTable, section } from "./format";
import { runOnce, type ThroughputRun } from "./throughput";

const SETTING = { concurrency: 64, maxConnections: 10 };

export interface TracesResult {
  off: ThroughputRun[];
  on: ThroughputRun[];
  metrics: ThroughputRun[];
  spans: number;
  metricPoints: number;
}

type Mode = "off" | "on" | "metrics";

export async function runTraces(cluster: Cluster, baseline: BaselineResult | null): Promise<TracesResult> {
  section("Traces and metrics out: steps/s with telemetry unset vs exporting to a local OTLP receiver");
  const receiver = await startOtlpReceiver();
  const savedEndpoint = process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
  process.env.OTEL_EXPORTER_OTLP_ENDPOINT = receiver.endpoint;
  const runs: Record<Mode, ThroughputRun[]> = { off: [], on: [], metrics: [] };
  const disabledTracing = createTracing(null);
  const disabledMetrics = createMetrics(null);
  const previousTracing = replaceTracing(disabledTracing);
  const previousMetrics = replaceMetrics(disabledMetrics);
  try {
    const order: Mode[] = ["off", "on", "metrics", "metrics", "on", "off"];
    for (const [index, mode] of order.entries()) {
      let tracing: Tracing | null = null;
      let metrics: Metrics | null = null;
      replaceTracing(disabledTracing);
      replaceMetrics(disabledMetrics);
      if (mode === "on") {
        tracing = createTracing({
          protocol: "http/protobuf",
          serviceName: "tandem-bench",
          captureContent: false,
          scheduledDelayMs: 1000,
        });
        replaceTracing(tracing);
      } else if (mode === "metrics") {
        // Read by createRuntime and the step runners when the run opens its runtime.
        metrics = createMetrics({
          protocol: "http/protobuf",
          serviceName: "tandem-bench",
          exportIntervalMs: 1000,
          exportTimeoutMs: 1000,
        });
        replaceMetrics(metrics);
      }
      const run = await runOnce(cluster, { ...SETTING, tag: `_traces_${mode}_${index}` });
      if (tracing) await tracing.shutdown();
      if (metrics) {
        // The run closed its database: the last export reads no gauge from it.
        metrics.observe({});
        await metrics.shutdown();
      }
      runs[mode].push(run);
      console.log(
        `  ${mode === "on" ? "tracing" : mode === "metrics" ? "metrics" : "unset"}: ${Math.round(run.stepsPerSecond)} steps/s`,
      );
    }
  } finally {
    replaceTracing(previousTracing);
    replaceMetrics(previousMetrics);
    if (savedEndpoint === undefined) delete process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
    else process.env.OTEL_EXPORTER_OTLP_ENDPOINT = savedEndpoint;
    await receiver.close();
  }
  const result = { ...runs, spans: receiver.spans.length, metricPoints: receiver.metrics.length };
  printTraces(result, baseline);
  return result;
}

const mean = (runs: ThroughputRun[]) => runs.reduce((sum, run) => sum + run.stepsPerSecond, 0) / runs.length;
/** The bench process's CPU per step (ms): less sensitive than steps/s to what else the machine runs. */
const cpuPerStep = (runs: ThroughputRun[]) =>
  runs.reduce((sum, run) => sum + (run.resources.nodeCores * run.resources.wallMs) / run.steps, 0) /
  runs.length;

function printTraces(result: TracesResult, baseline: BaselineResult | null): void {
  const off = mean(result.off);
  const on = mean(result.on);
  printTable(
    `Traces out: 200 dual_ai threads × 10 steps, concurrency ${SETTING.concurrency}, pool ${SETTING.maxConnections}`,
    ["telemetry", "runs (steps/s)", "mean steps/s", "runtime CPU ms per step", "steps/s vs unset"],
    [
      [
        "unset (no SDK, no hooks)",
        result.off.map((run) => Math.round(run.stepsPerSecond)).join(", "),
        off,
        cpuPerStep(result.off),
        "—",
      ],
      [
        "traces: OTLP http/protobuf → local receiver",
        result.on.map((run) => Math.round(run.stepsPerSecond)).join(", "),
        on,
        cpuPerStep(result.on),
        `${(((on - off) / off) * 100).toFixed(1)} %`,
      ],
      [
        "metrics: OTLP http/protobuf every 1 s → local receiver",
        result.metrics.map((run) => Math.round(run.stepsPerSecond)).join(", "),
        mean(result.metrics),
        cpuPerStep(result.metrics),
        `${(((mean(result.metrics) - off) / off) * 100).toFixed(1)} %`,
      ],
    ],
  );
  console.log(
    `  received by the local receiver: ${result.spans} spans, ${result.metricPoints} metric data points`,
  );
  printBaselineBeside("Traces out", baseline, (base) => [
    ["INSERT + COMMIT rows/s, 10 connections", base.insertTenConnections.perSecond],
    [
      "BEGIN; INSERT; pg_notify; COMMIT per s, 10 connections",
      base.notifyingTransactionTenConnections.perSecond,
    ],
  ]);
}
