// Benchmark 15, the project dashboard (docs/observability.md "Dashboard"): a project with 1,000,000
// messages — 20,000 threads over the last 90 days, 50 messages, 20 model calls, 10 tool runs and one
// finished run each, 2,000 approvals — seeded in a few set-based statements (generate_series), then
// what the dashboard page asks (GET /api/projects/:id/analytics?include=outcomes) for the
// ranges its picker offers, through the runtime facade the routes call (rollups of closed hours and
// days), beside the same request read from the raw rows alone (the design before them). Target: under 300 ms.

import { AnalyticsService } from "../runtime/services/analytics-service";
import {
  approvalAggregates,
  modelCallAggregates,
  runAggregates,
  runEndings,
  toolAggregates,
} from "../runtime/store/analytics";
import { HOUR_US, rollUp } from "../runtime/store/analytics-rollups";
import { chatBundle } from "../test/support/bench-bundles";
import { monotonicMs } from "../test/support/clock";
import { type BaselineResult, printBaselineBeside } from "./baseline";
import type { Cluster } from "./cluster";
import { printTable, section } from "./format";
import { openBenchRuntime } from "./harness";
import { summarize } from "./stats";

const THREADS = 20_000;
const MESSAGES_PER_THREAD = 50;
const CALLS_PER_THREAD = 20;
const TOOL_RUNS_PER_THREAD = 10;
const DAYS = 90;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const SAMPLES = 7;
/** Samples of the raw-rows reference (the pre-rollup design) per range: it is slow, so fewer. */
const RAW_SAMPLES = 3;

export interface AnalyticsBenchResult {
  messages: number;
  seedMs: number;
  /** Median wall time of the page's request, per range. */
  medianMs: Record<string, number>;
  /** The same request read from the raw rows alone (the design before rollups). */
  rawMedianMs: Record<string, number>;
  /** The first roll-up of the 90 days (what the migration leaves pending). */
  firstRollUpMs: number;
}

export async function runAnalytics(
  cluster: Cluster,
  baseline: BaselineResult | null,
): Promise<AnalyticsBenchResult> {
  section(
    `15. Project dashboard: ${(THREADS * MESSAGES_PER_THREAD).toLocaleString("en-US")} messages, ${(THREADS * CALLS_PER_THREAD).toLocaleString("en-US")} model calls in one project`,
  );
  const bench = await openBenchRuntime(cluster, {
    database: "bench_analytics",
    bundle: chatBundle(1),
    concurrency: 4,
    maxConnections: 4,
  });
  try {
    const sql = bench.raw.sql;
    const now = Date.now();
    const startUs = (now - DAYS * DAY) * 1000;
    const spanUs = DAYS * DAY * 1000;
    const seedStarted = monotonicMs();
    const project = [bench.projectId, String(startUs), String(spanUs)];
    // Threads spread evenly over the 90 days, four agents.
    await sql.query(
      `INSERT INTO threads (id, project_id, project_version, agent_name, root_id, status, execution, created_at, updated_at, finished_at, work_started_at)
       SELECT id, $1::uuid, 1, 'agent_' || (n % 4), id, CASE WHEN n % 50 = 0 THEN 'failed' ELSE 'idle' END, '{}'::jsonb,
              $2::bigint + (n::bigint * $3::bigint / ${THREADS}), $2::bigint + (n::bigint * $3::bigint / ${THREADS}) + 60000000,
              $2::bigint + (n::bigint * $3::bigint / ${THREADS}) + 60000000, $2::bigint + (n::bigint * $3::bigint / ${THREADS})
         FROM (SELECT gen_random_uuid() AS id, n FROM generate_series(1, ${THREADS}) AS n) AS s`,
      project,
    );
    await sql.query(
      `INSERT INTO messages (id, thread_id, seq, role, side, content, created_at)
       SELECT gen_random_uuid(), t.id, s, CASE WHEN s % 2 = 1 THEN 'user' ELSE 'assistant' END, 'a',
              'A message of the benchmark conversation, about as long as a short answer.', t.created_at + s * 1000000
         FROM threads t, generate_series(1, ${MESSAGES_PER_THREAD}) AS s WHERE t.project_id = $1::uuid`,
      [bench.projectId],
    );
    await sql.query(
      `INSERT INTO model_calls (id, thread_id, side, model_name, answered_by, request, error, input_tokens, output_tokens,
                                cost_usd, latency_ms, created_at, project_id, agent_name)
       SELECT gen_random_uuid(), t.id, 'a', 'model_' || (s % 3), 'model_' || (s % 3), '{}'::json,
              CASE WHEN s = 7 AND hashtext(t.id::text) % 10 = 0 THEN 'rate limited' ELSE NULL END,
              800 + s * 40, 120 + s * 5, (800 + s * 40) * 3e-6 + (120 + s * 5) * 15e-6,
              200 + abs(hashtext(t.id::text || s)) % 2800, t.created_at + s * 2000000, t.project_id, t.agent_name
         FROM threads t, generate_series(1, ${CALLS_PER_THREAD}) AS s WHERE t.project_id = $1::uuid`,
      [bench.projectId],
    );
    await sql.query(
      `INSERT INTO tool_runs (id, thread_id, tool_call_id, name, args, status, result, started_at, finished_at, project_id)
       SELECT gen_random_uuid(), t.id, 'call_' || s, 'tool_' || (s % 5), '{}'::jsonb,
              CASE WHEN s = 3 AND hashtext(t.id::text) % 20 = 0 THEN 'error' ELSE 'success' END, 'ok',
              t.created_at + s * 3000000, t.created_at + s * 3000000 + 1000 * (5 + abs(hashtext(t.id::text || s)) % 900),
              t.project_id
         FROM threads t, generate_series(1, ${TOOL_RUNS_PER_THREAD}) AS s WHERE t.project_id = $1::uuid`,
      [bench.projectId],
    );
    await sql.query(
      `INSERT INTO thread_runs (thread_id, project_id, agent_name, started_at, finished_at, status, stop_reason, failure)
       SELECT id, project_id, agent_name, work_started_at, finished_at, status,
              CASE WHEN status = 'idle' THEN 'turn ended' ELSE NULL END,
              CASE WHEN status = 'failed' THEN 'The model failed after 2 attempts' ELSE NULL END
         FROM threads WHERE project_id = $1::uuid`,
      [bench.projectId],
    );
    await sql.query(
      `INSERT INTO tool_approvals (id, thread_id, root_id, project_id, tool_call_id, tool_name, state, requested_at, decided_at)
       SELECT gen_random_uuid(), id, id, project_id, 'call_1', 'tool_1', 'approved', created_at, created_at + 45000000
         FROM threads WHERE project_id = $1::uuid AND random() < 0.1`,
      [bench.projectId],
    );
    // As autovacuum leaves a table between bursts: statistics, and the visibility map that lets the
    // covering indexes answer without visiting the table.
    await sql.query("VACUUM ANALYZE threads, messages, model_calls, tool_runs, thread_runs, tool_approvals");
    const seedMs = monotonicMs() - seedStarted;
    const counted = await sql.query<{ messages: number; calls: number }>(
      `SELECT (SELECT count(*)::int FROM messages m JOIN threads t ON t.id = m.thread_id WHERE t.project_id = $1::uuid) AS messages,
              (SELECT count(*)::int FROM model_calls WHERE project_id = $1::uuid) AS calls`,
      [bench.projectId],
    );
    const messages = Number(counted[0]?.messages ?? 0);
    console.log(
      `seeded ${messages.toLocaleString("en-US")} messages, ${Number(counted[0]?.calls ?? 0).toLocaleString("en-US")} model calls in ${(seedMs / 1000).toFixed(1)} s`,
    );

    // The seed's triggers left its 2,160 hours pending, as the migration leaves an existing project's:
    // the first read rolls them all up (once).
    const rollStarted = monotonicMs();
    const rolled = await rollUp(sql, bench.projectId, Math.floor((Date.now() * 1000) / HOUR_US) * HOUR_US);
    const firstRollUpMs = monotonicMs() - rollStarted;
    console.log(
      `first roll-up: ${rolled.hours.toLocaleString("en-US")} hour and ${rolled.days} day periods in ${(firstRollUpMs / 1000).toFixed(1)} s`,
    );
    const rawService = new AnalyticsService(sql, { rollups: false });

    const ranges = [
      { label: "24 h by hour (24 buckets)", ms: DAY, bucket: "hour" as const },
      { label: "7 d by hour (168, the default)", ms: 7 * DAY, bucket: "hour" as const },
      { label: "30 d by day (30)", ms: 30 * DAY, bucket: "day" as const },
      { label: "90 d by day (90)", ms: 90 * DAY, bucket: "day" as const },
      { label: "90 d by hour (2,160)", ms: 90 * DAY, bucket: "hour" as const },
    ];
    const medianMs: Record<string, number> = {};
    const rawMedianMs: Record<string, number> = {};
    const rows: (string | number)[][] = [];
    for (const range of ranges) {
      const query = { from: now - range.ms, to: now, bucket: range.bucket };
      const times: number[] = [];
      let calls = 0;
      for (let sample = 0; sample < SAMPLES + 1; sample++) {
        const started = monotonicMs();
        const analytics = await bench.runtime.analytics.ofProject(bench.projectId, query, { outcomes: true });
        // The first answer warms the caches (as a dashboard's second look would find them).
        if (sample > 0) times.push(monotonicMs() - started);
        calls = analytics.series.reduce((sum, point) => sum + point.model_calls, 0);
      }
      const summary = summarize(times);
      medianMs[range.label] = summary.p50;
      const rawTimes: number[] = [];
      for (let sample = 0; sample < RAW_SAMPLES; sample++) {
        const started = monotonicMs();
        await rawService.ofProject(bench.projectId, query, { outcomes: true });
        rawTimes.push(monotonicMs() - started);
      }
      const rawSummary = summarize(rawTimes);
      rawMedianMs[range.label] = rawSummary.p50;
      rows.push([range.label, calls.toLocaleString("en-US"), summary.p50, summary.max, rawSummary.p50]);
    }
    // Where the time of the longest range goes: each statement alone (median of 3).
    const window = {
      projectId: bench.projectId,
      fromUs: (now - 90 * DAY) * 1000,
      toUs: now * 1000,
      bucketUs: HOUR * 1000,
    };
    const statements: [string, () => Promise<unknown>][] = [
      ["model calls (bucket, agent, model, total)", () => modelCallAggregates(sql, window)],
      ["runs (bucket, agent, total)", () => runAggregates(sql, window)],
      ["tool runs by tool", () => toolAggregates(sql, window)],
      ["run endings", () => runEndings(sql, window)],
      ["approvals", () => approvalAggregates(sql, window)],
    ];
    const breakdown: (string | number)[][] = [];
    for (const [label, run] of statements) {
      const times: number[] = [];
      for (let sample = 0; sample < 3; sample++) {
        const started = monotonicMs();
        await run();
        times.push(monotonicMs() - started);
      }
      breakdown.push([label, summarize(times).p50]);
    }
    printTable(
      "90 d by hour from the raw rows, each statement alone (median of 3)",
      ["statement", "ms"],
      breakdown,
    );
    printTable(
      `The dashboard's request (median and max of ${SAMPLES}, after one warm-up), target < 300 ms; raw rows alone: median of ${RAW_SAMPLES}`,
      ["range", "model calls in it", "p50, ms", "max, ms", "raw rows p50, ms"],
      rows,
    );
    printBaselineBeside("Dashboard", baseline, (measured) => [
      ["SELECT 1 round trip p50, ms", measured.roundTrip.latency?.p50 ?? ""],
      ["single-row INSERT/s, one connection", measured.insertOneConnection.perSecond],
    ]);
    return { messages, seedMs, medianMs, rawMedianMs, firstRollUpMs };
  } finally {
    await bench.close();
  }
}
