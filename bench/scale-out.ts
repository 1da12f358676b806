// Benchmark 9 (`BENCH_ONLY=cluster`), scale-out: two app servers (`next start`, one with
// TANDEM_RUN_THREADS=false) and two `npm run worker` processes on one Postgres, all with default
// settings. Measures (a) throughput: dual_ai threads created over HTTP through both app servers,
// steps/s until all stopped; (b) dispatch latency on a quiet cluster: a thread created through the
// server that runs no threads → its first model call in another process (NOTIFY across processes);
// (c) recovery: a worker holding threads mid-step is SIGKILLed → each of its threads is claimed
// by another process. Needs a production build (`npx next build`).
import type postgres from "postgres";
import { chatBundle, dialogueBundle } from "../test/support/bench-bundles";
import { requestJson } from "../test/support/http";
import { startTestServer, type TestServer } from "../test/support/server";
import { startTestWorker, type TestWorker } from "../test/support/worker";
import { type BaselineResult, printBaselineBeside } from "./baseline";
import type { Cluster } from "./cluster";
import { printTable, SUMMARY_HEADER, section, summaryCells } from "./format";
import { TEMPLATE_DATABASE } from "./harness";
import { type Summary, summarize } from "./stats";

const THREADS = 200;
const TURNS = 5; // 10 steps per thread
const DISPATCH_SAMPLES = 40;
const RECOVERY_THREADS = 24;

export interface ClusterResult {
  threads: number;
  steps: number;
  wallMs: number;
  stepsPerSecond: number;
  dispatch: Summary;
  recovery: Summary;
  recoveredThreads: number;
}

interface Processes {
  appA: TestServer;
  appB: TestServer;
  workers: TestWorker[];
}

export async function runClusterBench(
  cluster: Cluster,
  baseline: BaselineResult | null,
): Promise<ClusterResult> {
  section("9. Scale-out: two app servers + two workers on one Postgres (default settings)");
  const name = "bench_cluster";
  await cluster.createDatabase(name, TEMPLATE_DATABASE);
  const url = cluster.urlFor(name);
  const sql = cluster.connect(name, { max: 2, onnotice: () => {} });
  const env = { DATABASE_URL: url };
  const started: Partial<Processes> & { workers: TestWorker[] } = { workers: [] };
  try {
    started.appA = await startTestServer(env);
    started.appB = await startTestServer({ ...env, TANDEM_RUN_THREADS: "false" });
    started.workers.push(await startTestWorker(env, "bench-worker-1"));
    started.workers.push(await startTestWorker(env, "bench-worker-2"));
    const processes = started as Processes;

    const dispatch = await measureDispatch(processes, sql);
    console.log(`  dispatch p50 ${dispatch.p50.toFixed(1)} ms over ${dispatch.count} threads`);
    const throughput = await measureThroughput(processes, sql);
    console.log(`  throughput ${Math.round(throughput.steps / (throughput.wallMs / 1000))} steps/s`);
    const recovery = await measureRecovery(processes, sql, env);
    console.log(
      `  recovery max ${recovery.summary.max.toFixed(0)} ms over ${recovery.summary.count} threads`,
    );

    const result: ClusterResult = {
      threads: THREADS,
      steps: throughput.steps,
      wallMs: throughput.wallMs,
      stepsPerSecond: throughput.steps / (throughput.wallMs / 1000),
      dispatch,
      recovery: recovery.summary,
      recoveredThreads: recovery.summary.count,
    };
    printCluster(result, baseline);
    return result;
  } finally {
    await Promise.all(started.workers.map((worker) => worker.kill()));
    await started.appA?.stop();
    await started.appB?.stop();
    await sql.end({ timeout: 5 });
  }
}

async function project(server: TestServer, definitions: unknown): Promise<string> {
  const created = await requestJson<{ id: string }>(server.baseUrl, "POST", "/api/projects", {
    name: `bench ${Date.now()}`,
    definitions,
  });
  if (created.status !== 201) throw new Error(`project: ${JSON.stringify(created.body)}`);
  return created.body.id;
}

async function thread(
  server: TestServer,
  projectId: string,
  agent: string,
  message: string,
): Promise<string> {
  const created = await requestJson<{ threadId: string }>(server.baseUrl, "POST", "/api/threads", {
    project_id: projectId,
    agent_id: agent,
    message,
  });
  if (created.status !== 201) throw new Error(`thread: ${JSON.stringify(created.body)}`);
  return created.body.threadId;
}

async function until(what: string, check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Created (committed) by the server that runs no threads → first model call logged elsewhere. */
async function measureDispatch(processes: Processes, sql: postgres.Sql): Promise<Summary> {
  const projectId = await project(processes.appB, chatBundle(1));
  const samples: number[] = [];
  for (let index = 0; index < DISPATCH_SAMPLES; index++) {
    const id = await thread(processes.appB, projectId, "chat", `ping ${index}`);
    let row: { created: string; first: string } | undefined;
    await until(
      "a model call",
      async () => {
        [row] = await sql<{ created: string; first: string }[]>`
          SELECT t.created_at AS created, min(m.created_at - m.latency_ms * 1000) AS first
          FROM threads t JOIN model_calls m ON m.thread_id = t.id WHERE t.id = ${id} GROUP BY t.created_at`;
        return row !== undefined;
      },
      10_000,
    );
    if (row) samples.push((Number(row.first) - Number(row.created)) / 1000);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return summarize(samples);
}

async function measureThroughput(
  processes: Processes,
  sql: postgres.Sql,
): Promise<{ steps: number; wallMs: number }> {
  const projectId = await project(processes.appA, dialogueBundle(TURNS));
  const [{ before }] = (await sql`SELECT count(*)::int AS before FROM model_calls`) as unknown as [
    { before: number },
  ];
  const started = Date.now();
  const ids: string[] = [];
  for (let batch = 0; batch < THREADS; batch += 20) {
    ids.push(
      ...(await Promise.all(
        Array.from({ length: 20 }, (_, index) =>
          thread(
            (batch + index) % 2 === 0 ? processes.appA : processes.appB,
            projectId,
            "dialogue",
            `Dialogue ${batch + index}`,
          ),
        ),
      )),
    );
  }
  await until(
    "every dialogue to stop",
    async () => {
      const [{ done }] = (await sql`
        SELECT count(*)::int AS done FROM threads WHERE id = ANY(${ids}::uuid[])
          AND status IN ('stopped', 'completed', 'failed')`) as unknown as [{ done: number }];
      return done === ids.length;
    },
    300_000,
  );
  const wallMs = Date.now() - started;
  const [{ after }] = (await sql`SELECT count(*)::int AS after FROM model_calls`) as unknown as [
    { after: number },
  ];
  const steps = after - before;
  if (steps !== THREADS * TURNS * 2) throw new Error(`Expected ${THREADS * TURNS * 2} steps, saw ${steps}`);
  return { steps, wallMs };
}

/** Threads in a long model call; the worker holding some is SIGKILLed; time until each runs elsewhere. */
async function measureRecovery(
  processes: Processes,
  sql: postgres.Sql,
  env: Record<string, string>,
): Promise<{ summary: Summary }> {
  const slow = chatBundle(1);
  const model = slow.models[0] as { script: unknown[] };
  model.script = [{ text: "slow answer", delayMs: 20_000 }];
  const projectId = await project(processes.appA, slow);
  const ids: string[] = [];
  for (let index = 0; index < RECOVERY_THREADS; index++)
    ids.push(await thread(processes.appB, projectId, "chat", `slow ${index}`));
  const victim = processes.workers[0] as TestWorker;
  let onVictim: string[] = [];
  await until(
    "the victim holding threads",
    async () => {
      const rows = await sql<{ id: string }[]>`
        SELECT id FROM threads WHERE id = ANY(${ids}::uuid[]) AND lease_owner LIKE ${`${victim.ownerPrefix}%`}`;
      onVictim = rows.map((row) => row.id);
      return onVictim.length > 0;
    },
    30_000,
  );
  // Let the claims settle, so the victim is mid-step and its leases were just renewed or not.
  await new Promise((resolve) => setTimeout(resolve, 500));
  const rows = await sql<{ id: string }[]>`
    SELECT id FROM threads WHERE id = ANY(${ids}::uuid[]) AND lease_owner LIKE ${`${victim.ownerPrefix}%`}`;
  onVictim = rows.map((row) => row.id);
  await victim.kill();
  const killedAt = Date.now();
  const recoveredAt = new Map<string, number>();
  await until(
    "every thread of the killed worker to run elsewhere",
    async () => {
      const owners = await sql<{ id: string; lease_owner: string | null }[]>`
        SELECT id, lease_owner FROM threads WHERE id = ANY(${onVictim}::uuid[])`;
      for (const row of owners) {
        if (row.lease_owner && !row.lease_owner.startsWith(victim.ownerPrefix) && !recoveredAt.has(row.id))
          recoveredAt.set(row.id, Date.now() - killedAt);
      }
      return recoveredAt.size === onVictim.length;
    },
    60_000,
  );
  processes.workers.splice(0, 1);
  processes.workers.push(await startTestWorker(env, "bench-worker-3"));
  return { summary: summarize([...recoveredAt.values()]) };
}

export function printCluster(result: ClusterResult, baseline: BaselineResult | null): void {
  printTable(
    "9. Scale-out throughput (2 app servers + 2 workers; threads created over HTTP through both servers)",
    ["threads", "steps", "wall s", "steps/s"],
    [[result.threads, result.steps, result.wallMs / 1000, result.stepsPerSecond]],
  );
  printTable(
    "9. Dispatch latency on a quiet cluster (created via the server that runs no threads → first model call)",
    [...SUMMARY_HEADER],
    [summaryCells(result.dispatch)],
  );
  printTable(
    "9. Recovery after a SIGKILLed worker (kill → thread claimed by another process; target ≤ 10 s)",
    [...SUMMARY_HEADER],
    [summaryCells(result.recovery)],
  );
  printBaselineBeside("9. Scale-out", baseline, (base) => [
    ["SELECT 1 round trip p50 ms", base.roundTrip.latency?.p50 ?? "n/a"],
    [
      "BEGIN; INSERT; pg_notify; COMMIT per s, 10 connections",
      base.notifyingTransactionTenConnections.perSecond,
    ],
    ["INSERT + COMMIT rows/s, 10 connections", base.insertTenConnections.perSecond],
  ]);
}
