// Benchmark 3, aggregate throughput: 200 dual_ai threads of 10 steps each (maxSessionTurns 5, both
// sides stopOnResponse, scripted at zero delay) are queued, then the scheduler is started and the
// clock runs until every thread has stopped. Repeated for a few scheduler concurrency / pool sizes.

import { dialogueBundle } from "../test/support/bench-bundles";
import { type BaselineResult, printBaselineBeside } from "./baseline";
import type { Cluster } from "./cluster";
import { type Cell, printTable, SUMMARY_HEADER, section, summaryCells } from "./format";
import {
  countThreads,
  createThreads,
  ModelCallProbe,
  openBenchRuntime,
  type ResourceUse,
  resourceUse,
  snapshot,
  waitUntil,
} from "./harness";
import { profiled } from "./profile";
import { intervals, type Summary, summarize } from "./stats";
import { perStepRows } from "./step-time";

const THREADS = 200;
const TURNS = 5; // 10 steps per thread

export interface ThroughputSetting {
  concurrency: number;
  maxConnections: number;
  /** Appended to the run's database name (another benchmark running the same setting). */
  tag?: string;
}

/**
 * The runtime's defaults first (concurrency 64, pool 10), then the load as the benchmark names it:
 * all 200 threads at once. A pool smaller than the concurrency pipelines statements on each
 * connection (docs/benchmarks.md item 14).
 */
export const THROUGHPUT_SETTINGS: readonly ThroughputSetting[] = [
  { concurrency: 16, maxConnections: 10 },
  { concurrency: 64, maxConnections: 10 },
  { concurrency: 64, maxConnections: 40 },
  { concurrency: 200, maxConnections: 10 },
  { concurrency: 200, maxConnections: 20 },
];

export interface ThroughputRun extends ThroughputSetting {
  steps: number;
  stepsPerSecond: number;
  /** Model call → next model call of the same thread, while everything runs. */
  stepUnderLoad: Summary;
  resources: ResourceUse;
}

export interface ThroughputResult {
  runs: ThroughputRun[];
  best: ThroughputRun;
}

export async function runThroughput(
  cluster: Cluster,
  baseline: BaselineResult | null,
): Promise<ThroughputResult> {
  section(`3. Aggregate throughput: ${THREADS} concurrent threads × ${TURNS * 2} steps`);
  const runs: ThroughputRun[] = [];
  for (const setting of THROUGHPUT_SETTINGS) {
    const run = await runOnce(cluster, setting);
    console.log(
      `  concurrency ${setting.concurrency}, pool ${setting.maxConnections}: ${Math.round(run.stepsPerSecond)} steps/s`,
    );
    runs.push(run);
  }
  const best = runs.reduce((left, right) => (right.stepsPerSecond > left.stepsPerSecond ? right : left));
  const result = { runs, best };
  printThroughput(result, baseline);
  return result;
}

export async function runOnce(cluster: Cluster, setting: ThroughputSetting): Promise<ThroughputRun> {
  const bench = await openBenchRuntime(cluster, {
    database: `bench_throughput_${setting.concurrency}_${setting.maxConnections}${setting.tag ?? ""}`,
    bundle: dialogueBundle(TURNS),
    ...setting,
  });
  try {
    const { runtime } = bench;
    const probe = new ModelCallProbe(runtime);
    // Queue every thread first (the scheduler is not started yet).
    const threadIds = await createThreads(bench, THREADS, "dialogue", (index) => `Dialogue ${index}`);
    for (const threadId of threadIds) await probe.watch(threadId);
    const before = await snapshot(cluster, bench);
    await profiled(`throughput-c${setting.concurrency}-p${setting.maxConnections}`, async () => {
      await runtime.scheduler.start();
      await waitUntil(
        "every thread to stop",
        async () => (await countThreads(bench.raw.sql, ["stopped", "completed", "failed"])) === THREADS,
        240_000,
        20,
      );
    });
    const after = await snapshot(cluster, bench);
    probe.close();
    const failed = await countThreads(bench.raw.sql, ["failed"]);
    if (failed > 0) throw new Error(`${failed} threads failed`);
    const steps = [...probe.calls.values()].reduce((total, calls) => total + calls.length, 0);
    if (steps !== THREADS * TURNS * 2) throw new Error(`Expected ${THREADS * TURNS * 2} steps, saw ${steps}`);
    // Nothing lost or logged twice: one model-call row per step.
    const [logged] = await bench.raw.sql.query<{ n: number }>("SELECT count(*)::int AS n FROM model_calls");
    if (logged?.n !== steps) throw new Error(`Expected ${steps} model_calls rows, found ${logged?.n}`);
    const commits = bench.raw.sql.commitStats();
    console.log(
      `  concurrency ${setting.concurrency}, pool ${setting.maxConnections}: ${logged.n} model_calls rows; ${
        commits.grouped
          ? `group commit: ${commits.parts} commits in ${commits.batches} groups (largest ${commits.largest}), ${commits.alone} alone, ${commits.retried} groups retried, ${commits.fallbacks} fell back`
          : "group commit off"
      }`,
    );
    const resources = resourceUse(before, after);
    return {
      ...setting,
      steps,
      stepsPerSecond: steps / (resources.wallMs / 1000),
      stepUnderLoad: summarize(threadIds.flatMap((id) => intervals(probe.calls.get(id) ?? []))),
      resources,
    };
  } finally {
    await bench.close();
  }
}

export function printThroughput(result: ThroughputResult, baseline: BaselineResult | null): void {
  printTable(
    "3. Aggregate steps/s (scripted model, zero delay)",
    [
      "scheduler concurrency",
      "pool",
      "steps",
      "wall s",
      "steps/s",
      "runtime CPU cores",
      "Postgres CPU cores",
    ],
    result.runs.map((run) => [
      run.concurrency,
      run.maxConnections,
      run.steps,
      run.resources.wallMs / 1000,
      run.stepsPerSecond,
      run.resources.nodeCores,
      run.resources.postgresCores,
    ]),
  );
  printTable(
    "3. Step time inside a thread while all run (model call → next model call)",
    ["scheduler concurrency", ...SUMMARY_HEADER],
    result.runs.map((run): Cell[] => [run.concurrency, ...summaryCells(run.stepUnderLoad)]),
  );
  printTable(
    `3. Cost per step at the best setting (concurrency ${result.best.concurrency}, pool ${result.best.maxConnections})`,
    ["measure", "value"],
    perStepRows(result.best.resources, result.best.steps),
  );
  const best = result.best;
  printBaselineBeside("3. Throughput", baseline, (base) => [
    ["INSERT + COMMIT rows/s, 10 connections", base.insertTenConnections.perSecond],
    ["BEGIN; INSERT; COMMIT per s, 10 connections", base.transactionTenConnections.perSecond],
    [
      "BEGIN; INSERT; pg_notify; COMMIT per s, 10 connections",
      base.notifyingTransactionTenConnections.perSecond,
    ],
    [
      "runtime at its best setting: explicit transactions/s (each notifies)",
      best.stepsPerSecond * (best.resources.counters.transactions / best.steps),
    ],
    [
      "upper bound from commits alone: notifying-transaction rate ÷ transactions per step",
      base.notifyingTransactionTenConnections.perSecond / (best.resources.counters.transactions / best.steps),
    ],
  ]);
}
