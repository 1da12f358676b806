// Traces out (docs/observability.md): what exporting spans costs. The throughput workload of
// benchmark 3 (200 dual_ai threads × 10 steps, scripted at zero delay, concurrency 64, pool 10) runs
// with no OTLP variable set (no SDK: the step loop's no-op path), then exporting every span over
// OTLP/HTTP protobuf to a real local receiver (test/support/otlp-receiver.ts), twice each, in
// alternating order, in this one process.
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
  spans: number;
}

export async function runTraces(cluster: Cluster, baseline: BaselineResult | null): Promise<TracesResult> {
  section("Traces out: steps/s with tracing unset vs exporting to a local OTLP receiver");
  const receiver = await startOtlpReceiver();
  const savedEndpoint = process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
  process.env.OTEL_EXPORTER_OTLP_ENDPOINT = receiver.endpoint;
  const off: ThroughputRun[] = [];
  const on: ThroughputRun[] = [];
  const disabled = createTracing(null);
  const previous = replaceTracing(disabled);
  try {
    for (const [index, mode] of (["off", "on", "on", "off"] as const).entries()) {
      let exporting: Tracing | null = null;
      if (mode === "on") {
        exporting = createTracing({
          protocol: "http/protobuf",
          serviceName: "tandem-bench",
          captureContent: false,
          scheduledDelayMs: 1000,
        });
        replaceTracing(exporting);
      } else replaceTracing(disabled);
      const run = await runOnce(cluster, { ...SETTING, tag: `_traces_${mode}_${index}` });
      if (exporting) await exporting.shutdown();
      (mode === "on" ? on : off).push(run);
      console.log(`  tracing ${mode}: ${Math.round(run.stepsPerSecond)} steps/s`);
    }
  } finally {
    replaceTracing(previous);
    if (savedEndpoint === undefined) delete process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
    else process.env.OTEL_EXPORTER_OTLP_ENDPOINT = savedEndpoint;
    await receiver.close();
  }
  const result = { off, on, spans: receiver.spans.length };
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
    ["tracing", "runs (steps/s)", "mean steps/s", "runtime CPU ms per step", "steps/s vs unset"],
    [
      [
        "unset (no SDK)",
        result.off.map((run) => Math.round(run.stepsPerSecond)).join(", "),
        off,
        cpuPerStep(result.off),
        "—",
      ],
      [
        "OTLP http/protobuf → local receiver",
        result.on.map((run) => Math.round(run.stepsPerSecond)).join(", "),
        on,
        cpuPerStep(result.on),
        `${(((on - off) / off) * 100).toFixed(1)} %`,
      ],
    ],
  );
  console.log(`  spans received by the local receiver: ${result.spans}`);
  printBaselineBeside("Traces out", baseline, (base) => [
    ["INSERT + COMMIT rows/s, 10 connections", base.insertTenConnections.perSecond],
    [
      "BEGIN; INSERT; pg_notify; COMMIT per s, 10 connections",
      base.notifyingTransactionTenConnections.perSecond,
    ],
  ]);
}
