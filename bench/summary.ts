// The final summary of a benchmark run: each headline figure beside its target (from the issue)
// and the database baseline measured at the start and at the end of the same run.
import type { BaselineResult, DriftCheck } from "./baseline";
import type { CanvasResult } from "./canvas";
import type { CompileResult } from "./compile";
import type { EffectsResult } from "./effects";
import { type Cell, fixed, printTable, section } from "./format";
import type { IdleMemoryResult } from "./idle-memory";
import type { InboxLatencyResult } from "./inbox-latency";
import type { LoadResult } from "./load";
import {
  bestThroughput,
  type PeersResult,
  peerComparisons,
  peerFigure,
  type TandemFigures,
  targetWithPeer,
} from "./peer-results";
import type { ClusterResult } from "./scale-out";
import type { StepTimeResult } from "./step-time";
import type { SubagentResult } from "./subagents";
import type { ThroughputResult } from "./throughput";
import type { UiResult } from "./ui";

export interface RunResults {
  baseline: BaselineResult | null;
  drift: DriftCheck | null;
  steps: StepTimeResult | null;
  throughput: ThroughputResult | null;
  inbox: InboxLatencyResult | null;
  memory: IdleMemoryResult | null;
  subagents: SubagentResult | null;
  compile: CompileResult | null;
  ui: UiResult | null;
  canvas: CanvasResult | null;
  cluster: ClusterResult | null;
  load: LoadResult | null;
  effects: EffectsResult | null;
  peers: PeersResult | null;
}

/** Heap growth per idle thread under which "an idle thread costs rows, not memory" holds. */
const IDLE_HEAP_BUDGET_BYTES = 1024;

const verdict = (met: boolean) => (met ? "met" : "MISSED");

export function printSummary(results: RunResults): void {
  section("Summary");
  const rows: Cell[][] = [];
  const { baseline, drift, steps, throughput, inbox, memory, subagents, compile, ui, canvas, cluster, load } =
    results;
  // A peer's figure stands beside a target only when the peer ran in this same process.
  const peers = results.peers?.peers ?? null;
  const langGraphStep = peerFigure(peers, "langgraph", (peer) =>
    peer.step ? `${fixed(peer.step.step.p50)} ms` : null,
  );
  const langGraphThroughput = peerFigure(peers, "langgraph", (peer) => {
    const best = bestThroughput(peer.throughput);
    return best ? fixed(best.stepsPerSecond) : null;
  });
  const deepAgentsFanOut = (children: number) =>
    peerFigure(peers, "deepagents-postgres", (peer) => {
      const run = peer.fanOuts.find((candidate) => candidate.children === children);
      return run ? `${fixed(run.wallMs / 1000)} s` : null;
    });
  if (results.effects) {
    const { effects, toStart, toDone, perSecond } = results.effects;
    rows.push(
      [
        `${effects} effects due at once: due → start p50 / p99 / max`,
        `${fixed(toStart.p50)} / ${fixed(toStart.p99)} / ${fixed(toStart.max)} ms`,
        "",
        "info",
      ],
      [
        `${effects} effects due at once: due → last done, rate`,
        `${fixed(toDone.max)} ms, ${fixed(perSecond)}/s`,
        "",
        "info",
      ],
    );
  }
  if (baseline) {
    const end = (value: number | undefined) => (value === undefined ? "" : ` (end of run: ${fixed(value)})`);
    rows.push(
      [
        "baseline INSERT+COMMIT rows/s, 1 connection",
        `${fixed(baseline.insertOneConnection.perSecond)}${end(drift?.insertOneConnection)}`,
        "reference ~2,500",
        "info",
      ],
      [
        "baseline INSERT+COMMIT rows/s, 10 connections",
        `${fixed(baseline.insertTenConnections.perSecond)}${end(drift?.insertTenConnections)}`,
        "reference ~5,300",
        "info",
      ],
    );
  }
  if (steps) {
    rows.push(
      [
        "step wall time p50 (dual_ai, client clock)",
        `${fixed(steps.clientStep.p50)} ms`,
        targetWithPeer("≤ 1.5 ms", langGraphStep),
        verdict(steps.clientStep.p50 <= 1.5),
      ],
      ["step wall time p99 (dual_ai, client clock)", `${fixed(steps.clientStep.p99)} ms`, "", "info"],
      [
        "ai_human turn round trip p50 / p99",
        `${fixed(steps.chatTurn.p50)} / ${fixed(steps.chatTurn.p99)} ms`,
        "",
        "info",
      ],
    );
  }
  if (throughput) {
    const best = throughput.best;
    rows.push([
      `aggregate steps/s, 200 threads × 10 steps (best: concurrency ${best.concurrency}, pool ${best.maxConnections})`,
      fixed(best.stepsPerSecond),
      targetWithPeer("≥ 3,000 (issue 19)", langGraphThroughput),
      verdict(best.stepsPerSecond >= 3000),
    ]);
  }
  if (inbox) {
    const unloaded = inbox.phases[0];
    if (unloaded) {
      rows.push(
        [
          `inbox → step start p50 (${unloaded.name}, to the step's model call)`,
          `${fixed(unloaded.toModelCall.p50)} ms`,
          "≤ 5 ms",
          verdict(unloaded.toModelCall.p50 <= 5),
        ],
        [
          `inbox → step start p99 (${unloaded.name}, to the step's model call)`,
          `${fixed(unloaded.toModelCall.p99)} ms`,
          "≤ 25 ms",
          verdict(unloaded.toModelCall.p99 <= 25),
        ],
      );
    }
    for (const phase of inbox.phases.slice(1)) {
      const burst = phase.name.startsWith("burst");
      rows.push([
        `inbox → step start p50 / p99 (${phase.name}, to the step's model call)`,
        `${fixed(phase.toModelCall.p50)} / ${fixed(phase.toModelCall.p99)} ms`,
        burst ? "p99 ≤ 50 ms (issue 19)" : "",
        burst ? verdict(phase.toModelCall.p99 <= 50) : "info",
      ]);
    }
  }
  if (memory) {
    const heapPerThread = (memory.after.heapUsed - memory.before.heapUsed) / memory.threads;
    const rssPerThread = (memory.after.rss - memory.before.rss) / memory.threads;
    rows.push(
      [
        `V8 heap growth per idle thread (${memory.threads} threads)`,
        `${fixed(heapPerThread / 1024)} KiB`,
        "≈ 0 (rows, not memory)",
        verdict(heapPerThread < IDLE_HEAP_BUDGET_BYTES),
      ],
      [
        `RSS growth per idle thread (${memory.threads} threads)`,
        `${fixed(rssPerThread / 1024)} KiB`,
        "",
        "info",
      ],
    );
  }
  if (subagents) {
    for (const run of subagents.fanOuts) {
      rows.push([
        `${run.children} non-blocking dual_ai children: every report delivered, parent done (peak RSS ${fixed(run.peakRssMiB)} MiB)`,
        `${fixed(run.wallMs / 1000)} s`,
        run.children === 200
          ? targetWithPeer("≤ 0.6 s (issue 19)", deepAgentsFanOut(200))
          : run.children === 50
            ? targetWithPeer("≤ 0.25 s (issue 19)", deepAgentsFanOut(50))
            : "",
        run.children === 200
          ? verdict(run.wallMs <= 600)
          : run.children === 50
            ? verdict(run.wallMs <= 250)
            : "info",
      ]);
    }
    const { tree } = subagents;
    const slowest = Math.max(tree.registry.p50, tree.registryOfMiddle.p50, tree.tree.p50, tree.thread.p50);
    rows.push(
      [`${tree.threads}-thread tree, run to completion`, `${fixed(tree.wallMs / 1000)} s`, "", "info"],
      [
        `registry / tree / thread queries at ${tree.threads} threads, slowest p50`,
        `${fixed(slowest)} ms (tree ${fixed(tree.tree.p50)} ms)`,
        "≤ 50 ms",
        verdict(slowest <= 50),
      ],
    );
  }
  if (compile) {
    rows.push([
      `studio compile + edges, ${compile.nodes}-node graph, p50 / p99`,
      `${fixed(compile.compile.p50)} / ${fixed(compile.compile.p99)} ms`,
      "≤ 20 ms",
      verdict(compile.compile.p99 <= 20),
    ]);
  }
  if (ui) {
    rows.push(
      [
        `live page, ${ui.threads}-thread tree at ${fixed(ui.eventsPerSecond)} events/s: longest main-thread task`,
        `${fixed(ui.longestTaskMs)} ms wall, ${fixed(ui.longestTaskCpuMs)} ms CPU (${ui.longTasks} over 50 ms; most CPU in one task ${fixed(ui.longestTaskByCpuMs)} ms)`,
        "≤ 50 ms",
        verdict(ui.longestTaskMs <= 50),
      ],
      [
        "live page: event-to-screen latency p95 (embedded timestamp → painting frame)",
        `${fixed(ui.toFrame.p95)} ms (n ${ui.toFrame.count} of ${ui.visibleSent}; from the commit ${fixed(ui.commitToFrame.p95)} ms, SSE frame → DOM ${fixed(ui.arrivalToDom.p95)} ms)`,
        "≤ 100 ms",
        verdict(ui.toFrame.p95 <= 100 && ui.visibleSeen === ui.visibleSent),
      ],
    );
  }
  if (canvas) {
    for (const gesture of canvas.gestures) {
      rows.push([
        `studio canvas, ${canvas.nodes} nodes, ${gesture.name}: longest main-thread task`,
        `${fixed(gesture.longestTaskMs)} ms wall, ${fixed(gesture.longestTaskCpuMs)} ms CPU (${gesture.longTasks} over 50 ms; longtask observer ${gesture.observedLongTasks}; ${fixed(gesture.framesPerSecond)} frames/s)`,
        "≤ 50 ms",
        verdict(gesture.longestTaskMs <= 50),
      ]);
    }
  }
  if (cluster) {
    rows.push(
      [
        "2 app servers + 2 workers: aggregate steps/s (200 threads × 10 steps over HTTP)",
        fixed(cluster.stepsPerSecond),
        "",
        "info",
      ],
      [
        "2 app servers + 2 workers: dispatch p50 / p99 (other process, NOTIFY)",
        `${fixed(cluster.dispatch.p50)} / ${fixed(cluster.dispatch.p99)} ms`,
        "",
        "info",
      ],
      [
        `recovery after a SIGKILLed worker, max over its ${cluster.recoveredThreads} threads`,
        `${fixed(cluster.recovery.max / 1000)} s`,
        "≤ 10 s",
        verdict(cluster.recovery.max <= 10_000),
      ],
    );
  }
  if (load) {
    const concurrent = load.concurrent;
    rows.push([
      `${concurrent.threads} concurrent threads in one process (model ${concurrent.latencyMs} ms, 2 turns, step concurrency ${concurrent.concurrency}): done in`,
      `${fixed(concurrent.wallMs / 1000)} s (ideal ${fixed(concurrent.idealMs / 1000)} s; event-loop p99 ${fixed(concurrent.eventLoopDelay.p99)} ms; peak RSS ${fixed(concurrent.peakRssMiB)} MiB)`,
      "≤ 3 s, event-loop p99 ≤ 50 ms",
      verdict(concurrent.wallMs <= 3_000 && concurrent.eventLoopDelay.p99 <= 50),
    ]);
    if (load.tree)
      rows.push([
        `${load.tree.threads}-thread tree: run to completion; tree query p50`,
        `${fixed(load.tree.wallMs / 1000)} s; ${fixed(load.tree.tree.p50)} ms`,
        "≤ 10 s (issue 19)",
        verdict(load.tree.wallMs <= 10_000),
      ]);
  }
  printTable("Headline figures", ["figure", "measured", "target", "verdict"], rows);
  if (results.peers) printPeerComparisons(results);
}

/** Tandem's figure, the peer's and the ratio, for every figure both measured in this run. */
function printPeerComparisons(results: RunResults): void {
  const figures: TandemFigures = {
    stepP50Ms: results.steps?.clientStep.p50 ?? null,
    stepsPerSecond: results.throughput?.best.stepsPerSecond ?? null,
    fanOutMs: new Map(results.subagents?.fanOuts.map((run) => [run.children, run.wallMs]) ?? []),
  };
  const rows = peerComparisons(figures, results.peers?.peers ?? []);
  const failed = (results.peers?.peers ?? []).filter((peer) => peer.error !== null);
  if (results.peers?.error) console.log(`\nPeers did not run: ${results.peers.error}`);
  for (const peer of failed) console.log(`\n${peer.name} did not run: ${peer.error}`);
  if (rows.length === 0) {
    console.log("\nPeers beside Tandem: nothing to compare (run steps, throughput or subagents with peers)");
    return;
  }
  printTable(
    "Peers beside Tandem (same run, same cluster; Tandem's best setting and the peer's best setting)",
    ["figure", "Tandem", "peer", "peer's figure", "ratio"],
    rows.map((row) => [row.figure, row.tandem, row.peer, row.peerFigure, row.ratio]),
  );
}
