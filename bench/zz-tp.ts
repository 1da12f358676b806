import { dialogueBundle } from "/work/main/bench/bundles";
import { countThreads, openRuntimeAt, waitUntil } from "/work/main/bench/harness";

const url = process.env.DATABASE_URL!;
const threads = Number(process.env.THREADS ?? 600);
const bench = await openRuntimeAt(url, { bundle: dialogueBundle(5), concurrency: 16, maxConnections: 10 });
for (let i = 0; i < threads; i++)
  await bench.runtime.threads.create({
    projectId: bench.projectId,
    agentName: "dialogue",
    message: "go " + i,
  });
console.log("created; starting");
const started = performance.now();
await bench.runtime.scheduler.start();
await waitUntil(
  "end",
  async () => (await countThreads(bench.raw.sql, ["stopped", "completed", "failed"])) >= threads,
  120000,
  20,
);
const t = performance.now() - started;
console.log(`${(((threads * 10) / t) * 1000).toFixed(0)} steps/s over ${(t / 1000).toFixed(1)} s`);
await bench.close();
process.exit(0);
