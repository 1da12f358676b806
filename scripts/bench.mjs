#!/usr/bin/env node
// `npm run bench`: the runtime benchmarks (bench/run.ts) against a private Postgres cluster with
// fsync on, which the benchmark starts and stops itself. Never part of `npm test`.
// BENCH_ONLY=baseline,steps,throughput,inbox,memory,subagents,compile,ui,canvas,livetree,cluster,load,effects,replay,providers,evals,peers,analytics,traces,viewers,idle-streams,http-load,http-cost,viewers-remote (comma list)
// runs only some benchmarks; `npm run bench:ui` runs the three in Chromium (ui, canvas, livetree) after `npm run build`.
import { spawn } from "node:child_process";

const child = spawn("npx", ["tsx", "--conditions=react-server", "bench/run.ts"], {
  stdio: "inherit",
  env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", PRISMA_HIDE_UPDATE_MESSAGE: "1" },
});
// The child sees Ctrl-C itself (same process group) and stops its cluster; just don't die first.
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
child.on("close", (code, signal) => {
  process.exit(code ?? (signal ? 1 : 0));
});
