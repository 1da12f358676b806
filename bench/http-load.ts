// Benchmarks `http-load` and `http-cost` (issue 43, "The HTTP edge dominates real-latency load"),
// over HTTP against the production server (`npm start`: scripts/serve.mjs, the API's fast lane in
// front of Next.js; TANDEM_API_FAST_LANE=false for Next alone) on the benchmark's Postgres (fsync on):
//   http-load: N `ai_human` conversations of two turns each against a scripted model answering in
//     1 s. Every conversation starts at once: POST /api/threads with its first message, open the
//     thread's event stream (Last-Event-ID: 0, so nothing is missed) and wait for the assistant's
//     message on it, POST /api/threads/:id/messages, wait for the second answer on the stream. Timed
//     from the first POST /api/threads to the last reply's arrival; printed with its ratio to the
//     ideal 2 s (two model latencies) and to the floor the provider gate sets (TANDEM_PROVIDER_CONCURRENCY,
//     default 1,024 calls at once per provider and process; a conversation has one call at a time, so
//     2 × ⌈N / limit⌉ s). N = 500 and 1,000 at default settings, and the time to create 500 threads
//     with no message alone. The client's own CPU (this process) is printed beside the server's.
//   http-cost: server CPU per request (its process tree's utime + stime from /proc before and after)
//     of GET /api/health (the bare route: one SELECT 1 and the load figures), POST /api/threads (no
//     message) and POST /api/threads/:id/messages (one per created thread), BENCH_HTTP_COST_REQUESTS
//     each (default 2,000) at BENCH_HTTP_COST_CONCURRENCY in flight (default 8); first on an app server
//     that runs no threads (TANDEM_RUN_THREADS=false: the request alone — route, validation, auth,
//     database, wake-up NOTIFY), then on a default server (a message's CPU then includes the run it
//     starts: one step answering at once), where the answered threads' event streams are then opened,
//     replayed to the answer and closed (a chat page's stream, alone). Printed per request and as a
//     ratio to the bare route.
// BENCH_SERVER_PROFILE=<folder>: a V8 CPU profile of each server process (bench/server-profiler.cjs),
// written into that folder when it stops. Needs a production build (`npm run build`).
import path from "node:path";
import { DEFAULT_PROVIDER_CONCURRENCY } from "@/runtime/models/provider-limits";
import { chatBundle } from "../test/support/bench-bundles";
import { startTestServer, type TestServer } from "../test/support/server";
import { type BaselineResult, printBaselineBeside } from "./baseline";
import type { Cluster } from "./cluster";
import { machineCpu, ownCpuMs, processTreeCpuMs } from "./cpu";
import { type Cell, printTable, section } from "./format";
import { TEMPLATE_DATABASE } from "./harness";
import { type HttpClient, httpClient, openReplyStream } from "./http-client";
import { summarize } from "./stats";

const MODEL_MS = 1_000;
const LOAD_SIZES = [500, 1_000] as const;
const CREATE_ALONE = 500;
/** POSTs in flight at once from the client (keep-alive sockets); event streams have a socket each. */
const CLIENT_SOCKETS = positiveSetting("BENCH_HTTP_SOCKETS", 64);
const COST_REQUESTS = positiveSetting("BENCH_HTTP_COST_REQUESTS", 2_000);
const COST_CONCURRENCY = positiveSetting("BENCH_HTTP_COST_CONCURRENCY", 8);
/** Requests per route before measuring (300 left the first bare window ~50 % dearer than the last). */
const WARM_REQUESTS = 1_000;

function positiveSetting(name: string, fallback: number): number {
  const raw = process.env[name]?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1)
    throw new Error(`${name} must be a whole number ≥ 1; got "${raw}".`);
  return value;
}

/**
 * The server's environment: BENCH_SERVER_PROFILE=<folder> preloads bench/server-profiler.cjs, a V8
 * CPU profile of the server written there when it stops (Node refuses --cpu-prof in NODE_OPTIONS).
 */
export function serverEnv(
  database: string,
  cluster: Cluster,
  extra: Record<string, string>,
): Record<string, string> {
  const folder = process.env.BENCH_SERVER_PROFILE?.trim();
  const preload = path.join(import.meta.dirname, "server-profiler.cjs");
  return {
    DATABASE_URL: cluster.urlFor(database),
    ...(folder
      ? {
          BENCH_SERVER_PROFILE: path.resolve(folder),
          NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ""} --require ${preload}`.trim(),
        }
      : {}),
    ...extra,
  };
}

/** CPU of the server, Postgres, this process and the whole machine, for a window's deltas. */
function cpuNow(server: TestServer, cluster: Cluster) {
  const pid = server.pid();
  if (!pid) throw new Error("the server is not running");
  return {
    server: processTreeCpuMs(pid),
    postgres: cluster.cpuMs(),
    client: ownCpuMs(),
    machine: machineCpu().busyMs,
    at: performance.now(),
  };
}

type CpuMark = ReturnType<typeof cpuNow>;

function cpuSince(before: CpuMark, after: CpuMark) {
  const wallMs = after.at - before.at;
  const server = after.server - before.server;
  const postgres = after.postgres - before.postgres;
  const client = after.client - before.client;
  return {
    wallMs,
    serverMs: server,
    postgresMs: postgres,
    clientMs: client,
    otherCores: Math.max(0, after.machine - before.machine - server - postgres - client) / wallMs,
  };
}

async function createProject(client: HttpClient, turns: number, delayMs: number): Promise<string> {
  const created = await client.json("POST", "/api/projects", {
    name: `bench http ${Date.now()} ${Math.random()}`,
    definitions: chatBundle(turns, delayMs),
  });
  if (created.status !== 201) throw new Error(`project: ${created.status} ${created.text}`);
  return (JSON.parse(created.text) as { id: string }).id;
}

async function createThread(client: HttpClient, projectId: string, message?: string): Promise<string> {
  const created = await client.json("POST", "/api/threads", {
    project_id: projectId,
    agent_id: "chat",
    ...(message === undefined ? {} : { message }),
  });
  if (created.status !== 201) throw new Error(`thread: ${created.status} ${created.text}`);
  return (JSON.parse(created.text) as { threadId: string }).threadId;
}

interface ConversationTimes {
  created: number;
  firstReply: number;
  posted: number;
  secondReply: number;
}

export interface HttpLoadRun {
  label: string;
  conversations: number;
  providerLimit: number;
  wallMs: number;
  idealMs: number;
  floorMs: number;
  /** From the first POST /api/threads to the last 201. */
  createdMs: number;
  turnOne: ReturnType<typeof summarize>;
  turnTwo: ReturnType<typeof summarize>;
  serverCpuMs: number;
  postgresCpuMs: number;
  clientCpuMs: number;
  otherCores: number;
}

/** N conversations at once, two turns each, replies read on each thread's event stream. */
async function conversations(
  server: TestServer,
  cluster: Cluster,
  projectId: string,
  count: number,
): Promise<{ times: ConversationTimes[]; started: number; cpu: ReturnType<typeof cpuSince> }> {
  const client = httpClient(server.baseUrl, CLIENT_SOCKETS);
  try {
    const before = cpuNow(server, cluster);
    const started = performance.now();
    const times = await Promise.all(
      Array.from({ length: count }, async (_, index) => {
        const threadId = await createThread(client, projectId, `question ${index}`);
        const created = performance.now();
        const stream = await openReplyStream(server.baseUrl, threadId);
        try {
          await stream.waitForReplies(1, 120_000);
          const firstReply = performance.now();
          const posted = await client.json("POST", `/api/threads/${threadId}/messages`, { content: "again" });
          if (posted.status !== 202) throw new Error(`message: ${posted.status} ${posted.text}`);
          const postedAt = performance.now();
          await stream.waitForReplies(2, 120_000);
          return { created, firstReply, posted: postedAt, secondReply: performance.now() };
        } finally {
          stream.close();
        }
      }),
    );
    return { times, started, cpu: cpuSince(before, cpuNow(server, cluster)) };
  } finally {
    client.close();
  }
}

async function loadRun(
  server: TestServer,
  cluster: Cluster,
  projectId: string,
  count: number,
  label: string,
  providerLimit: number,
): Promise<HttpLoadRun> {
  const { times, started, cpu } = await conversations(server, cluster, projectId, count);
  const last = Math.max(...times.map((time) => time.secondReply));
  const run: HttpLoadRun = {
    label,
    conversations: count,
    providerLimit,
    wallMs: last - started,
    idealMs: 2 * MODEL_MS,
    floorMs: 2 * Math.ceil(count / providerLimit) * MODEL_MS,
    createdMs: Math.max(...times.map((time) => time.created)) - started,
    turnOne: summarize(times.map((time) => time.firstReply - time.created)),
    turnTwo: summarize(times.map((time) => time.secondReply - time.posted)),
    serverCpuMs: cpu.serverMs,
    postgresCpuMs: cpu.postgresMs,
    clientCpuMs: cpu.clientMs,
    otherCores: cpu.otherCores,
  };
  console.log(
    `  ${label}, ${count} conversations: ${(run.wallMs / 1000).toFixed(2)} s (× ${(run.wallMs / run.idealMs).toFixed(2)} ideal), threads created in ${(run.createdMs / 1000).toFixed(2)} s`,
  );
  return run;
}

/** `count` POST /api/threads with no message, all at once through the client's sockets. */
async function createAlone(server: TestServer, cluster: Cluster, projectId: string, count: number) {
  const client = httpClient(server.baseUrl, CLIENT_SOCKETS);
  try {
    const before = cpuNow(server, cluster);
    await Promise.all(Array.from({ length: count }, () => createThread(client, projectId)));
    return cpuSince(before, cpuNow(server, cluster));
  } finally {
    client.close();
  }
}

export interface HttpLoadResult {
  runs: HttpLoadRun[];
  createAloneMs: number;
}

export async function runHttpLoad(
  cluster: Cluster,
  baseline: BaselineResult | null,
): Promise<HttpLoadResult> {
  section(
    "HTTP load: ai_human conversations × 2 turns, a 1 s model, over HTTP (replies read on event streams)",
  );
  const runs: HttpLoadRun[] = [];
  let createAloneMs = Number.NaN;
  let createAloneCpu: ReturnType<typeof cpuSince> | null = null;
  const variants: { label: string; limit: number; env: Record<string, string> }[] = [
    { label: "default settings", limit: DEFAULT_PROVIDER_CONCURRENCY, env: {} },
  ];
  for (const [position, variant] of variants.entries()) {
    const name = `bench_http_load_${position}`;
    await cluster.createDatabase(name, TEMPLATE_DATABASE);
    const server = await startTestServer(serverEnv(name, cluster, variant.env));
    try {
      const setup = httpClient(server.baseUrl, CLIENT_SOCKETS);
      const projectId = await createProject(setup, 2, MODEL_MS);
      setup.close();
      // Warm-up: loads the routes and the runtime and JIT-compiles the paths the run takes.
      await conversations(server, cluster, projectId, 50);
      for (const count of LOAD_SIZES)
        runs.push(await loadRun(server, cluster, projectId, count, variant.label, variant.limit));
      if (position === 0) {
        createAloneCpu = await createAlone(server, cluster, projectId, CREATE_ALONE);
        createAloneMs = createAloneCpu.wallMs;
        console.log(
          `  ${CREATE_ALONE} threads created with no message: ${(createAloneMs / 1000).toFixed(2)} s`,
        );
      }
    } finally {
      await server.stop();
    }
  }
  printTable(
    "HTTP load: from the first POST /api/threads to the last reply read on its event stream (one server)",
    [
      "settings",
      "conversations",
      "wall s",
      "× ideal 2 s",
      "gate floor s",
      "threads created s",
      "turn 1 p50/p99 s",
      "turn 2 p50/p99 s",
      "server CPU s",
      "Postgres CPU s",
      "client CPU s",
      "other cores",
    ],
    runs.map((run) => [
      run.label,
      run.conversations,
      run.wallMs / 1000,
      run.wallMs / run.idealMs,
      run.floorMs / 1000,
      run.createdMs / 1000,
      `${(run.turnOne.p50 / 1000).toFixed(2)} / ${(run.turnOne.p99 / 1000).toFixed(2)}`,
      `${(run.turnTwo.p50 / 1000).toFixed(2)} / ${(run.turnTwo.p99 / 1000).toFixed(2)}`,
      run.serverCpuMs / 1000,
      run.postgresCpuMs / 1000,
      run.clientCpuMs / 1000,
      run.otherCores,
    ]),
  );
  if (createAloneCpu)
    console.log(
      `  ${CREATE_ALONE} POST /api/threads with no message alone (default settings): ${(createAloneMs / 1000).toFixed(2)} s, server CPU ${(createAloneCpu.serverMs / CREATE_ALONE).toFixed(2)} ms and Postgres CPU ${(createAloneCpu.postgresMs / CREATE_ALONE).toFixed(2)} ms per thread`,
    );
  console.log(
    `  targets: 500 conversations ≤ 3.5 s, 1,000 ≤ 4.5 s (ideal 2 s); the gate floor is 2 × ⌈N / provider limit⌉ × 1 s; ${CLIENT_SOCKETS} client sockets for POSTs, one per event stream`,
  );
  printBaselineBeside("HTTP load", baseline, (base) => [
    ["SELECT 1 round trip p50 ms", base.roundTrip.latency?.p50 ?? "n/a"],
    [
      "BEGIN; INSERT; pg_notify; COMMIT per s, 10 connections",
      base.notifyingTransactionTenConnections.perSecond,
    ],
    ["INSERT + COMMIT rows/s, 10 connections", base.insertTenConnections.perSecond],
  ]);
  return { runs, createAloneMs };
}

export interface HttpCostRow {
  mode: string;
  route: string;
  requests: number;
  perSecond: number;
  serverCpuMs: number;
  postgresCpuMs: number;
  clientCpuMs: number;
}

/** `paths.length` requests, COST_CONCURRENCY in flight; each must answer `status`. */
async function costWindow(
  server: TestServer,
  cluster: Cluster,
  client: HttpClient,
  requests: ReadonlyArray<{ method: string; path: string; body?: unknown }>,
  status: number,
  settle?: () => Promise<void>,
): Promise<ReturnType<typeof cpuSince> & { answers: string[] }> {
  const answers: string[] = new Array(requests.length);
  const before = cpuNow(server, cluster);
  let next = 0;
  await Promise.all(
    Array.from({ length: COST_CONCURRENCY }, async () => {
      while (next < requests.length) {
        const index = next;
        next += 1;
        const request = requests[index]!;
        const answer = await client.json(request.method, request.path, request.body);
        if (answer.status !== status)
          throw new Error(`${request.method} ${request.path}: ${answer.status} ${answer.text}`);
        answers[index] = answer.text;
      }
    }),
  );
  await settle?.();
  return { ...cpuSince(before, cpuNow(server, cluster)), answers };
}

async function costOnServer(
  cluster: Cluster,
  database: string,
  mode: string,
  env: Record<string, string>,
  countIdle: (ids: string[]) => Promise<number>,
): Promise<HttpCostRow[]> {
  await cluster.createDatabase(database, TEMPLATE_DATABASE);
  const server = await startTestServer(serverEnv(database, cluster, env));
  const client = httpClient(server.baseUrl, COST_CONCURRENCY);
  try {
    const projectId = await createProject(client, 1, 0);
    const health = Array.from({ length: COST_REQUESTS }, () => ({ method: "GET", path: "/api/health" }));
    const create = Array.from({ length: COST_REQUESTS }, () => ({
      method: "POST",
      path: "/api/threads",
      body: { project_id: projectId, agent_id: "chat" },
    }));
    const message = (ids: string[]) =>
      ids.map((id) => ({ method: "POST", path: `/api/threads/${id}/messages`, body: { content: "hello" } }));
    // Warm-up: each route WARM_REQUESTS times (routes loaded, JIT warm, pools full).
    await costWindow(server, cluster, client, health.slice(0, WARM_REQUESTS), 200);
    const warmIds = (
      await costWindow(server, cluster, client, create.slice(0, WARM_REQUESTS), 201)
    ).answers.map((text) => (JSON.parse(text) as { threadId: string }).threadId);
    await costWindow(server, cluster, client, message(warmIds), 202, async () => {
      await waitFor(() => countIdle(warmIds).then((idle) => idle === warmIds.length));
    });
    const rows: HttpCostRow[] = [];
    const row = (route: string, window: ReturnType<typeof cpuSince>) =>
      rows.push({
        mode,
        route,
        requests: COST_REQUESTS,
        perSecond: COST_REQUESTS / (window.wallMs / 1000),
        serverCpuMs: window.serverMs / COST_REQUESTS,
        postgresCpuMs: window.postgresMs / COST_REQUESTS,
        clientCpuMs: window.clientMs / COST_REQUESTS,
      });
    row("GET /api/health", await costWindow(server, cluster, client, health, 200));
    const created = await costWindow(server, cluster, client, create, 201);
    row("POST /api/threads", created);
    const ids = created.answers.map((text) => (JSON.parse(text) as { threadId: string }).threadId);
    row(
      "POST /api/threads/:id/messages",
      await costWindow(server, cluster, client, message(ids), 202, async () => {
        await waitFor(() => countIdle(ids).then((idle) => idle === ids.length));
      }),
    );
    // A chat page's stream of an answered thread: open, replay until the answer, close (default
    // server only: on the HTTP-only one nothing has answered).
    if (mode !== "HTTP only")
      row("GET /api/threads/:id/events (replay)", await streamWindow(server, cluster, ids));
    row("GET /api/health (again)", await costWindow(server, cluster, client, health, 200));
    return rows;
  } finally {
    client.close();
    await server.stop();
  }
}

/** Opens each thread's event stream (COST_CONCURRENCY at once), waits for its answer, closes it. */
async function streamWindow(server: TestServer, cluster: Cluster, ids: readonly string[]) {
  const before = cpuNow(server, cluster);
  let next = 0;
  await Promise.all(
    Array.from({ length: COST_CONCURRENCY }, async () => {
      while (next < ids.length) {
        const id = ids[next] as string;
        next += 1;
        const stream = await openReplyStream(server.baseUrl, id);
        try {
          await stream.waitForReplies(1, 60_000);
        } finally {
          stream.close();
        }
      }
    }),
  );
  return cpuSince(before, cpuNow(server, cluster));
}

async function waitFor(condition: () => Promise<boolean>, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`not settled within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export async function runHttpCost(cluster: Cluster, baseline: BaselineResult | null): Promise<HttpCostRow[]> {
  section(
    `HTTP cost: server CPU per request, ${COST_REQUESTS} requests per route, ${COST_CONCURRENCY} in flight`,
  );
  const rows: HttpCostRow[] = [];
  // HTTP only: the posted messages stay queued (no process runs threads), so nothing to wait for.
  rows.push(
    ...(await costOnServer(
      cluster,
      "bench_http_cost_0",
      "HTTP only",
      { TANDEM_RUN_THREADS: "false" },
      async (ids) => ids.length,
    )),
  );
  const sqlName = "bench_http_cost_1";
  // postgres.js connects on first use, after costOnServer created the database.
  const sql = cluster.connect(sqlName, { max: 1, onnotice: () => {} });
  try {
    rows.push(
      ...(await costOnServer(cluster, sqlName, "default (runs threads)", {}, async (ids) => {
        // A thread has answered once it holds an assistant message and is idle again.
        const [found] = await sql<{ idle: number }[]>`
          SELECT count(*)::int AS idle FROM threads t
          WHERE t.id = ANY(${ids}) AND t.status = 'idle' AND NOT t.runnable
            AND EXISTS (SELECT 1 FROM messages m WHERE m.thread_id = t.id AND m.role = 'assistant')`;
        return found?.idle ?? 0;
      })),
    );
  } finally {
    await sql.end({ timeout: 5 });
  }
  // The bare route is measured first and last; the ratio is to the mean of both windows.
  const bareMs = (mode: string) => {
    const bare = rows.filter((row) => row.mode === mode && row.route.startsWith("GET /api/health"));
    return bare.reduce((sum, row) => sum + row.serverCpuMs, 0) / bare.length;
  };
  const cells: Cell[][] = rows.map((row) => [
    row.mode,
    row.route,
    row.perSecond,
    row.serverCpuMs,
    row.serverCpuMs / bareMs(row.mode),
    row.postgresCpuMs,
    row.clientCpuMs,
  ]);
  printTable(
    "HTTP cost: CPU per request (server: its process tree from /proc; a message's row waits until its thread answered)",
    [
      "server",
      "route",
      "req/s",
      "server CPU ms",
      "× bare route (mean of both)",
      "Postgres CPU ms",
      "client CPU ms",
    ],
    cells,
  );
  printBaselineBeside("HTTP cost", baseline, (base) => [
    ["SELECT 1 round trip p50 ms", base.roundTrip.latency?.p50 ?? "n/a"],
    ["SELECT 1 server CPU ms (Postgres)", base.roundTrip.postgresCpuMs],
    ["INSERT + COMMIT rows/s, 1 connection", base.insertOneConnection.perSecond],
  ]);
  return rows;
}
