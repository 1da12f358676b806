// The child process of the memory benchmark (bench/idle-memory.ts): opens a runtime on the
// database named by BENCH_DATABASE_URL, warms it up, measures memory, creates IDLE_THREADS threads
// that each run one turn and park idle, measures again and prints one `RESULT {json}` line.
import v8 from "node:v8";
import vm from "node:vm";
import { chatBundle } from "../test/support/bench-bundles";
import { monotonicMs, sleep } from "../test/support/clock";
import { countThreads, createThreads, openRuntimeAt, waitUntil } from "./harness";
import { IDLE_THREADS, type IdleMemoryResult, type MemoryFigures } from "./idle-memory";

const WARM_UP_THREADS = 100;
const TABLES = ["threads", "messages", "inbox_items", "events", "model_calls"] as const;

function exposeGc(): () => void {
  v8.setFlagsFromString("--expose-gc");
  const gc: unknown = vm.runInNewContext("gc");
  if (typeof gc !== "function") throw new Error("Could not expose the garbage collector");
  return () => gc();
}

async function settledMemory(gc: () => void): Promise<MemoryFigures> {
  // Several full collections with pauses, so V8 has returned what it will return to the system.
  for (let round = 0; round < 5; round++) {
    gc();
    await sleep(300);
  }
  const usage = process.memoryUsage();
  return {
    rss: usage.rss,
    heapUsed: usage.heapUsed,
    heapTotal: usage.heapTotal,
    external: usage.external,
    peakRss: process.resourceUsage().maxRSS * 1024,
  };
}

async function main(): Promise<void> {
  const url = process.env.BENCH_DATABASE_URL;
  if (!url) throw new Error("BENCH_DATABASE_URL is not set");
  const gc = exposeGc();
  const bench = await openRuntimeAt(url, { bundle: chatBundle(2), database: "memory" });
  try {
    const { runtime } = bench;
    await runtime.scheduler.start();
    const idleCount = (expected: number) =>
      waitUntil(
        `${expected} idle threads`,
        async () => (await countThreads(bench.raw.sql, ["idle"])) === expected,
        240_000,
        50,
      );
    // Warm-up: every code path of a turn has run and every pool connection is open.
    await createThreads(bench, WARM_UP_THREADS, "chat", (index) => `Warm-up ${index}`);
    await idleCount(WARM_UP_THREADS);
    const before = await settledMemory(gc);

    const started = monotonicMs();
    await createThreads(bench, IDLE_THREADS, "chat", (index) => `Hello ${index}`);
    await idleCount(WARM_UP_THREADS + IDLE_THREADS);
    const createAndParkSeconds = (monotonicMs() - started) / 1000;
    const after = await settledMemory(gc);

    const total = WARM_UP_THREADS + IDLE_THREADS;
    const rowsPerThread: Record<string, number> = {};
    let bytes = 0;
    for (const table of TABLES) {
      const [row] = await bench.raw.sql.query<{ rows: number; bytes: string }>(
        `SELECT count(*)::int AS rows, pg_total_relation_size('${table}')::text AS bytes FROM ${table}`,
      );
      rowsPerThread[table] = Number(row?.rows ?? 0) / total;
      bytes += Number(row?.bytes ?? 0);
    }
    const result: IdleMemoryResult = {
      threads: IDLE_THREADS,
      warmUpThreads: WARM_UP_THREADS,
      before,
      after,
      createAndParkSeconds,
      rowsPerThread,
      databaseBytesPerThread: bytes / total,
    };
    console.log(`RESULT ${JSON.stringify(result)}`);
  } finally {
    await bench.close();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : error);
    process.exit(1);
  },
);
