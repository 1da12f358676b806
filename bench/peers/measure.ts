// Plumbing shared by the peer workloads: percentiles, CPU of this process and of the Postgres
// cluster, a concurrency limiter. Only Node built-ins and the root bench's /proc readers.
import { performance } from "node:perf_hooks";
import { processTreeCpuMs } from "../cpu";
import type { PeerCpu, PeerStepRun, PeerSummary } from "../peer-results";

export function summarize(samples: readonly number[]): PeerSummary {
  const sorted = [...samples].sort((left, right) => left - right);
  // Nearest rank, as bench/stats.ts: every figure is a value that was measured.
  const at = (fraction: number) =>
    sorted.length === 0
      ? Number.NaN
      : sorted[Math.min(sorted.length, Math.max(1, Math.ceil(fraction * sorted.length))) - 1]!;
  return {
    count: sorted.length,
    p50: at(0.5),
    p99: at(0.99),
    max: sorted.length > 0 ? sorted[sorted.length - 1]! : Number.NaN,
    mean: sorted.length > 0 ? sorted.reduce((sum, value) => sum + value, 0) / sorted.length : Number.NaN,
  };
}

export function intervals(values: readonly number[]): number[] {
  return values.slice(1).map((value, index) => value - values[index]!);
}

export const now = (): number => performance.now();

/** CPU meter over a window: this process and (when its postmaster pid is known) the Postgres cluster. */
export function cpuMeter(postmasterPid: number | null): () => PeerCpu {
  const ownBefore = process.cpuUsage();
  const postgresBefore = postmasterPid ? processTreeCpuMs(postmasterPid) : 0;
  const started = now();
  return () => {
    const own = process.cpuUsage(ownBefore);
    return {
      wallMs: now() - started,
      nodeCpuMs: (own.user + own.system) / 1000,
      postgresCpuMs: postmasterPid ? processTreeCpuMs(postmasterPid) - postgresBefore : null,
    };
  };
}

/** Runs `work(index)` for 0 ≤ index < count with at most `limit` at once. */
export async function runLimited(
  count: number,
  limit: number,
  work: (index: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const index = next++;
      await work(index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, count) }, worker));
}

/** A memory sampler (peak RSS and heap), as bench/subagents.ts samples Tandem. */
export class MemoryPeak {
  rss = 0;
  heap = 0;
  private readonly timer: NodeJS.Timeout;

  constructor() {
    this.sample();
    this.timer = setInterval(() => this.sample(), 20);
  }

  private sample(): void {
    const usage = process.memoryUsage();
    this.rss = Math.max(this.rss, usage.rss);
    this.heap = Math.max(this.heap, usage.heapUsed);
  }

  stop(): { rssMiB: number; heapMiB: number } {
    clearInterval(this.timer);
    this.sample();
    return { rssMiB: this.rss / 1024 ** 2, heapMiB: this.heap / 1024 ** 2 };
  }
}

/** A one-thread step run from its model-call instants: all steps, first and last quarter. */
export function stepRun(calls: readonly number[], cpu: PeerCpu): PeerStepRun {
  const steps = intervals(calls);
  const quarter = Math.floor(steps.length / 4);
  return {
    steps: calls.length,
    step: summarize(steps),
    firstQuarter: summarize(steps.slice(0, quarter)),
    lastQuarter: summarize(steps.slice(-quarter)),
    cpu,
  };
}
