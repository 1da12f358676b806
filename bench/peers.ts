// Benchmark "peers" (BENCH_ONLY=peers, and part of a plain `npm run bench`): the same workloads as
// Tandem's step, throughput and fan-out benchmarks, run by LangGraph.js + PostgresSaver, deepagents
// (PostgresSaver and MemorySaver) and OpenAI agents-core (no persistence), against the same private
// cluster, with deterministic fake models. The peers are their own npm package (bench/peers/,
// installed here on first use with `npm ci --prefix bench/peers`, never by the root install or CI)
// and run in their own Node process (bench/peers/run.ts), which hands back a PeersResult as JSON.
import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type BaselineResult, printBaselineBeside } from "./baseline";
import type { Cluster } from "./cluster";
import { machineCpu, processTreeCpuMs } from "./cpu";
import { type Cell, printTable, section } from "./format";
import { COMPARED_FAN_OUTS, type PeerResult, type PeerSummary, type PeersResult } from "./peer-results";
import { THROUGHPUT_SETTINGS } from "./throughput";

const PEERS_DIR = path.resolve(import.meta.dirname, "peers");
const ROOT = path.resolve(import.meta.dirname, "..");

/**
 * Whether bench/peers/node_modules holds exactly what bench/peers/package-lock.json pins (npm
 * writes the installed tree to node_modules/.package-lock.json).
 */
function peersInstalled(): boolean {
  const installed = path.join(PEERS_DIR, "node_modules", ".package-lock.json");
  if (!fs.existsSync(installed)) return false;
  type Lock = { packages: Record<string, { version?: string }> };
  const read = (file: string) => JSON.parse(fs.readFileSync(file, "utf8")) as Lock;
  const want = read(path.join(PEERS_DIR, "package-lock.json")).packages;
  const have = read(installed).packages;
  return Object.entries(want).every(([name, entry]) => name === "" || have[name]?.version === entry.version);
}

/** `npm ci --prefix bench/peers` when its node_modules is missing or stale; the error when it fails. */
function installPeers(): string | null {
  if (peersInstalled()) return null;
  console.log("  installing the peers: npm ci --prefix bench/peers (once; about 10 s)");
  try {
    execFileSync(
      "npm",
      ["ci", "--prefix", PEERS_DIR, "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error"],
      { stdio: ["ignore", "inherit", "inherit"], cwd: ROOT },
    );
    return null;
  } catch (error) {
    return `npm ci --prefix bench/peers failed: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`;
  }
}

function postmasterPid(cluster: Cluster): number | null {
  try {
    return Number(fs.readFileSync(path.join(cluster.dataDir, "postmaster.pid"), "utf8").split("\n")[0]);
  } catch {
    return null;
  }
}

async function runPeerProcess(cluster: Cluster): Promise<PeersResult> {
  const resultFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "tandem-peers-")), "result.json");
  const pid = postmasterPid(cluster);
  const code = await new Promise<number | null>((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", path.join(PEERS_DIR, "run.ts")], {
      cwd: ROOT,
      stdio: ["ignore", "inherit", "inherit"],
      env: {
        ...process.env,
        PEERS_URL_TEMPLATE: cluster.urlFor("__DB__"),
        PEERS_RESULT_FILE: resultFile,
        // The same settings as Tandem's throughput runs, and the fan-outs the summary compares.
        PEERS_THROUGHPUT_SETTINGS: JSON.stringify(
          THROUGHPUT_SETTINGS.map(({ concurrency, maxConnections }) => ({
            concurrency,
            pool: maxConnections,
          })),
        ),
        PEERS_FAN_OUTS: COMPARED_FAN_OUTS.join(","),
        ...(pid ? { PEERS_POSTMASTER_PID: String(pid) } : {}),
      },
    });
    child.once("error", reject);
    child.once("close", resolve);
  });
  try {
    if (code !== 0 || !fs.existsSync(resultFile))
      return { peers: [], error: `the peers' process exited with code ${code}` };
    return JSON.parse(fs.readFileSync(resultFile, "utf8")) as PeersResult;
  } finally {
    fs.rmSync(path.dirname(resultFile), { recursive: true, force: true });
  }
}

export async function runPeers(cluster: Cluster, baseline: BaselineResult | null): Promise<PeersResult> {
  section("10. Peers: LangGraph.js, deepagents, OpenAI agents-core on the same workloads and cluster");
  const installError = installPeers();
  // What else ran on the machine meanwhile: all busy CPU less this process tree (the peers' process
  // is a child, counted once it has exited) and the cluster.
  const before = {
    machine: machineCpu().busyMs,
    own: processTreeCpuMs(process.pid),
    postgres: cluster.cpuMs(),
  };
  const started = Date.now();
  const result: PeersResult = installError
    ? { peers: [], error: installError }
    : await runPeerProcess(cluster);
  const other =
    machineCpu().busyMs -
    before.machine -
    (processTreeCpuMs(process.pid) - before.own) -
    (cluster.cpuMs() - before.postgres);
  result.otherCores = installError ? null : Math.max(0, other) / (Date.now() - started);
  printPeers(result, baseline);
  return result;
}

const summaryCells = (summary: PeerSummary): Cell[] => [summary.p50, summary.p99, summary.max];
const count = (value: number): Cell => String(value);
const perWall = (cpuMs: number | null, wallMs: number): Cell => (cpuMs === null ? "—" : cpuMs / wallMs);

export function printPeer(peer: PeerResult): void {
  const title = `10. ${peer.name}`;
  if (peer.error) {
    console.log(`\n${title}: did not run: ${peer.error}`);
    return;
  }
  const versions = Object.entries(peer.versions)
    .map(([name, version]) => `${name} ${version}`)
    .join(", ");
  console.log(`\n${title} (${versions}); persistence: ${peer.persistence}`);
  const rows: Cell[][] = [];
  if (peer.step) {
    const { step } = peer;
    rows.push(
      [`one thread, ${step.steps} steps: model call → next (p50 / p99 / max ms)`, ...summaryCells(step.step)],
      [`  first ${step.firstQuarter.count} steps`, ...summaryCells(step.firstQuarter)],
      [`  last ${step.lastQuarter.count} steps`, ...summaryCells(step.lastQuarter)],
    );
    for (const variant of peer.stepVariants ?? [])
      rows.push([`the same, ${variant.label} (information)`, ...summaryCells(variant.step.step)]);
  }
  if (rows.length > 0) printTable(`${title}: step time`, ["measure", "p50 ms", "p99 ms", "max ms"], rows);
  if (peer.step)
    printTable(
      `${title}: cost per step (one thread)`,
      ["measure", "value"],
      [
        ["whole thread's wall time ÷ steps (ms)", peer.step.cpu.wallMs / peer.step.steps],
        ["peer process CPU per step (ms)", peer.step.cpu.nodeCpuMs / peer.step.steps],
        [
          "Postgres CPU per step (ms)",
          peer.step.cpu.postgresCpuMs === null ? "—" : peer.step.cpu.postgresCpuMs / peer.step.steps,
        ],
        ...(peer.stepVariants ?? []).flatMap((variant): Cell[][] => [
          [
            `${variant.label}: whole thread's wall time ÷ steps (ms)`,
            variant.step.cpu.wallMs / variant.step.steps,
          ],
          [
            `${variant.label}: peer process CPU per step (ms)`,
            variant.step.cpu.nodeCpuMs / variant.step.steps,
          ],
          [
            `${variant.label}: Postgres CPU per step (ms)`,
            variant.step.cpu.postgresCpuMs === null
              ? "—"
              : variant.step.cpu.postgresCpuMs / variant.step.steps,
          ],
        ]),
      ],
    );
  if (peer.throughput.length > 0)
    printTable(
      `${title}: 200 threads × 10 steps`,
      [
        "threads at once",
        "pg pool",
        "steps",
        "wall s",
        "steps/s",
        "step under load p50 ms",
        "peer CPU cores",
        "Postgres CPU cores",
      ],
      peer.throughput.map((run) => [
        count(run.concurrency),
        run.pool === null ? "—" : count(run.pool),
        count(run.steps),
        run.cpu.wallMs / 1000,
        run.stepsPerSecond,
        run.stepUnderLoad.p50,
        run.cpu.nodeCpuMs / run.cpu.wallMs,
        perWall(run.cpu.postgresCpuMs, run.cpu.wallMs),
      ]),
    );
  if (peer.fanOuts.length > 0)
    printTable(
      `${title}: one parent, N children in one turn (2 model calls each), every report in`,
      [
        "children",
        "every report in, s",
        "last child started, s",
        "model calls",
        "peak RSS MiB",
        "peer CPU cores",
        "Postgres CPU cores",
      ],
      peer.fanOuts.map((run) => [
        count(run.children),
        run.wallMs / 1000,
        run.spawnMs / 1000,
        count(run.modelCalls),
        run.peakRssMiB,
        run.cpu.nodeCpuMs / run.cpu.wallMs,
        perWall(run.cpu.postgresCpuMs, run.cpu.wallMs),
      ]),
    );
}

export function printPeers(result: PeersResult, baseline: BaselineResult | null): void {
  if (result.error) console.log(`\n10. Peers did not run: ${result.error}`);
  for (const peer of result.peers) printPeer(peer);
  if (typeof result.otherCores === "number")
    console.log(
      `\n10. Other processes used ${result.otherCores.toFixed(2)} cores on average while the peers ran (noise; the machine has ${os.cpus().length}).`,
    );
  printBaselineBeside("10. Peers", baseline, (base) => [
    ["one durable commit: INSERT + COMMIT p50 (ms)", base.insertOneConnection.latency?.p50 ?? Number.NaN],
    ["INSERT + COMMIT rows/s, 1 connection", base.insertOneConnection.perSecond],
    ["INSERT + COMMIT rows/s, 10 connections", base.insertTenConnections.perSecond],
    ["BEGIN; INSERT; COMMIT per s, 10 connections", base.transactionTenConnections.perSecond],
  ]);
}
