// What the peer benchmarks (bench/peers/, BENCH_ONLY=peers) hand back to the bench, and the pure
// logic that sets a peer's figure beside Tandem's from the same run: the comparison rows of the
// summary and the peer named in a target. No dependencies: bench/peers/ writes these shapes as JSON.
import { fixed } from "./format";

export interface PeerSummary {
  count: number;
  p50: number;
  p99: number;
  max: number;
  mean: number;
}

/** Wall time of a window and the CPU spent in it by the peer's process and by the Postgres cluster. */
export interface PeerCpu {
  wallMs: number;
  nodeCpuMs: number;
  /** Null when the peer used no database. */
  postgresCpuMs: number | null;
}

export interface PeerStepRun {
  steps: number;
  /** Model call → next model call of the same thread (µs resolution, the peer's process). */
  step: PeerSummary;
  /** The first and last quarter of the thread's steps (the history grows). */
  firstQuarter: PeerSummary;
  lastQuarter: PeerSummary;
  cpu: PeerCpu;
}

export interface PeerThroughputRun {
  /** Threads in flight at once. */
  concurrency: number;
  /** pg pool size (null: no database). */
  pool: number | null;
  steps: number;
  stepsPerSecond: number;
  /** Model call → next model call of the same thread, while everything runs. */
  stepUnderLoad: PeerSummary;
  cpu: PeerCpu;
}

export interface PeerFanOutRun {
  children: number;
  /** From the parent's first input until the parent's last turn has ended with every report in. */
  wallMs: number;
  /** From the parent's first input until the last child made its first model call. */
  spawnMs: number;
  modelCalls: number;
  reports: number;
  peakRssMiB: number;
  cpu: PeerCpu;
}

export type PeerKey = "langgraph" | "deepagents-postgres" | "deepagents-memory" | "agents-core";

export interface PeerResult {
  key: PeerKey;
  /** How the summary names it, e.g. "LangGraph.js + PostgresSaver". */
  name: string;
  /** Package → installed version. */
  versions: Record<string, string>;
  /** What is persisted, and when (e.g. `PostgresSaver, durability "sync"`). */
  persistence: string;
  step: PeerStepRun | null;
  /** The same one-thread run under another setting, for information (e.g. LangGraph's default durability). */
  stepVariants?: { label: string; step: PeerStepRun }[];
  throughput: PeerThroughputRun[];
  fanOuts: PeerFanOutRun[];
  /** Set when the peer could not be installed or run: why. */
  error: string | null;
}

export interface PeersResult {
  peers: PeerResult[];
  /** Set when no peer ran at all (e.g. the install failed): why. */
  error: string | null;
  /** CPU used by other processes on the machine while the peers ran, in cores (noise); null if unmeasured. */
  otherCores?: number | null;
}

/** The best (highest steps/s) throughput run of a peer, if it has any. */
export function bestThroughput(runs: readonly PeerThroughputRun[]): PeerThroughputRun | null {
  return runs.reduce<PeerThroughputRun | null>(
    (best, run) => (best === null || run.stepsPerSecond > best.stepsPerSecond ? run : best),
    null,
  );
}

/**
 * "Tandem 4.2× faster" / "peer 1.6× faster" / "same": how Tandem compares, from a measure where
 * lower is better (times) or higher is better (rates).
 */
export function ratioText(tandem: number, peer: number, better: "lower" | "higher"): string {
  if (!(Number.isFinite(tandem) && Number.isFinite(peer)) || tandem <= 0 || peer <= 0) return "n/a";
  const tandemAdvantage = better === "lower" ? peer / tandem : tandem / peer;
  if (Math.abs(tandemAdvantage - 1) < 0.005) return "same";
  return tandemAdvantage > 1
    ? `Tandem ${fixed(tandemAdvantage)}× faster`
    : `peer ${fixed(1 / tandemAdvantage)}× faster`;
}

/** Tandem's headline figures from the same run (null where that benchmark did not run). */
export interface TandemFigures {
  stepP50Ms: number | null;
  stepsPerSecond: number | null;
  /** children → wall ms until every report was delivered. */
  fanOutMs: ReadonlyMap<number, number>;
}

export interface ComparisonRow {
  figure: string;
  tandem: string;
  peer: string;
  peerFigure: string;
  ratio: string;
}

export const COMPARED_FAN_OUTS = [50, 200] as const;

/**
 * One row per figure both Tandem and a peer measured in this run: step p50, 200 × 10 steps/s (each
 * side's best setting) and 50 / 200 children all reported. Nothing for a figure only one side has.
 */
export function peerComparisons(tandem: TandemFigures, peers: readonly PeerResult[]): ComparisonRow[] {
  const rows: ComparisonRow[] = [];
  const ran = peers.filter((peer) => peer.error === null);
  if (tandem.stepP50Ms !== null) {
    for (const peer of ran) {
      if (!peer.step) continue;
      rows.push({
        figure: "step wall time p50, one thread",
        tandem: `${fixed(tandem.stepP50Ms)} ms`,
        peer: peer.name,
        peerFigure: `${fixed(peer.step.step.p50)} ms`,
        ratio: ratioText(tandem.stepP50Ms, peer.step.step.p50, "lower"),
      });
    }
  }
  if (tandem.stepsPerSecond !== null) {
    for (const peer of ran) {
      const best = bestThroughput(peer.throughput);
      if (!best) continue;
      rows.push({
        figure: "aggregate steps/s, 200 threads × 10 steps (best setting)",
        tandem: fixed(tandem.stepsPerSecond),
        peer: peer.name,
        peerFigure: fixed(best.stepsPerSecond),
        ratio: ratioText(tandem.stepsPerSecond, best.stepsPerSecond, "higher"),
      });
    }
  }
  for (const children of COMPARED_FAN_OUTS) {
    const tandemMs = tandem.fanOutMs.get(children);
    if (tandemMs === undefined) continue;
    for (const peer of ran) {
      const run = peer.fanOuts.find((candidate) => candidate.children === children);
      if (!run) continue;
      rows.push({
        figure: `${children} children, every report in`,
        tandem: `${fixed(tandemMs / 1000)} s`,
        peer: peer.name,
        peerFigure: `${fixed(run.wallMs / 1000)} s`,
        ratio: ratioText(tandemMs, run.wallMs, "lower"),
      });
    }
  }
  return rows;
}

/**
 * A summary target with the peer's figure from this run beside it, e.g.
 * "≤ 1.5 ms (LangGraph.js + PostgresSaver 9.40 ms, this run)"; the bare target when the peer did not run.
 */
export function targetWithPeer(target: string, peer: { name: string; figure: string } | null): string {
  if (!peer) return target;
  const measured = `${peer.name} ${peer.figure}, this run`;
  return target ? `${target} (${measured})` : measured;
}

/** The peer's figure for a summary target, or null when that peer did not run or lacks it. */
export function peerFigure(
  peers: readonly PeerResult[] | null,
  key: PeerKey,
  pick: (peer: PeerResult) => string | null,
): { name: string; figure: string } | null {
  const peer = peers?.find((candidate) => candidate.key === key && candidate.error === null);
  if (!peer) return null;
  const figure = pick(peer);
  return figure === null ? null : { name: peer.name, figure };
}
