// Benchmark `viewers-remote` (issue 43, "Viewers on other processes"): one app server that runs no
// threads (`npm start`, TANDEM_RUN_THREADS=false) serves the viewers, and one worker (`npm run
// worker`) runs a 200-child fan-out (bench/subagents.ts's bundle), both on the benchmark's Postgres.
// The root is created through the app server, 10 and then 100 viewers open its event stream there
// (Last-Event-ID: 0), one POST starts the work, and each viewer records when every event's frame
// arrived. Lag = arrival − the event row's created_at in the events table (stamped by the process
// that appends it, while building the transaction that commits it: the lag includes that commit).
// The same runs on one server that runs the fan-out itself (local) show the lag with no process
// boundary. Printed: p50 / p90 / p99 / max lag per viewer count; target p99 ≤ 100 ms (remote). Every viewer must hold
// every persisted event of the tree, in order, exactly once. The viewers run in this process on
// the same machine (their CPU is printed too): with 100 of them this one process reads 100 sockets'
// copies of every page in turn, so the lag is also printed per event at the first viewer to get it
// (what the server delivers) beside the spread to the last (this process's own queue). Needs a
// production build (`npm run build`).
import type postgres from "postgres";
import { EVENT_ID_STRIDE } from "@/runtime/store/event-log";
import { requestJson } from "../test/support/http";
import { startTestServer, type TestServer } from "../test/support/server";
import { startTestWorker, type TestWorker } from "../test/support/worker";
import { type BaselineResult, printBaselineBeside } from "./baseline";
import type { Cluster } from "./cluster";
import { ownCpuMs, processTreeCpuMs } from "./cpu";
import { printTable, SUMMARY_HEADER, section, summaryCells } from "./format";
import { TEMPLATE_DATABASE } from "./harness";
import { openTimedStream, type TimedStream } from "./http-client";
import { type Summary, summarize } from "./stats";
import { fanOutBundle } from "./subagents";
import { createProject, createThread, settled } from "./viewers";

const CHILDREN = 200;
const VIEWER_COUNTS = [10, 100] as const;

export interface RemoteViewersRun {
  setup: "remote" | "local";
  viewers: number;
  events: number;
  wallMs: number;
  lag: Summary;
  /** created_at → its transaction's commit (track_commit_timestamp on only), per event. */
  commitLag: Summary | null;
  /** The commit → the frame's arrival at a viewer (track_commit_timestamp on only), per frame. */
  deliveryLag: Summary | null;
  /**
   * Per event, created_at → its arrival at the first of the viewers to get it: what the server
   * delivers. The rest of `lag` is this one process reading every viewer's socket in turn.
   */
  firstViewerLag: Summary;
  /** The commit → the first viewer's arrival (track_commit_timestamp on only), per event. */
  firstViewerDeliveryLag: Summary | null;
  /** Per event, the first viewer's arrival → the last viewer's: this process's own queue. */
  viewerSpread: Summary;
  appServerCpuMs: number;
  workerCpuMs: number;
  postgresCpuMs: number;
  clientCpuMs: number;
}

/**
 * Every persisted event of the tree: its id and its row's created_at (µs), in log order; with
 * `track_commit_timestamp` on (PG_OPTIONS="-c track_commit_timestamp=on"), also when its row's
 * transaction committed (µs), so the lag splits into the commit's part and the delivery's.
 */
async function loggedEvents(
  sql: postgres.Sql,
  rootId: string,
): Promise<{ createdAt: Map<number, number>; committedAt: Map<number, number> | null }> {
  const [setting] = await sql<
    { on: boolean }[]
  >`SELECT current_setting('track_commit_timestamp') = 'on' AS on`;
  const withCommit = setting?.on === true;
  const rows = withCommit
    ? await sql<{ id: string; count: number; created_at: string; committed_at: string | null }[]>`
        SELECT id::text, jsonb_array_length(batch::jsonb)::int AS count, created_at::text,
          (extract(epoch FROM pg_xact_commit_timestamp(xmin)) * 1000000)::bigint::text AS committed_at
        FROM events WHERE root_id = ${rootId} ORDER BY events.id`
    : await sql<{ id: string; count: number; created_at: string; committed_at: string | null }[]>`
        SELECT id::text, jsonb_array_length(batch::jsonb)::int AS count, created_at::text, NULL AS committed_at
        FROM events WHERE root_id = ${rootId} ORDER BY events.id`;
  const createdAt = new Map<number, number>();
  const committedAt = withCommit ? new Map<number, number>() : null;
  for (const row of rows)
    for (let position = 0; position < row.count; position += 1) {
      const id = Number(row.id) * EVENT_ID_STRIDE + position;
      createdAt.set(id, Number(row.created_at));
      if (committedAt && row.committed_at !== null) committedAt.set(id, Number(row.committed_at));
    }
  return { createdAt, committedAt };
}

async function watchedRemotely(
  app: TestServer,
  worker: TestWorker | null,
  sql: postgres.Sql,
  cluster: Cluster,
  children: number,
  viewerCount: number,
  setup: RemoteViewersRun["setup"],
): Promise<RemoteViewersRun> {
  const projectId = await createProject(app, fanOutBundle(children));
  const rootId = await createThread(app, projectId, "orchestrator");
  const viewers: TimedStream[] = await Promise.all(
    Array.from({ length: viewerCount }, () =>
      openTimedStream(`${app.baseUrl}/api/threads/${rootId}/events`, 0),
    ),
  );
  try {
    const appPid = app.pid();
    if (!appPid) throw new Error("the app server is not running");
    const before = {
      app: processTreeCpuMs(appPid),
      worker: worker ? processTreeCpuMs(worker.pid) : 0,
      postgres: cluster.cpuMs(),
      client: ownCpuMs(),
    };
    const started = performance.now();
    const posted = await requestJson(app.baseUrl, "POST", `/api/threads/${rootId}/messages`, {
      content: `Fan out to ${children} workers.`,
    });
    if (posted.status !== 202) throw new Error(`message: ${JSON.stringify(posted.body)}`);
    const deadline = Date.now() + 300_000;
    while (!(await settled(sql, rootId, children))) {
      if (Date.now() > deadline)
        throw new Error(`the fan-out with ${viewerCount} remote viewers did not settle`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const wallMs = performance.now() - started;
    const { createdAt: logged, committedAt } = await loggedEvents(sql, rootId);
    const expected = [...logged.keys()];
    const last = expected[expected.length - 1] ?? 0;
    await Promise.all(viewers.map((viewer) => viewer.waitForId(last, 120_000)));
    const after = {
      app: processTreeCpuMs(appPid),
      worker: worker ? processTreeCpuMs(worker.pid) : 0,
      postgres: cluster.cpuMs(),
      client: ownCpuMs(),
    };
    const lags: number[] = [];
    const firstArrival = new Map<number, number>();
    const lastArrival = new Map<number, number>();
    const commitLags: number[] = [];
    const deliveryLags: number[] = [];
    if (committedAt)
      for (const [id, created] of logged) {
        const committed = committedAt.get(id);
        if (committed !== undefined) commitLags.push((committed - created) / 1000);
      }
    for (const [index, viewer] of viewers.entries()) {
      const got = viewer.ids;
      const firstBad = got.findIndex((id, position) => id !== expected[position]);
      if (got.length !== expected.length || firstBad !== -1)
        throw new Error(
          `remote viewer ${index} received ${got.length} events, expected ${expected.length}; first difference at ${firstBad}`,
        );
      viewer.arrivedMicros.forEach((arrived, position) => {
        const id = got[position] as number;
        lags.push((arrived - (logged.get(id) as number)) / 1000);
        if (arrived < (firstArrival.get(id) ?? Number.POSITIVE_INFINITY)) firstArrival.set(id, arrived);
        if (arrived > (lastArrival.get(id) ?? Number.NEGATIVE_INFINITY)) lastArrival.set(id, arrived);
        const committed = committedAt?.get(id);
        if (committed !== undefined) deliveryLags.push((arrived - committed) / 1000);
      });
    }
    return {
      setup,
      viewers: viewerCount,
      events: expected.length,
      wallMs,
      lag: summarize(lags),
      commitLag: commitLags.length > 0 ? summarize(commitLags) : null,
      deliveryLag: deliveryLags.length > 0 ? summarize(deliveryLags) : null,
      firstViewerLag: summarize(
        expected.map((id) => ((firstArrival.get(id) as number) - (logged.get(id) as number)) / 1000),
      ),
      firstViewerDeliveryLag: committedAt
        ? summarize(
            expected.map(
              (id) =>
                ((firstArrival.get(id) as number) - (committedAt.get(id) ?? (logged.get(id) as number))) /
                1000,
            ),
          )
        : null,
      viewerSpread: summarize(
        expected.map((id) => ((lastArrival.get(id) as number) - (firstArrival.get(id) as number)) / 1000),
      ),
      appServerCpuMs: after.app - before.app,
      workerCpuMs: after.worker - before.worker,
      postgresCpuMs: after.postgres - before.postgres,
      clientCpuMs: after.client - before.client,
    };
  } finally {
    for (const viewer of viewers) viewer.close();
  }
}

export async function runRemoteViewers(
  cluster: Cluster,
  baseline: BaselineResult | null,
): Promise<RemoteViewersRun[]> {
  section(`Remote viewers: a ${CHILDREN}-child fan-out run by a worker, watched through an app server`);
  const runs: RemoteViewersRun[] = [];
  // The same runs with one server that runs the fan-out and serves the viewers: the lag a viewer
  // sees when no process boundary is crossed, so the difference is what crossing it costs.
  for (const setup of ["remote", "local"] as const) {
    const name = `bench_viewers_${setup}`;
    await cluster.createDatabase(name, TEMPLATE_DATABASE);
    const env = { DATABASE_URL: cluster.urlFor(name) };
    const sql = cluster.connect(name, { max: 2, onnotice: () => {} });
    let app: TestServer | null = null;
    let worker: TestWorker | null = null;
    try {
      app = await startTestServer(setup === "remote" ? { ...env, TANDEM_RUN_THREADS: "false" } : env);
      if (setup === "remote") worker = await startTestWorker(env, "bench-viewers-worker");
      // Warm-up: the processes load and JIT-compile their paths.
      await watchedRemotely(app, worker, sql, cluster, 20, 5, setup);
      for (const viewers of VIEWER_COUNTS) {
        const run = await watchedRemotely(app, worker, sql, cluster, CHILDREN, viewers, setup);
        console.log(
          `  ${setup}, ${viewers} viewers: lag p50 ${run.lag.p50.toFixed(1)} ms, p99 ${run.lag.p99.toFixed(1)} ms over ${run.events} events each (first viewer p99 ${run.firstViewerLag.p99.toFixed(1)} ms)`,
        );
        runs.push(run);
      }
    } finally {
      await worker?.stop();
      await app?.stop();
      await sql.end({ timeout: 5 });
    }
  }
  printTable(
    "Viewers' lag from the event row's created_at to its arrival at a viewer, ms (remote: a worker runs the fan-out, an app server with TANDEM_RUN_THREADS=false serves the viewers; local: one server does both)",
    ["setup", "viewers", ...SUMMARY_HEADER],
    runs.map((run) => [run.setup, String(run.viewers), ...summaryCells(run.lag)]),
  );
  printTable(
    "The same lag per event at the first viewer to get it (what the server delivers), and the spread from the first viewer to the last (all viewers are read by this one process, in turn), ms",
    ["setup", "viewers", "part", ...SUMMARY_HEADER],
    runs.flatMap((run) => [
      [run.setup, String(run.viewers), "first viewer", ...summaryCells(run.firstViewerLag)],
      [run.setup, String(run.viewers), "first → last viewer", ...summaryCells(run.viewerSpread)],
    ]),
  );
  const split = runs.filter((run) => run.commitLag && run.deliveryLag);
  if (split.length > 0)
    printTable(
      "Where the lag goes (track_commit_timestamp on): created_at → commit per event, commit → arrival per frame, ms",
      ["setup", "viewers", "part", ...SUMMARY_HEADER],
      split.flatMap((run) => [
        [run.setup, String(run.viewers), "to commit", ...summaryCells(run.commitLag as Summary)],
        [run.setup, String(run.viewers), "commit to viewer", ...summaryCells(run.deliveryLag as Summary)],
        [
          run.setup,
          String(run.viewers),
          "commit to first viewer",
          ...summaryCells(run.firstViewerDeliveryLag as Summary),
        ],
      ]),
    );
  else
    console.log(
      "  (PG_OPTIONS=\"-c track_commit_timestamp=on\" splits the lag into the commit's part and the delivery's)",
    );
  printTable(
    "Remote viewers: the same runs' wall time and CPU",
    [
      "setup",
      "viewers",
      "wall s",
      "app server CPU s",
      "worker CPU s",
      "Postgres CPU s",
      "viewers' CPU s (this process)",
    ],
    runs.map((run) => [
      run.setup,
      String(run.viewers),
      run.wallMs / 1000,
      run.appServerCpuMs / 1000,
      run.workerCpuMs / 1000,
      run.postgresCpuMs / 1000,
      run.clientCpuMs / 1000,
    ]),
  );
  console.log("  target: remote p99 lag ≤ 100 ms; every viewer got every persisted event in order, once");
  printBaselineBeside("Remote viewers", baseline, (base) => [
    ["SELECT 1 round trip p50 ms", base.roundTrip.latency?.p50 ?? "n/a"],
    ["INSERT + COMMIT rows/s, 1 connection", base.insertOneConnection.perSecond],
    [
      "BEGIN; INSERT; pg_notify; COMMIT per s, 10 connections",
      base.notifyingTransactionTenConnections.perSecond,
    ],
  ]);
  return runs;
}
