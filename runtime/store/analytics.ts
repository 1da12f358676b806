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
 * Latency histogram bins: whole milliseconds below 64 ms (exact for model calls, whose latency is
 * whole ms), then 5 % wide (a percentile read from them is within 2.5 % of the exact one): few enough
 * that a day's rollup row holds ~60 bins, so 90 days of them merge quickly. Counting
 * bins is a hash aggregate; an exact percentile per agent and per model would be a sort of every
 * call of the range for each (docs/observability.md "What the database records").
 */
const EXACT_BELOW_MS = 64;
const BIN_GROWTH = 1.05;
// In float8: ln() of a numeric is computed to arbitrary precision, many times slower.
export const binOf = (ms: string) =>
  `CASE WHEN (${ms})::float8 < ${EXACT_BELOW_MS} THEN floor((${ms})::float8)::int ELSE ${EXACT_BELOW_MS} + floor(ln((${ms})::float8 / ${EXACT_BELOW_MS}) / ${Math.log(BIN_GROWTH)})::int END`;

/** The latency a bin stands for: its whole ms, or the geometric middle of a 5 % bin. */
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

/** `(col >= a AND col < b) OR …` over the intervals, their bounds appended to `params`. */
function intervalsClause(
  column: string,
  intervals: readonly (readonly [number, number])[],
  params: unknown[],
): string {
  const clauses = intervals
    .filter(([from, to]) => to > from)
    .map(([from, to]) => {
      params.push(String(from), String(to));
      return `(${column} >= $${params.length - 1}::bigint AND ${column} < $${params.length}::bigint)`;
    });
  return clauses.length === 0 ? "false" : `(${clauses.join(" OR ")})`;
}

const CALL_SUMS = `count(*)::int AS calls,
            coalesce(sum(input_tokens), 0)::bigint AS input_tokens,
            coalesce(sum(output_tokens), 0)::bigint AS output_tokens,
            coalesce(sum(cost_usd), 0)::float8 AS cost_usd,
            (count(*) FILTER (WHERE NOT ok))::int AS errors`;

/**
 * Model calls of these buckets (starts in µs, each `bucketUs` long, cut to the window), with exact
 * percentiles: each bucket an aggregate over its own index range, so no sort of the whole range.
 */
export async function modelCallBuckets(
  db: SqlExecutor,
  window: AnalyticsWindow,
  starts: readonly number[],
): Promise<CallGroup[]> {
  if (starts.length === 0) return [];
  const rows = await db.query<Record<string, unknown>>(
    `SELECT g.b, c.*
       FROM unnest($4::bigint[]) AS g(b)
      CROSS JOIN LATERAL (
            SELECT ${CALL_SUMS},
                   percentile_cont(0.5) WITHIN GROUP (ORDER BY latency_ms) AS p50,
                   percentile_cont(0.95) WITHIN GROUP (ORDER BY latency_ms) AS p95
              FROM model_calls
             WHERE project_id = $1::uuid AND created_at >= greatest(g.b, $2::bigint)
               AND created_at < least(g.b + $5::bigint, $3::bigint)) AS c
      WHERE c.calls > 0`,
    [
      window.projectId,
      String(window.fromUs),
      String(window.toUs),
      starts.map(String),
      String(window.bucketUs),
    ],
  );
  return rows.map((row) => ({
    kind: "bucket",
    key: String(row.b),
    ...callFigures(row),
    p50: row.p50 === null ? null : Number(row.p50),
    p95: row.p95 === null ? null : Number(row.p95),
  }));
}

/** A group's figures and latency histogram, to be merged with others of the same group. */
export interface BinnedGroup extends Omit<CallAggregate, "p50" | "p95"> {
  kind: "agent" | "model" | "total" | "tool";
  key: string;
  histogram: [number, number][];
}

/** Model calls in these intervals per agent, per model and in all, with latency bins (one hash pass). */
export async function modelCallBins(
  db: SqlExecutor,
  projectId: string,
  intervals: readonly (readonly [number, number])[],
): Promise<BinnedGroup[]> {
  const params: unknown[] = [projectId];
  const where = intervalsClause("created_at", intervals, params);
  if (where === "false") return [];
  const rows = await db.query<Record<string, unknown>>(
    `SELECT grouping(agent, model) AS g, agent, model, bin, ${CALL_SUMS}
       FROM (SELECT coalesce(agent_name, '') AS agent, coalesce(answered_by, model_name) AS model,
                    ${binOf("latency_ms")} AS bin, input_tokens, output_tokens, cost_usd, ok
               FROM model_calls WHERE project_id = $1::uuid AND ${where}) AS c
      GROUP BY GROUPING SETS ((agent, bin), (model, bin), (bin))`,
    params as string[],
  );
  return rows.map((row) => {
    const g = Number(row.g);
    // grouping(): a bit per argument left out of the set (agent = 2, model = 1).
    const kind = g === 1 ? "agent" : g === 2 ? "model" : "total";
    const figures = callFigures(row);
    return {
      kind,
      key: kind === "agent" ? String(row.agent) : kind === "model" ? String(row.model) : "",
      ...figures,
      histogram: [[Number(row.bin), figures.calls]],
    };
  });
}

/** Groups merged (figures summed, histograms joined) and their percentiles read from the bins. */
export function mergeBinned(groups: readonly BinnedGroup[]): (CallGroup | (ToolGroup & { kind: "tool" }))[] {
  const merged = new Map<string, BinnedGroup>();
  for (const group of groups) {
    const id = `${group.kind}|${group.key}`;
    let into = merged.get(id);
    if (!into) {
      into = { kind: group.kind, key: group.key, ...callFigures({}), histogram: [] };
      merged.set(id, into);
    }
    into.calls += group.calls;
    into.input_tokens += group.input_tokens;
    into.output_tokens += group.output_tokens;
    into.cost_usd += group.cost_usd;
    into.errors += group.errors;
    for (const entry of group.histogram) into.histogram.push(entry);
  }
  return [...merged.values()].map(({ histogram, ...group }) => {
    const p50 = histogramPercentile(histogram, 0.5);
    const p95 = histogramPercentile(histogram, 0.95);
    if (group.kind === "tool")
      return { kind: "tool", tool: group.key, calls: group.calls, errors: group.errors, p50, p95 };
    return { ...group, kind: group.kind, p50, p95 };
  });
}

/**
 * Model calls of the window read from the raw rows alone: per bucket (exact percentiles), and per
 * agent, per model and in all (percentiles from latency bins). The rollups answer the same figures
 * (runtime/services/analytics-service.ts); this is the reference they are tested against.
 */
export async function modelCallAggregates(db: SqlExecutor, window: AnalyticsWindow): Promise<CallGroup[]> {
  const starts: number[] = [];
  for (
    let b = Math.floor(window.fromUs / window.bucketUs) * window.bucketUs;
    b < window.toUs;
    b += window.bucketUs
  )
    starts.push(b);
  const [buckets, groups] = await Promise.all([
    modelCallBuckets(db, window, starts),
    modelCallBins(db, window.projectId, [[window.fromUs, window.toUs]]),
  ]);
  return [...buckets, ...(mergeBinned(groups) as CallGroup[])];
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

/** Tool runs started in these intervals per tool, with latency bins (start to result). */
export async function toolRunBins(
  db: SqlExecutor,
  projectId: string,
  intervals: readonly (readonly [number, number])[],
): Promise<BinnedGroup[]> {
  const params: unknown[] = [projectId];
  const where = intervalsClause("started_at", intervals, params);
  if (where === "false") return [];
  const rows = await db.query<Record<string, unknown>>(
    `SELECT name AS tool, bin, count(*)::int AS calls, (count(*) FILTER (WHERE status = 'error'))::int AS errors
       FROM (SELECT name, status, ${binOf("((finished_at - started_at) / 1000.0)")} AS bin
               FROM tool_runs WHERE project_id = $1::uuid AND ${where}) AS r
      GROUP BY name, bin`,
    params as string[],
  );
  return rows.map((row) => ({
    kind: "tool",
    key: String(row.tool),
    ...callFigures({ calls: row.calls, errors: row.errors }),
    // A run without a finish (none today) has no bin: counted, not timed.
    histogram: row.bin === null ? [] : [[Number(row.bin), Number(row.calls)]],
  }));
}

/** Tools sorted as the answer lists them: by calls, then name. */
export function sortTools(tools: ToolGroup[]): ToolGroup[] {
  return tools.sort((a, b) => b.calls - a.calls || a.tool.localeCompare(b.tool));
}

/** Tool runs started in the window, per tool, from the raw rows alone (the rollups' reference). */
export async function toolAggregates(db: SqlExecutor, window: AnalyticsWindow): Promise<ToolGroup[]> {
  const groups = mergeBinned(await toolRunBins(db, window.projectId, [[window.fromUs, window.toUs]]));
  return sortTools(
    groups.flatMap((group) =>
      group.kind === "tool"
        ? [{ tool: group.tool, calls: group.calls, errors: group.errors, p50: group.p50, p95: group.p95 }]
        : [],
    ),
  );
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
