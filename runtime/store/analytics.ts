// The project dashboard's aggregates (docs/observability.md "Dashboard"): a few statements, each one
// pass over an index range of the project's rows in the time range — model calls and tool runs on
// their covering (project_id, time) indexes, runs on thread_runs (project_id, started_at). Times are
// µs since the epoch; buckets are aligned to UTC hours or days. Nothing but aggregates comes back.
import type { SqlExecutor } from "@/lib/db/sql-client";

export interface AnalyticsWindow {
  projectId: string;
  /** Inclusive, µs. */
  fromUs: number;
  /** Exclusive, µs. */
  toUs: number;
  bucketUs: number;
}

/** Model-call figures of one group; `p50`/`p95` are latencies in ms (null without calls). */
export interface CallAggregate {
  calls: number;
  input_tokens: number;
  output_tokens: number;
  cost_usd: number;
  errors: number;
  p50: number | null;
  p95: number | null;
}

/** One group of the model-call pass: a bucket (`bucket` set), an agent, a model, or all of them. */
export interface CallGroup extends CallAggregate {
  kind: "bucket" | "agent" | "model" | "total";
  key: string;
}

const WORKING = "('queued', 'running', 'waiting_approval')";

const params = (window: AnalyticsWindow) => [
  window.projectId,
  String(window.fromUs),
  String(window.toUs),
  String(window.bucketUs),
];

/**
 * Latency histogram bins: whole milliseconds below 256 ms (exact for model calls, whose latency is
 * whole ms), then 1 % wide (a percentile read from them is within 0.5 % of the exact one). Counting
 * bins is a hash aggregate; an exact percentile per agent and per model would be a sort of every
 * call of the range for each (docs/observability.md "What the database records").
 */
const EXACT_BELOW_MS = 256;
const BIN_GROWTH = 1.01;
// In float8: ln() of a numeric is computed to arbitrary precision, many times slower.
const binOf = (ms: string) =>
  `CASE WHEN (${ms})::float8 < ${EXACT_BELOW_MS} THEN floor((${ms})::float8)::int ELSE ${EXACT_BELOW_MS} + floor(ln((${ms})::float8 / ${EXACT_BELOW_MS}) / ${Math.log(BIN_GROWTH)})::int END`;

/** The latency a bin stands for: its whole ms, or the geometric middle of a 1 % bin. */
export function binValue(bin: number): number {
  return bin < EXACT_BELOW_MS ? bin : EXACT_BELOW_MS * BIN_GROWTH ** (bin - EXACT_BELOW_MS + 0.5);
}

/** `percentile_cont(fraction)` over a histogram of `[bin, count]` (any order); null when empty. */
export function histogramPercentile(
  histogram: readonly (readonly [number, number])[],
  fraction: number,
): number | null {
  const sorted = [...histogram].filter(([, count]) => count > 0).sort((a, b) => a[0] - b[0]);
  const total = sorted.reduce((sum, [, count]) => sum + count, 0);
  if (total === 0) return null;
  const position = fraction * (total - 1);
  const low = Math.floor(position);
  const valueAt = (index: number): number => {
    let seen = 0;
    for (const [bin, count] of sorted) {
      seen += count;
      if (index < seen) return binValue(bin);
    }
    return binValue(sorted[sorted.length - 1]?.[0] ?? 0);
  };
  const lowValue = valueAt(low);
  return position === low ? lowValue : lowValue + (valueAt(low + 1) - lowValue) * (position - low);
}

/**
 * Model calls per bucket (exact percentiles: the covering index yields them in time order, so the
 * per-bucket sort is a pass), and per agent, per model and in all (percentiles from latency bins).
 */
export async function modelCallAggregates(db: SqlExecutor, window: AnalyticsWindow): Promise<CallGroup[]> {
  const sums = `count(*)::int AS calls,
            coalesce(sum(input_tokens), 0)::bigint AS input_tokens,
            coalesce(sum(output_tokens), 0)::bigint AS output_tokens,
            coalesce(sum(cost_usd), 0)::float8 AS cost_usd,
            (count(*) FILTER (WHERE NOT ok))::int AS errors`;
  const range = "project_id = $1::uuid AND created_at >= $2::bigint AND created_at < $3::bigint";
  const [buckets, groups] = await Promise.all([
    // Bucket by bucket, each an aggregate over its own index range: no sort of the whole range (the
    // per-bucket percentiles sort a bucket's calls in memory).
    db.query<Record<string, unknown>>(
      `SELECT g.b, c.*
         FROM generate_series(($2::bigint / $4::bigint) * $4::bigint, $3::bigint - 1, $4::bigint) AS g(b)
        CROSS JOIN LATERAL (
              SELECT ${sums},
                     percentile_cont(0.5) WITHIN GROUP (ORDER BY latency_ms) AS p50,
                     percentile_cont(0.95) WITHIN GROUP (ORDER BY latency_ms) AS p95
                FROM model_calls
               WHERE project_id = $1::uuid AND created_at >= greatest(g.b, $2::bigint)
                 AND created_at < least(g.b + $4::bigint, $3::bigint)) AS c
        WHERE c.calls > 0`,
      params(window),
    ),
    db.query<Record<string, unknown>>(
      `SELECT grouping(agent, model) AS g, agent, model, bin, ${sums}
         FROM (SELECT coalesce(agent_name, '') AS agent, coalesce(answered_by, model_name) AS model,
                      ${binOf("latency_ms")} AS bin, input_tokens, output_tokens, cost_usd, ok
                 FROM model_calls WHERE ${range}) AS c
        GROUP BY GROUPING SETS ((agent, bin), (model, bin), (bin))`,
      params(window).slice(0, 3),
    ),
  ]);
  const result: CallGroup[] = buckets.map((row) => ({
    kind: "bucket",
    key: String(row.b),
    ...callFigures(row),
    p50: row.p50 === null ? null : Number(row.p50),
    p95: row.p95 === null ? null : Number(row.p95),
  }));
  const merged = new Map<string, CallGroup & { histogram: [number, number][] }>();
  for (const row of groups) {
    const g = Number(row.g);
    // grouping(): a bit per argument left out of the set (agent = 2, model = 1).
    const kind = g === 1 ? "agent" : g === 2 ? "model" : "total";
    const key = kind === "agent" ? String(row.agent) : kind === "model" ? String(row.model) : "";
    const figures = callFigures(row);
    let group = merged.get(`${kind}|${key}`);
    if (!group) {
      group = { kind, key, ...callFigures({}), p50: null, p95: null, histogram: [] };
      merged.set(`${kind}|${key}`, group);
    }
    group.calls += figures.calls;
    group.input_tokens += figures.input_tokens;
    group.output_tokens += figures.output_tokens;
    group.cost_usd += figures.cost_usd;
    group.errors += figures.errors;
    group.histogram.push([Number(row.bin), figures.calls]);
  }
  for (const { histogram, ...group } of merged.values())
    result.push({
      ...group,
      p50: histogramPercentile(histogram, 0.5),
      p95: histogramPercentile(histogram, 0.95),
    });
  return result;
}

function callFigures(row: Record<string, unknown>): Omit<CallAggregate, "p50" | "p95"> {
  return {
    calls: Number(row.calls ?? 0),
    input_tokens: Number(row.input_tokens ?? 0),
    output_tokens: Number(row.output_tokens ?? 0),
    cost_usd: Number(row.cost_usd ?? 0),
    errors: Number(row.errors ?? 0),
  };
}

/** Runs of one group: started in the window (finished or still working), failed, durations in ms. */
export interface RunGroup {
  kind: "bucket" | "agent" | "total";
  key: string;
  runs: number;
  in_progress: number;
  failed: number;
  p50: number | null;
  p95: number | null;
}

/** Runs started in the window per bucket, per agent and in all: finished ones and ones still at work. */
export async function runAggregates(db: SqlExecutor, window: AnalyticsWindow): Promise<RunGroup[]> {
  const rows = await db.query<Record<string, unknown>>(
    `SELECT grouping(b, agent) AS g, b, agent, count(*)::int AS runs,
            (count(*) FILTER (WHERE duration IS NULL))::int AS in_progress,
            (count(*) FILTER (WHERE status = 'failed'))::int AS failed,
            percentile_cont(0.5) WITHIN GROUP (ORDER BY duration) AS p50,
            percentile_cont(0.95) WITHIN GROUP (ORDER BY duration) AS p95
       FROM (SELECT (started_at / $4::bigint) * $4::bigint AS b, agent_name AS agent, status,
                    (finished_at - started_at) / 1000.0 AS duration
               FROM thread_runs
              WHERE project_id = $1::uuid AND started_at >= $2::bigint AND started_at < $3::bigint
             UNION ALL
             SELECT (work_started_at / $4::bigint) * $4::bigint, agent_name, status, NULL
               FROM threads
              WHERE project_id = $1::uuid AND status IN ${WORKING}
                AND work_started_at >= $2::bigint AND work_started_at < $3::bigint) AS r
      GROUP BY GROUPING SETS ((b), (agent), ())`,
    params(window),
  );
  return rows.map((row) => {
    const g = Number(row.g);
    const kind = g === 1 ? "bucket" : g === 2 ? "agent" : "total";
    return {
      kind,
      key: kind === "bucket" ? String(row.b) : kind === "agent" ? String(row.agent) : "",
      runs: Number(row.runs),
      in_progress: Number(row.in_progress),
      failed: Number(row.failed),
      p50: row.p50 === null ? null : Number(row.p50),
      p95: row.p95 === null ? null : Number(row.p95),
    };
  });
}

export interface ToolGroup {
  tool: string;
  calls: number;
  errors: number;
  p50: number | null;
  p95: number | null;
}

/** Tool runs started in the window, per tool (percentiles from latency bins, start to result). */
export async function toolAggregates(db: SqlExecutor, window: AnalyticsWindow): Promise<ToolGroup[]> {
  const rows = await db.query<Record<string, unknown>>(
    `SELECT name AS tool, bin, count(*)::int AS calls, (count(*) FILTER (WHERE status = 'error'))::int AS errors
       FROM (SELECT name, status, ${binOf("((finished_at - started_at) / 1000.0)")} AS bin
               FROM tool_runs
              WHERE project_id = $1::uuid AND started_at >= $2::bigint AND started_at < $3::bigint) AS r
      GROUP BY name, bin`,
    params(window).slice(0, 3),
  );
  const tools = new Map<string, { calls: number; errors: number; histogram: [number, number][] }>();
  for (const row of rows) {
    const name = String(row.tool);
    const tool = tools.get(name) ?? { calls: 0, errors: 0, histogram: [] };
    tools.set(name, tool);
    tool.calls += Number(row.calls);
    tool.errors += Number(row.errors);
    // A run without a finish (none today) has no bin: counted, not timed.
    if (row.bin !== null) tool.histogram.push([Number(row.bin), Number(row.calls)]);
  }
  return [...tools.entries()]
    .map(([tool, figures]) => ({
      tool,
      calls: figures.calls,
      errors: figures.errors,
      p50: histogramPercentile(figures.histogram, 0.5),
      p95: histogramPercentile(figures.histogram, 0.95),
    }))
    .sort((a, b) => b.calls - a.calls || a.tool.localeCompare(b.tool));
}

export interface RunEnding {
  status: string;
  stop_reason: string | null;
  failure: string | null;
  runs: number;
}

/** Finished runs started in the window by how they ended: status, stop reason, failure's first line. */
export async function runEndings(db: SqlExecutor, window: AnalyticsWindow): Promise<RunEnding[]> {
  const rows = await db.query<Record<string, unknown>>(
    `SELECT status, stop_reason, left(split_part(failure, E'\\n', 1), 160) AS failure, count(*)::int AS runs
       FROM thread_runs
      WHERE project_id = $1::uuid AND started_at >= $2::bigint AND started_at < $3::bigint
      GROUP BY 1, 2, 3`,
    params(window).slice(0, 3),
  );
  return rows.map((row) => ({
    status: String(row.status),
    stop_reason: row.stop_reason === null ? null : String(row.stop_reason),
    failure: row.failure === null ? null : String(row.failure),
    runs: Number(row.runs),
  }));
}

export interface ApprovalFigures {
  states: Record<string, number>;
  p50: number | null;
  p95: number | null;
}

/** Approvals requested in the window by state, and the wait from request to decision of decided ones. */
export async function approvalAggregates(db: SqlExecutor, window: AnalyticsWindow): Promise<ApprovalFigures> {
  const rows = await db.query<Record<string, unknown>>(
    `SELECT grouping(state) AS g, state, count(*)::int AS n,
            percentile_cont(0.5) WITHIN GROUP (ORDER BY (decided_at - requested_at) / 1000.0) AS p50,
            percentile_cont(0.95) WITHIN GROUP (ORDER BY (decided_at - requested_at) / 1000.0) AS p95
       FROM tool_approvals
      WHERE project_id = $1::uuid AND requested_at >= $2::bigint AND requested_at < $3::bigint
      GROUP BY GROUPING SETS ((state), ())`,
    params(window).slice(0, 3),
  );
  const states: Record<string, number> = {};
  let p50: number | null = null;
  let p95: number | null = null;
  for (const row of rows) {
    if (Number(row.g) === 1) {
      p50 = row.p50 === null ? null : Number(row.p50);
      p95 = row.p95 === null ? null : Number(row.p95);
    } else states[String(row.state)] = Number(row.n);
  }
  return { states, p50, p95 };
}

export async function projectExists(db: SqlExecutor, projectId: string): Promise<boolean> {
  const rows = await db.query<{ id: string }>("SELECT id FROM projects WHERE id = $1", [projectId]);
  return rows.length > 0;
}
