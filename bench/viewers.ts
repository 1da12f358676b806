// Benchmarks `viewers` and `idle-streams` (issue 43, "Watching must cost nothing"), over HTTP against
// the production server (`next start`, default settings) on the benchmark's Postgres:
//   viewers: a 200-child fan-out (bench/subagents.ts's bundle) with 0, 10, 30 and 100 live viewers
//     on the root's event stream (GET /api/threads/:id/events, node:http clients parsing SSE). The
//     root is created empty, the viewers connect, then one POST starts the fan-out; timed until
//     every report is delivered and the root is idle (polled in the database, as unwatched). Each
//     viewer must then have received every persisted event of the tree, in order, exactly once.
//     Printed: wall time per viewer count and its ratio to the unwatched run of the same sitting.
//   idle-streams: a fresh server, 1,000 idle root threads, one open stream each (1,000 trees: the
//     worst case, one feed per stream). Server memory per stream: its V8 heap + external memory
//     after a full collection (bench/server-memory.cjs, preloaded: what the server retains), and the
//     RSS of its process tree with and without a collection; and the server's and Postgres's CPU over
//     an idle window with the streams open beside the same window with none (BENCH_IDLE_SECONDS,
//     default 60).
// Needs a production build (`npm run build`). The clients run in this process on the same machine:
// they parse SSE framing but not the JSON payloads.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type postgres from "postgres";
import { EVENT_ID_STRIDE } from "@/runtime/store/event-log";
import { chatBundle } from "../test/support/bench-bundles";
import { requestJson } from "../test/support/http";
import { startTestServer, type TestServer } from "../test/support/server";
import { openSseStream, type SseStream } from "../test/support/sse-stream";
import { type BaselineResult, printBaselineBeside } from "./baseline";
import type { Cluster } from "./cluster";
import { ownCpuMs, processTreeCpuMs, processTreeRssBytes } from "./cpu";
import { printTable, section } from "./format";
import { TEMPLATE_DATABASE } from "./harness";
import { openTimedStream } from "./http-client";
import { fanOutBundle } from "./subagents";

const CHILDREN = 200;
const VIEWER_COUNTS = [0, 10, 30, 100] as const;
const IDLE_STREAMS = 1_000;

function idleSeconds(): number {
  const raw = process.env.BENCH_IDLE_SECONDS?.trim();
  if (!raw) return 60;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1)
    throw new Error(`BENCH_IDLE_SECONDS must be a whole number ≥ 1; got "${raw}".`);
  return value;
}

export interface ViewersRun {
  viewers: number;
  wallMs: number;
  events: number;
  serverCpuMs: number;
  postgresCpuMs: number;
  /** This process's CPU from the POST to the settled root: the viewers' reading, mostly. */
  viewersCpuMs: number;
}

export interface ViewersResult {
  runs: ViewersRun[];
}

export async function createProject(server: TestServer, definitions: unknown): Promise<string> {
  const created = await requestJson<{ id: string }>(server.baseUrl, "POST", "/api/projects", {
    name: `bench ${Date.now()} ${Math.random()}`,
    definitions,
  });
  if (created.status !== 201) throw new Error(`project: ${JSON.stringify(created.body)}`);
  return created.body.id;
}

export async function createThread(server: TestServer, projectId: string, agent: string): Promise<string> {
  const created = await requestJson<{ threadId: string }>(server.baseUrl, "POST", "/api/threads", {
    project_id: projectId,
    agent_id: agent,
  });
  if (created.status !== 201) throw new Error(`thread: ${JSON.stringify(created.body)}`);
  return created.body.threadId;
}

export async function settled(sql: postgres.Sql, rootId: string, children: number): Promise<boolean> {
  const [row] = await sql<{ reports: number; busy: boolean }[]>`
    SELECT
      (SELECT count(*)::int FROM messages WHERE thread_id = ${rootId} AND subagent_id IS NOT NULL
         AND content LIKE 'Subagent (reference:%') AS reports,
      EXISTS (SELECT 1 FROM threads WHERE id = ${rootId} AND (status <> 'idle' OR runnable))
        OR EXISTS (SELECT 1 FROM inbox_items WHERE thread_id = ${rootId} AND consumed_at IS NULL) AS busy`;
  return (row?.reports ?? 0) >= children && row?.busy === false;
}

/** The tree's persisted event ids, in log order (what every viewer must have received). */
async function loggedIds(sql: postgres.Sql, rootId: string): Promise<number[]> {
  const rows = await sql<{ id: string; count: number }[]>`
    SELECT id::text, jsonb_array_length(batch::jsonb)::int AS count FROM events
    WHERE root_id = ${rootId} ORDER BY events.id`;
  const ids: number[] = [];
  for (const row of rows)
    for (let position = 0; position < row.count; position += 1)
      ids.push(Number(row.id) * EVENT_ID_STRIDE + position);
  return ids;
}

function checkExactlyOnce(viewer: { ids: readonly number[] }, expected: number[], index: number): void {
  const got = viewer.ids;
  if (got.length !== expected.length || got.some((id, position) => id !== expected[position])) {
    const firstBad = got.findIndex((id, position) => id !== expected[position]);
    throw new Error(
      `viewer ${index} received ${got.length} events, expected ${expected.length}; first difference at ${firstBad}: ${got.slice(firstBad, firstBad + 3).join(",")} vs ${expected.slice(firstBad, firstBad + 3).join(",")}`,
    );
  }
}

async function fanOutWatched(
  server: TestServer,
  sql: postgres.Sql,
  cluster: Cluster,
  children: number,
  viewerCount: number,
): Promise<ViewersRun> {
  const projectId = await createProject(server, fanOutBundle(children));
  const rootId = await createThread(server, projectId, "orchestrator");
  // The lightest client there is (ids and frame ends only, bench/http-client.ts): the viewers share
  // this machine's two cores with the server and Postgres, and real ones would not.
  const viewers = await Promise.all(
    Array.from({ length: viewerCount }, () =>
      openTimedStream(`${server.baseUrl}/api/threads/${rootId}/events`, 0),
    ),
  );
  try {
    const pid = server.pid();
    const cpuBefore = pid ? processTreeCpuMs(pid) : 0;
    const postgresBefore = cluster.cpuMs();
    const viewersCpuBefore = ownCpuMs();
    const started = performance.now();
    const posted = await requestJson(server.baseUrl, "POST", `/api/threads/${rootId}/messages`, {
      content: `Fan out to ${children} workers.`,
    });
    if (posted.status !== 202) throw new Error(`message: ${JSON.stringify(posted.body)}`);
    const deadline = Date.now() + 300_000;
    while (!(await settled(sql, rootId, children))) {
      if (Date.now() > deadline) throw new Error(`the fan-out with ${viewerCount} viewers did not settle`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const wallMs = performance.now() - started;
    const serverCpuMs = pid ? processTreeCpuMs(pid) - cpuBefore : Number.NaN;
    const postgresCpuMs = cluster.cpuMs() - postgresBefore;
    const viewersCpuMs = ownCpuMs() - viewersCpuBefore;
    const expected = await loggedIds(sql, rootId);
    const last = expected[expected.length - 1] ?? 0;
    await Promise.all(viewers.map((viewer) => viewer.waitForId(last, 120_000)));
    for (const [index, viewer] of viewers.entries()) checkExactlyOnce(viewer, expected, index);
    return {
      viewers: viewerCount,
      wallMs,
      events: expected.length,
      serverCpuMs,
      postgresCpuMs,
      viewersCpuMs,
    };
  } finally {
    for (const viewer of viewers) viewer.close();
  }
}

export async function runViewers(cluster: Cluster, baseline: BaselineResult | null): Promise<ViewersResult> {
  section(`Viewers: a ${CHILDREN}-child fan-out over HTTP with live viewers on its root's stream`);
  const name = "bench_viewers";
  await cluster.createDatabase(name, TEMPLATE_DATABASE);
  const sql = cluster.connect(name, { max: 2, onnotice: () => {} });
  const server = await startTestServer({ DATABASE_URL: cluster.urlFor(name) });
  try {
    // Warm-up: loads the routes and the runtime, and JIT-compiles both paths.
    await fanOutWatched(server, sql, cluster, 20, 0);
    await fanOutWatched(server, sql, cluster, 20, 5);
    const runs: ViewersRun[] = [];
    for (const viewers of VIEWER_COUNTS) {
      const run = await fanOutWatched(server, sql, cluster, CHILDREN, viewers);
      console.log(
        `  ${viewers} viewers: ${(run.wallMs / 1000).toFixed(2)} s, ${run.events} events each, every viewer got every event in order once`,
      );
      runs.push(run);
    }
    const unwatched = runs[0] as ViewersRun;
    printTable(
      `Viewers: ${CHILDREN}-child fan-out, wall time until the root settled (one server, default settings)`,
      [
        "viewers",
        "wall s",
        "× unwatched",
        "events per viewer",
        "server CPU s",
        "Postgres CPU s",
        "viewers' CPU s (this process)",
      ],
      runs.map((run) => [
        run.viewers,
        run.wallMs / 1000,
        run.wallMs / unwatched.wallMs,
        run.events,
        run.serverCpuMs / 1000,
        run.postgresCpuMs / 1000,
        run.viewersCpuMs / 1000,
      ]),
    );
    console.log("  targets: 10 viewers ≤ 1.1× unwatched, 100 viewers ≤ 1.3×");
    printBaselineBeside("Viewers", baseline, (base) => [
      ["SELECT 1 round trip p50 ms", base.roundTrip.latency?.p50 ?? "n/a"],
      [
        "BEGIN; INSERT; pg_notify; COMMIT per s, 10 connections",
        base.notifyingTransactionTenConnections.perSecond,
      ],
      ["INSERT + COMMIT rows/s, 10 connections", base.insertTenConnections.perSecond],
    ]);
    return { runs };
  } finally {
    await server.stop();
    await sql.end({ timeout: 5 });
  }
}

export interface IdleStreamsResult {
  streams: number;
  idleSeconds: number;
  rssPerStreamBytes: number;
  /** The server's V8 heap and external memory after a full collection, per stream. */
  retainedPerStreamBytes: number;
  serverCpuPercentPerStream: number;
}

/** What the server retains: its memory after a full collection (bench/server-memory.cjs). */
interface Retained {
  /** V8 heap in use plus external memory (buffers, strings outside the heap). */
  heapAndExternal: number;
  /** The process tree's RSS right after the collection. */
  rss: number;
}

/** Asks the server (preloaded with bench/server-memory.cjs) to collect its garbage and report. */
async function retainedMemory(pid: number, folder: string): Promise<Retained> {
  const file = path.join(folder, `memory-${pid}.json`);
  const asked = Date.now();
  process.kill(pid, "SIGUSR2");
  const deadline = asked + 15_000;
  for (;;) {
    try {
      const usage = JSON.parse(fs.readFileSync(file, "utf8")) as {
        at: number;
        heapUsed: number;
        external: number;
      };
      if (usage.at >= asked)
        return { heapAndExternal: usage.heapUsed + usage.external, rss: processTreeRssBytes(pid) };
    } catch {
      // not written yet
    }
    if (Date.now() > deadline)
      throw new Error(`the server (pid ${pid}) did not report its memory after a collection`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function cpuWindow(server: TestServer, cluster: Cluster, seconds: number) {
  const pid = server.pid();
  if (!pid) throw new Error("the server is not running");
  const serverBefore = processTreeCpuMs(pid);
  const postgresBefore = cluster.cpuMs();
  const started = performance.now();
  return new Promise<{ serverCores: number; postgresCores: number }>((resolve) =>
    setTimeout(() => {
      const wallMs = performance.now() - started;
      resolve({
        serverCores: (processTreeCpuMs(pid) - serverBefore) / wallMs,
        postgresCores: (cluster.cpuMs() - postgresBefore) / wallMs,
      });
    }, seconds * 1000),
  );
}

export async function runIdleStreams(
  cluster: Cluster,
  baseline: BaselineResult | null,
): Promise<IdleStreamsResult> {
  const seconds = idleSeconds();
  section(`Idle streams: ${IDLE_STREAMS.toLocaleString("en-US")} open event streams, nothing happening`);
  const name = "bench_idle_streams";
  await cluster.createDatabase(name, TEMPLATE_DATABASE);
  const memoryFolder = fs.mkdtempSync(path.join(os.tmpdir(), "tandem-bench-memory-"));
  const server = await startTestServer({
    DATABASE_URL: cluster.urlFor(name),
    BENCH_SERVER_MEMORY: memoryFolder,
    NODE_OPTIONS:
      `${process.env.NODE_OPTIONS ?? ""} --require ${path.join(import.meta.dirname, "server-memory.cjs")}`.trim(),
  });
  const streams: SseStream[] = [];
  try {
    const projectId = await createProject(server, chatBundle(1));
    const roots: string[] = [];
    for (let batch = 0; batch < IDLE_STREAMS; batch += 50)
      roots.push(
        ...(await Promise.all(Array.from({ length: 50 }, () => createThread(server, projectId, "chat")))),
      );
    // Warm the stream route (and let the creations' work settle) before measuring.
    const warm = await openSseStream(`${server.baseUrl}/api/threads/${roots[0]}/events`);
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    warm.close();
    await new Promise((resolve) => setTimeout(resolve, 8_000));
    const pid = server.pid();
    if (!pid) throw new Error("the server is not running");
    const without = await cpuWindow(server, cluster, seconds);
    const rssBefore = processTreeRssBytes(pid);
    const retainedBefore = await retainedMemory(pid, memoryFolder);
    for (let batch = 0; batch < roots.length; batch += 100)
      streams.push(
        ...(await Promise.all(
          roots
            .slice(batch, batch + 100)
            .map((root) => openSseStream(`${server.baseUrl}/api/threads/${root}/events`)),
        )),
      );
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    const rssOpen = processTreeRssBytes(pid);
    const withStreams = await cpuWindow(server, cluster, seconds);
    const rssAfter = processTreeRssBytes(pid);
    const retainedOpen = await retainedMemory(pid, memoryFolder);
    const ended = streams.filter((stream) => stream.isEnded()).length;
    if (ended > 0) throw new Error(`${ended} idle streams were ended by the server`);
    const keepAlives = streams.reduce(
      (sum, stream) => sum + stream.comments.filter((comment) => comment === "keep-alive").length,
      0,
    );
    const rssPerStreamBytes = (rssOpen - rssBefore) / IDLE_STREAMS;
    const retainedPerStreamBytes =
      (retainedOpen.heapAndExternal - retainedBefore.heapAndExternal) / IDLE_STREAMS;
    const collectedRssPerStreamBytes = (retainedOpen.rss - retainedBefore.rss) / IDLE_STREAMS;
    const serverCpuPercentPerStream = ((withStreams.serverCores - without.serverCores) / IDLE_STREAMS) * 100;
    printTable(
      `Idle streams: ${IDLE_STREAMS} streams on ${IDLE_STREAMS} root threads, ${seconds} s idle windows (keep-alive 15 s)`,
      ["measure", "no streams", `${IDLE_STREAMS} streams`, "per stream"],
      [
        [
          "server RSS MiB (process tree)",
          rssBefore / 1024 ** 2,
          rssOpen / 1024 ** 2,
          `${(rssPerStreamBytes / 1024).toFixed(1)} KiB`,
        ],
        ["server RSS MiB at the window's end", "", rssAfter / 1024 ** 2, ""],
        [
          "server V8 heap + external MiB after a full GC",
          retainedBefore.heapAndExternal / 1024 ** 2,
          retainedOpen.heapAndExternal / 1024 ** 2,
          `${(retainedPerStreamBytes / 1024).toFixed(1)} KiB`,
        ],
        [
          "server RSS MiB after a full GC",
          retainedBefore.rss / 1024 ** 2,
          retainedOpen.rss / 1024 ** 2,
          `${(collectedRssPerStreamBytes / 1024).toFixed(1)} KiB`,
        ],
        [
          "server CPU, % of a core",
          without.serverCores * 100,
          withStreams.serverCores * 100,
          `${serverCpuPercentPerStream.toFixed(4)} %`,
        ],
        [
          "Postgres CPU, % of a core",
          without.postgresCores * 100,
          withStreams.postgresCores * 100,
          `${(((withStreams.postgresCores - without.postgresCores) / IDLE_STREAMS) * 100).toFixed(4)} %`,
        ],
        ["keep-alives received (all streams)", "", keepAlives, ""],
      ],
    );
    console.log(
      "  targets: ≤ 50 KB of server memory and < 1 % of a core per idle stream (memory: the heap + external row is what the server retains; RSS read without a collection includes garbage not yet taken, and RSS seldom shrinks after one)",
    );
    printBaselineBeside("Idle streams", baseline, (base) => [
      ["SELECT by key, unprepared, per s, 1 connection", base.unpreparedStatement.perSecond],
    ]);
    return {
      streams: IDLE_STREAMS,
      idleSeconds: seconds,
      rssPerStreamBytes,
      retainedPerStreamBytes,
      serverCpuPercentPerStream,
    };
  } finally {
    for (const stream of streams) stream.close();
    await server.stop();
    fs.rmSync(memoryFolder, { recursive: true, force: true });
  }
}
