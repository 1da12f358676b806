#!/usr/bin/env node
// `npm run bench`: the runtime benchmarks (bench/run.ts) against a private Postgres cluster with
// fsync on, which the benchmark starts and stops itself. Never part of `npm test`.
// BENCH_ONLY=baseline,steps,throughput,inbox,memory,subagents,compile,ui,canvas,livetree,cluster,load,effects,replay,providers,evals,peers,analytics,traces,viewers,idle-streams,http-load,http-cost,viewers-remote (comma list)
// runs only some benchmarks; `npm run bench:ui` runs the three in Chromium (ui, canvas, livetree) after `npm run build`.
//
// The benchmarks run on Node 24, the release docs/deploy.md recommends for production (its
// AsyncLocalStorage runs without promise hooks: the HTTP server spends ~40 % less CPU per request
// than on Node 20, docs/benchmarks.md session 41). On a machine whose Node is older, the official
// Node 24 binary is fetched once from the npm registry (the node-linux-<arch> package, as .ci/run
// fetches Node 22) into node_modules/.cache/tandem-bench-node and everything the benchmarks start
// (servers, workers, peers) runs on it. BENCH_NODE=machine runs them on this machine's Node instead;
// a failed fetch says so and falls back to it.
import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const BENCH_NODE_MAJOR = 24;

function major(version) {
  return Number(version.replace(/^v/, "").split(".")[0]);
}

/** The folder whose bin/node is Node 24, fetched if needed; null to run on this machine's Node. */
function benchNodeDir() {
  const choice = process.env.BENCH_NODE?.trim();
  if (choice === "machine" || major(process.version) >= BENCH_NODE_MAJOR) return null;
  if (choice) {
    console.error(`BENCH_NODE must be "machine" or unset; got "${choice}".`);
    process.exit(2);
  }
  const cache = path.resolve("node_modules/.cache/tandem-bench-node");
  const dir = path.join(cache, "package");
  const binary = path.join(dir, "bin", "node");
  const usable = () => {
    try {
      return major(execFileSync(binary, ["-v"], { encoding: "utf8" }).trim()) === BENCH_NODE_MAJOR;
    } catch {
      return false;
    }
  };
  if (usable()) return dir;
  const pkg = `node-linux-${process.arch}@${BENCH_NODE_MAJOR}`;
  console.log(
    `Fetching Node ${BENCH_NODE_MAJOR} for the benchmarks (${pkg} from the npm registry; this machine has ${process.version})…`,
  );
  try {
    fs.rmSync(cache, { recursive: true, force: true });
    fs.mkdirSync(cache, { recursive: true });
    execFileSync("npm", ["pack", "--silent", "--pack-destination", cache, pkg], {
      stdio: ["ignore", "ignore", "inherit"],
    });
    const tarball = fs.readdirSync(cache).find((name) => name.endsWith(".tgz"));
    if (!tarball) throw new Error("npm pack wrote no tarball");
    execFileSync("tar", ["xzf", path.join(cache, tarball), "-C", cache]);
    fs.rmSync(path.join(cache, tarball));
  } catch (error) {
    console.log(
      `Could not fetch ${pkg} (${error.message}): the benchmarks run on this machine's Node ${process.version}.`,
    );
    return null;
  }
  return usable() ? dir : null;
}

const nodeDir = benchNodeDir();
const env = { ...process.env, NEXT_TELEMETRY_DISABLED: "1", PRISMA_HIDE_UPDATE_MESSAGE: "1" };
if (nodeDir) {
  env.PATH = `${path.join(nodeDir, "bin")}${path.delimiter}${process.env.PATH ?? ""}`;
  env.TANDEM_BENCH_MACHINE_NODE = process.version;
}
const child = spawn("npx", ["tsx", "--conditions=react-server", "bench/run.ts"], { stdio: "inherit", env });
// The child sees Ctrl-C itself (same process group) and stops its cluster; just don't die first.
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
child.on("close", (code, signal) => {
  process.exit(code ?? (signal ? 1 : 0));
});
