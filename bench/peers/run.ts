// The peer benchmarks' process (started by bench/peers.ts for BENCH_ONLY=peers, in its own Node
// process so the peers share nothing with Tandem's runtime but the Postgres cluster). It runs each
// peer's workloads, one after another, and writes a PeersResult (bench/peer-results.ts) as JSON to
// PEERS_RESULT_FILE. A peer that fails is reported with its error; the others still run.
//   PEERS_URL_TEMPLATE    a connection URL of the bench's cluster whose database name is __DB__
//   PEERS_POSTMASTER_PID  the cluster's postmaster (Postgres CPU per window), optional
//   PEERS_THROUGHPUT_SETTINGS  JSON [{concurrency, pool}]: Tandem's throughput settings (bench/throughput.ts)
//   PEERS_FAN_OUTS        children per fan-out, comma list (default 50,200)
//   PEERS_ONLY            langgraph,deepagents-postgres,deepagents-memory,agents-core (default: all)

import { setMaxListeners } from "node:events";
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import type { PeerKey, PeerResult, PeersResult } from "../peer-results";
import { agentsCoreFanOuts, agentsCoreStepTime, agentsCoreThroughput } from "./agents-core";
import { deepAgentsFanOuts } from "./deepagents";
import { langGraphStepTime, langGraphThroughput, THROUGHPUT_STEPS, THROUGHPUT_THREADS } from "./langgraph";

// deepagents' 200 concurrent subagents each add an abort listener to the run's signal.
setMaxListeners(0);

const FAN_OUTS = (process.env.PEERS_FAN_OUTS ?? "50,200").split(",").map(Number);
/** Threads in flight at once × pg pool size; by default the settings of bench/throughput.ts. */
const THROUGHPUT_SETTINGS = JSON.parse(
  process.env.PEERS_THROUGHPUT_SETTINGS ??
    '[{"concurrency":16,"pool":10},{"concurrency":64,"pool":10},{"concurrency":64,"pool":40},{"concurrency":200,"pool":10},{"concurrency":200,"pool":20}]',
) as { concurrency: number; pool: number }[];
const ALL: readonly PeerKey[] = ["langgraph", "deepagents-postgres", "deepagents-memory", "agents-core"];

const template = process.env.PEERS_URL_TEMPLATE;
const resultFile = process.env.PEERS_RESULT_FILE;
if (!template || !resultFile) throw new Error("PEERS_URL_TEMPLATE and PEERS_RESULT_FILE are required");
const postmasterPid = process.env.PEERS_POSTMASTER_PID ? Number(process.env.PEERS_POSTMASTER_PID) : null;
const only = process.env.PEERS_ONLY
  ? (process.env.PEERS_ONLY.split(",").map((name) => name.trim()) as PeerKey[])
  : ALL;

const urlFor = (database: string) => template.replace("__DB__", database);

async function createDatabase(name: string): Promise<string> {
  const admin = new pg.Client({ connectionString: urlFor("postgres") });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${name}`);
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  return urlFor(name);
}

function versions(...packages: string[]): Record<string, string> {
  const found: Record<string, string> = {};
  for (const name of packages) {
    const file = path.join(import.meta.dirname, "node_modules", name, "package.json");
    found[name] = (JSON.parse(fs.readFileSync(file, "utf8")) as { version: string }).version;
  }
  return found;
}

const log = (line: string) => console.log(`  ${line}`);
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

async function langGraph(): Promise<PeerResult> {
  const result: PeerResult = {
    key: "langgraph",
    name: "LangGraph.js + PostgresSaver",
    versions: versions("@langchain/langgraph", "@langchain/langgraph-checkpoint-postgres", "@langchain/core"),
    persistence: 'PostgresSaver, durability "sync" (each super-step checkpointed before the next)',
    step: null,
    throughput: [],
    fanOuts: [],
    error: null,
  };
  result.step = await langGraphStepTime(await createDatabase("peers_langgraph_steps"), postmasterPid);
  log(`LangGraph.js: step p50 ${result.step.step.p50.toFixed(2)} ms`);
  // For information: LangGraph's default, which writes a checkpoint while the next step runs.
  const asyncStep = await langGraphStepTime(
    await createDatabase("peers_langgraph_async"),
    postmasterPid,
    "async",
  );
  result.stepVariants = [{ label: 'durability "async" (LangGraph\'s default)', step: asyncStep }];
  log(`LangGraph.js: step p50 ${asyncStep.step.p50.toFixed(2)} ms with durability "async"`);
  for (const setting of THROUGHPUT_SETTINGS) {
    const url = await createDatabase(`peers_langgraph_tp_${setting.concurrency}_${setting.pool}`);
    const run = await langGraphThroughput(url, setting, postmasterPid);
    log(
      `LangGraph.js: ${THROUGHPUT_THREADS} threads × ${THROUGHPUT_STEPS} steps, ${setting.concurrency} at once, pool ${setting.pool}: ${Math.round(run.stepsPerSecond)} steps/s`,
    );
    result.throughput.push(run);
  }
  return result;
}

async function deepAgents(saver: "postgres" | "memory"): Promise<PeerResult> {
  const result: PeerResult = {
    key: saver === "postgres" ? "deepagents-postgres" : "deepagents-memory",
    name: saver === "postgres" ? "deepagents + PostgresSaver" : "deepagents + MemorySaver",
    versions: versions("deepagents", "langchain", "@langchain/langgraph", "@langchain/core"),
    persistence:
      saver === "postgres"
        ? 'PostgresSaver (pool 20), durability "sync" (passed on to the workers\' runs); the workers inherit the saver (checkpointed in their own namespaces)'
        : "MemorySaver (in this process only)",
    step: null,
    throughput: [],
    fanOuts: [],
    error: null,
  };
  const url = saver === "postgres" ? await createDatabase("peers_deepagents") : null;
  result.fanOuts = await deepAgentsFanOuts(saver, url, FAN_OUTS, postmasterPid);
  for (const run of result.fanOuts)
    log(`${result.name}: ${run.children} children, every report in ${seconds(run.wallMs)}`);
  return result;
}

async function agentsCore(): Promise<PeerResult> {
  const result: PeerResult = {
    key: "agents-core",
    name: "OpenAI agents-core (no persistence)",
    versions: versions("@openai/agents-core"),
    persistence: "none: the run's state stays in this process",
    step: await agentsCoreStepTime(),
    throughput: [await agentsCoreThroughput(THROUGHPUT_THREADS, THROUGHPUT_STEPS)],
    fanOuts: await agentsCoreFanOuts(FAN_OUTS),
    error: null,
  };
  log(
    `agents-core: step p50 ${result.step!.step.p50.toFixed(2)} ms; ${Math.round(result.throughput[0]!.stepsPerSecond)} steps/s; children ${result.fanOuts.map((run) => seconds(run.wallMs)).join(" / ")}`,
  );
  return result;
}

const workloads: Record<PeerKey, { name: string; run: () => Promise<PeerResult> }> = {
  langgraph: { name: "LangGraph.js + PostgresSaver", run: langGraph },
  "deepagents-postgres": { name: "deepagents + PostgresSaver", run: () => deepAgents("postgres") },
  "deepagents-memory": { name: "deepagents + MemorySaver", run: () => deepAgents("memory") },
  "agents-core": { name: "OpenAI agents-core (no persistence)", run: agentsCore },
};

const output: PeersResult = { peers: [], error: null };
for (const key of only) {
  const workload = workloads[key];
  if (!workload) throw new Error(`Unknown peer ${key}; known: ${ALL.join(", ")}`);
  try {
    output.peers.push(await workload.run());
  } catch (error) {
    const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
    console.error(`  ${workload.name} failed: ${message}`);
    output.peers.push({
      key,
      name: workload.name,
      versions: {},
      persistence: "",
      step: null,
      throughput: [],
      fanOuts: [],
      error: message.split("\n")[0] ?? message,
    });
  }
}
fs.writeFileSync(resultFile, JSON.stringify(output));
