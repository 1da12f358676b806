// `npm run bench`: starts a private Postgres cluster (fsync on), measures the database baseline and
// then the runtime benchmarks against it, prints a table per benchmark and a final summary, and
// stops the cluster at the end — also when a benchmark fails or the run is interrupted.
// BENCH_ONLY=baseline,steps,throughput,inbox,memory,subagents,compile,ui,canvas,livetree,cluster,load,effects,replay,providers,evals,peers,analytics,traces,viewers,idle-streams,http-load,http-cost,viewers-remote,long-chat
// (comma list) runs only some benchmarks. `viewers` and `idle-streams` (bench/viewers.ts) serve the
// production build: a fan-out watched by 0–100 live viewers, and 1,000 idle event streams; so do
// `http-load` (500 and 1,000 two-turn conversations with a 1 s model over HTTP) and `http-cost`
// (server CPU per request of the write routes beside a bare route), in bench/http-load.ts, and
// `viewers-remote` (bench/viewers-remote.ts: viewers on an app server of a fan-out a worker runs).
// `evals` runs an eval suite of 500 simulated 3-turn conversations against a model answering in 1 s
// (bench/evals.ts). `providers` runs 500 threads against a local provider that
// rate-limits at 50 requests/s (bench/providers.ts). `peers` runs LangGraph.js, deepagents and OpenAI agents-core on
// the step, throughput and fan-out workloads (bench/peers.ts; installs bench/peers/ on first use). `ui` (the live page) and `canvas` (the studio canvas) serve the production
// build (`npm run build` first) and drive Chromium (CHROMIUM_PATH); `livetree` bundles the live tree and
// timeline alone (its CSS from the build when there is one); `npm run bench:ui` runs those three.
// `cluster` starts real app servers and workers, so it needs the build too.
import os from "node:os";
import { openDatabase } from "@/lib/db/database";
import { runAnalytics } from "./analytics";
import { runBaseline, runBaselineDriftCheck } from "./baseline";
import { runCanvas } from "./canvas";
import { startCluster } from "./cluster";
import { runCompile } from "./compile";
import { machineCpu, processTreeCpuMs } from "./cpu";
import { runEffects } from "./effects";
import { runEvals } from "./evals";
import { section } from "./format";
import { TEMPLATE_DATABASE } from "./harness";
import { runHttpCost, runHttpLoad } from "./http-load";
import { runIdleMemory } from "./idle-memory";
import { runInboxLatency } from "./inbox-latency";
import { runLiveTreeUi } from "./live-tree-ui";
import { runLoad } from "./load";
import { runLongChat } from "./long-chat";
import { runPeers } from "./peers";
import { runProviders } from "./providers";
import { runReplay } from "./replay";
import { runClusterBench } from "./scale-out";
import { runStepTime } from "./step-time";
import { runSubagents } from "./subagents";
import { printSummary, type RunResults } from "./summary";
import { runThroughput } from "./throughput";
import { runTraces } from "./traces";
import { runUi } from "./ui";
import { runIdleStreams, runViewers } from "./viewers";
import { runRemoteViewers } from "./viewers-remote";

const BASELINE_DATABASE = "bench_baseline";
const ALL = [
  "baseline",
  "steps",
  "throughput",
  "inbox",
  "memory",
  "subagents",
  "compile",
  "ui",
  "canvas",
  "livetree",
  "cluster",
  "load",
  "effects",
  "replay",
  "providers",
  "evals",
  "peers",
  "analytics",
  "traces",
  "viewers",
  "idle-streams",
  "http-load",
  "http-cost",
  "viewers-remote",
  "long-chat",
] as const;
type BenchmarkName = (typeof ALL)[number];

function selected(): Set<BenchmarkName> {
  const raw = process.env.BENCH_ONLY;
  if (!raw) return new Set(ALL);
  const names = raw.split(",").map((name) => name.trim());
  const unknown = names.filter((name) => !(ALL as readonly string[]).includes(name));
  if (unknown.length > 0)
    throw new Error(`Unknown benchmark(s) ${unknown.join(", ")}; known: ${ALL.join(", ")}`);
  return new Set(names as BenchmarkName[]);
}

async function main(): Promise<void> {
  const only = selected();
  const started = Date.now();
  const cluster = await startCluster();
  const stopOnSignal = (signal: NodeJS.Signals) => {
    cluster.stop();
    process.kill(process.pid, signal);
  };
  process.once("SIGINT", stopOnSignal);
  process.once("SIGTERM", stopOnSignal);
  try {
    await cluster.createDatabase(TEMPLATE_DATABASE);
    const migrated = await openDatabase(
      { kind: "postgres", url: cluster.urlFor(TEMPLATE_DATABASE) },
      { maxConnections: 1 },
    );
    await migrated.close();
    const description = await cluster.describe();
    section("Machine");
    console.log(`date:      ${new Date().toISOString()}`);
    console.log(`cpus:      ${os.cpus().length} × ${os.cpus()[0]?.model ?? "unknown"}`);
    console.log(`memory:    ${(os.totalmem() / 1024 ** 3).toFixed(1)} GiB`);
    console.log(
      `load avg:  ${os
        .loadavg()
        .map((load) => load.toFixed(2))
        .join(" / ")} (1 / 5 / 15 min, at start)`,
    );
    const machineNode = process.env.TANDEM_BENCH_MACHINE_NODE;
    console.log(
      `node:      ${process.version}${machineNode ? ` (fetched for the benchmarks: this machine has ${machineNode}; BENCH_NODE=machine runs on it)` : ""}`,
    );
    console.log(`postgres:  ${description.version}`);
    console.log(
      `clients:   ${cluster.transport === "tcp" ? "TCP on 127.0.0.1 (BENCH_TRANSPORT=tcp)" : "the cluster's Unix socket (BENCH_TRANSPORT=tcp for TCP)"}`,
    );
    console.log(
      `settings:  ${Object.entries(description.settings)
        .map(([name, value]) => `${name}=${value}`)
        .join(", ")}`,
    );

    const cpuAtStart = {
      machine: machineCpu().busyMs,
      own: processTreeCpuMs(process.pid),
      postgres: cluster.cpuMs(),
      at: Date.now(),
    };
    const results: RunResults = {
      baseline: null,
      drift: null,
      steps: null,
      throughput: null,
      inbox: null,
      memory: null,
      subagents: null,
      compile: null,
      ui: null,
      canvas: null,
      cluster: null,
      load: null,
      effects: null,
      peers: null,
    };
    if (only.has("baseline")) {
      await cluster.createDatabase(BASELINE_DATABASE);
      results.baseline = await runBaseline(cluster, BASELINE_DATABASE);
    }
    if (only.has("steps")) results.steps = await runStepTime(cluster, results.baseline);
    if (only.has("throughput")) results.throughput = await runThroughput(cluster, results.baseline);
    if (only.has("inbox")) results.inbox = await runInboxLatency(cluster, results.baseline);
    if (only.has("memory")) results.memory = await runIdleMemory(cluster);
    if (only.has("subagents")) results.subagents = await runSubagents(cluster);
    // Right after Tandem's step, throughput and fan-out runs, so both sides meet the machine alike.
    if (only.has("peers")) results.peers = await runPeers(cluster, results.baseline);
    if (only.has("compile")) results.compile = runCompile();
    if (only.has("ui")) results.ui = await runUi(cluster);
    if (only.has("canvas")) results.canvas = await runCanvas(cluster);
    // Printed by itself (no server, no cluster): the live tree and timeline components alone.
    if (only.has("livetree")) await runLiveTreeUi();
    if (only.has("cluster")) results.cluster = await runClusterBench(cluster, results.baseline);
    if (only.has("load")) results.load = await runLoad(cluster, results.baseline);
    if (only.has("effects")) results.effects = await runEffects(cluster, results.baseline);
    // Printed by itself, beside the baseline (not in the summary table).
    if (only.has("replay")) await runReplay(cluster, results.baseline);
    if (only.has("providers")) await runProviders(cluster, results.baseline);
    if (only.has("analytics")) await runAnalytics(cluster, results.baseline);
    // Printed by itself: steps/s with tracing unset vs exporting (docs/observability.md).
    if (only.has("traces")) await runTraces(cluster, results.baseline);
    if (only.has("evals")) await runEvals(cluster, results.baseline);
    // Printed by themselves (issue 43): live viewers of a fan-out, and 1,000 idle streams.
    if (only.has("viewers")) await runViewers(cluster, results.baseline);
    if (only.has("idle-streams")) await runIdleStreams(cluster, results.baseline);
    // Printed by themselves (issue 43): conversations over HTTP, and server CPU per request.
    if (only.has("http-load")) await runHttpLoad(cluster, results.baseline);
    if (only.has("http-cost")) await runHttpCost(cluster, results.baseline);
    // Printed by itself (issue 43): viewers on an app server of a run executed by a worker.
    if (only.has("viewers-remote")) await runRemoteViewers(cluster, results.baseline);
    // Printed by itself (issue 43): a 1,500-turn conversation's last turns against its first.
    if (only.has("long-chat")) await runLongChat(cluster, results.baseline);
    if (results.baseline) results.drift = await runBaselineDriftCheck(cluster, BASELINE_DATABASE);
    printSummary(results);
    const wallMs = Date.now() - cpuAtStart.at;
    const otherMs =
      machineCpu().busyMs -
      cpuAtStart.machine -
      (processTreeCpuMs(process.pid) - cpuAtStart.own) -
      (cluster.cpuMs() - cpuAtStart.postgres);
    console.log(
      `\nOther processes on this machine used ${(Math.max(0, otherMs) / wallMs).toFixed(2)} cores on average during the benchmarks (noise; the machine has ${os.cpus().length}).`,
    );
    console.log(`\nTotal ${((Date.now() - started) / 1000).toFixed(1)} s`);
  } finally {
    cluster.stop();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : error);
    process.exit(1);
  },
);
