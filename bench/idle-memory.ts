// Benchmark 5, memory of idle threads: in a fresh child process (so earlier benchmarks do not
// colour the figures), RSS and heap are taken after a warm-up and again after 1,000 more threads
// have each run one turn and parked idle. An idle thread should cost rows, not memory; the rows and
// bytes it costs in Postgres are reported beside the process figures.
import { spawn } from "node:child_process";
import path from "node:path";
import type { Cluster } from "./cluster";
import { mib, printTable, section } from "./format";
import { TEMPLATE_DATABASE } from "./harness";

export const IDLE_THREADS = 1_000;

export interface MemoryFigures {
  rss: number;
  heapUsed: number;
  heapTotal: number;
  external: number;
  /** Highest RSS of the process so far. */
  peakRss: number;
}

export interface IdleMemoryResult {
  threads: number;
  before: MemoryFigures;
  after: MemoryFigures;
  /** Wall time to create the threads and have every one answer and park (s). */
  createAndParkSeconds: number;
  /** Threads that ran before the first measurement (warm-up); they are idle in both measurements. */
  warmUpThreads: number;
  /** Rows per idle thread, by table. */
  rowsPerThread: Record<string, number>;
  /** Postgres bytes per thread (tables and indexes of the runtime, incl. the warm-up threads). */
  databaseBytesPerThread: number;
}

export async function runIdleMemory(cluster: Cluster): Promise<IdleMemoryResult> {
  section(`5. Process memory with ${IDLE_THREADS.toLocaleString("en-US")} idle threads (fresh process)`);
  const database = "bench_memory";
  await cluster.createDatabase(database, TEMPLATE_DATABASE);
  const child = spawn(
    "npx",
    ["tsx", "--conditions=react-server", path.join(import.meta.dirname, "idle-memory-child.ts")],
    {
      env: { ...process.env, BENCH_DATABASE_URL: cluster.urlFor(database) },
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => {
    output += chunk.toString("utf8");
  });
  const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
  if (code !== 0) throw new Error(`The memory benchmark's process exited with code ${code}`);
  const line = output.split("\n").find((candidate) => candidate.startsWith("RESULT "));
  if (!line) throw new Error(`The memory benchmark printed no result:\n${output}`);
  const result = JSON.parse(line.slice("RESULT ".length)) as IdleMemoryResult;
  printIdleMemory(result);
  return result;
}

export function printIdleMemory(result: IdleMemoryResult): void {
  const row = (name: string, key: keyof MemoryFigures) => [
    name,
    mib(result.before[key]),
    mib(result.after[key]),
    mib(result.after[key] - result.before[key]),
    `${((result.after[key] - result.before[key]) / result.threads / 1024).toFixed(2)} KiB`,
  ];
  printTable(
    `5. Memory after ${result.warmUpThreads} warm-up threads (before) and after ${result.threads.toLocaleString("en-US")} more ran one turn and parked idle (after full GCs)`,
    ["measure", "before", "after", "delta", "per idle thread"],
    [
      row("RSS", "rss"),
      row("V8 heap used", "heapUsed"),
      row("V8 heap total", "heapTotal"),
      row("external (buffers)", "external"),
      row("peak RSS so far", "peakRss"),
    ],
  );
  printTable(
    "5. What an idle thread costs in Postgres instead",
    ["measure", "value"],
    [
      ...Object.entries(result.rowsPerThread).map(([table, rows]): [string, number] => [
        `${table} rows per thread`,
        rows,
      ]),
      ["database bytes per thread (KiB, tables + indexes)", result.databaseBytesPerThread / 1024],
      [`time to create ${result.threads} threads and run their first turn (s)`, result.createAndParkSeconds],
    ],
  );
}
