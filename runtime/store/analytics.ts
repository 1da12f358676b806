// The project dashboard's aggregates (docs/observability.md "Dashboard"): a few statements, each one
// pass over an index range of the project's rows in the time range — model calls on the covering
// (project_id, created_at) index, runs on thread_runs (project_id, started_at), tool runs through the
// project's threads on (thread_id, started_at). Times are µs since the epoch; buckets are aligned
// to UTC hours or days. Nothing but aggregates comes back.
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

/** Model calls per bucket, per agent, per model and in all, in one pass (GROUPING SETS). */
export async function modelCallAggregates(db: SqlExecutor, window: AnalyticsWindow): Promise<CallGroup[]> {
  const rows = await db.query<Record<string, unknown>>(
    `SELECT grouping(b, agent, model) AS g, b, agent, model,
            count(*)::int AS calls,
            coalesce(sum(input_tokens), 0)::bigint AS input_tokens,
            coalesce(sum(output_tokens), 0)::bigint AS output_tokens,
            coalesce(sum(cost_usd), 0)::float8 AS cost_usd,
            (count(*) FILTER (WHERE NOT ok))::int AS errors,
            percentile_cont(0.5) WITHIN GROUP (ORDER BY latency_ms) AS p50,
            percentile_cont(0.95) WITHIN GROUP (ORDER BY latency_ms) AS p95
       FROM (SELECT (created_at / $4::bigint) * $4::bigint AS b, coalesce(agent_name, '') AS agent,
                    coalesce(answered_by, model_name) AS model,
                    input_tokens, output_tokens, cost_usd, ok, latency_ms
               FROM model_calls
              WHERE project_id = $1::uuid AND created_at >= $2::bigint AND created_at < $3::bigint) AS c
      GROUP BY GROUPING SETS ((b), (agent), (model), ())`,
    params(window),
  );
  return rows.map((row) => {
    const g = Number(row.g);
    // grouping(): a bit per argument left out of the group (b = 4, agent = 2, model = 1).
    const kind = g === 3 ? "bucket" : g === 5 ? "agent" : g === 6 ? "model" : "total";
    const key =
      kind === "bucket"
        ? String(row.b)
        : kind === "agent"
          ? String(row.agent)
          : kind === "model"
            ? String(row.model)
            : "";
    return { kind, key, ...callFigures(row) };
  });
}

function callFigures(row: Record<string, unknown>): CallAggregate {
  return {
    calls: Number(row.calls),
    input_tokens: Number(row.input_tokens),
    output_tokens: Number(row.output_tokens),
    cost_usd: Number(row.cost_usd),
    errors: Number(row.errors),
    p50: row.p50 === null ? null : Number(row.p50),
    p95: row.p95 === null ? null : Number(row.p95),
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

/** Tool runs started in the window, per tool (through the project's threads). */
export async function toolAggregates(db: SqlExecutor, window: AnalyticsWindow): Promise<ToolGroup[]> {
  const rows = await db.query<Record<string, unknown>>(
    `SELECT r.name AS tool, count(*)::int AS calls,
            (count(*) FILTER (WHERE r.status = 'error'))::int AS errors,
            percentile_cont(0.5) WITHIN GROUP (ORDER BY (r.finished_at - r.started_at) / 1000.0) AS p50,
            percentile_cont(0.95) WITHIN GROUP (ORDER BY (r.finished_at - r.started_at) / 1000.0) AS p95
       FROM threads t JOIN tool_runs r ON r.thread_id = t.id
      WHERE t.project_id = $1::uuid AND r.started_at >= $2::bigint AND r.started_at < $3::bigint
      GROUP BY r.name ORDER BY calls DESC, tool`,
    params(window).slice(0, 3),
  );
  return rows.map((row) => ({
    tool: String(row.tool),
    calls: Number(row.calls),
    errors: Number(row.errors),
    p50: row.p50 === null ? null : Number(row.p50),
    p95: row.p95 === null ? null : Number(row.p95),
  }));
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
