// The dashboard's rollups (docs/observability.md "What the database records, and how it stays fast"):
// per closed hour and closed day, a project's model calls (in all, per agent, per model) and tool runs
// (per tool) summed, with latency bins and — for the calls in all — the period's exact p50/p95.
// Triggers on model_calls and tool_runs append the hour of every row inserted or deleted to
// analytics_pending; `rollUp` (run by the dashboard's read) recomputes the closed periods named there
// from the raw rows, so a late row (a step that committed after its call's hour closed) or a deleted
// thread is reflected from the next read on. Times are µs since the epoch, periods aligned to UTC.
import type { SqlClient, SqlExecutor } from "@/lib/db/sql-client";
import { type BinnedGroup, binOf, type CallAggregate } from "./analytics";

export const HOUR_US = 3_600_000_000;
export const DAY_US = 24 * HOUR_US;

export type RollupSource = "call" | "tool";
export type RollupGrain = "hour" | "day";

const GRAIN_US: Record<RollupGrain, number> = { hour: HOUR_US, day: DAY_US };

/** What one roll-up did: the periods it recomputed, and whether closed ones are still pending. */
export interface RollUpResult {
  hours: number;
  days: number;
  remaining: boolean;
}

/** At most this many hour and day periods per roll-up (oldest first); unset: all. */
export interface RollUpLimits {
  hours?: number;
  days?: number;
}

const DUE = `SELECT EXISTS (SELECT 1 FROM analytics_pending
                     WHERE project_id = $1::uuid AND start < $2::bigint
                       AND (grain = 'hour' OR start + ${DAY_US} <= $2::bigint)) AS due`;

/**
 * Recomputes the periods of the project with pending changes that closed before `closedBeforeUs`
 * (an hour boundary: the start of the hour in progress), the oldest first, up to `limits` (a catch-up
 * after the migration goes in chunks, each its own transaction). One roll-up per project at a time (an
 * advisory lock); the pending rows it deletes are those its statement saw, and it reads the raw rows
 * after deleting them, so a row committed meanwhile is either counted or still pending.
 */
export async function rollUp(
  client: SqlClient,
  projectId: string,
  closedBeforeUs: number,
  limits: RollUpLimits = {},
): Promise<RollUpResult> {
  const due = await client.query<{ due: boolean }>(DUE, [projectId, String(closedBeforeUs)]);
  if (!due[0]?.due) return { hours: 0, days: 0, remaining: false };
  const hourLimit = limits.hours === undefined ? null : String(limits.hours);
  const dayLimit = limits.days === undefined ? null : String(limits.days);
  return client.transaction(async (tx) => {
    await tx.query("SELECT pg_advisory_xact_lock(hashtextextended('tandem_analytics:' || $1::text, 0))", [
      projectId,
    ]);
    const hours = await tx.query<{ source: RollupSource; start: string }>(
      `WITH picked AS (
         SELECT DISTINCT start FROM analytics_pending
          WHERE project_id = $1::uuid AND grain = 'hour' AND start < $2::bigint ORDER BY start LIMIT $3::bigint)
       DELETE FROM analytics_pending AS a USING picked
        WHERE a.project_id = $1::uuid AND a.grain = 'hour' AND a.start = picked.start
       RETURNING a.source, a.start::text`,
      [projectId, String(closedBeforeUs), hourLimit],
    );
    let hourCount = 0;
    for (const source of ["call", "tool"] as const) {
      const starts = [...new Set(hours.filter((row) => row.source === source).map((row) => row.start))];
      if (starts.length === 0) continue;
      hourCount += starts.length;
      await recompute(tx, projectId, source, "hour", starts);
      // Their days are recomputed once closed (now, or by a later roll-up).
      const days = [...new Set(starts.map((start) => String(Math.floor(Number(start) / DAY_US) * DAY_US)))];
      await tx.query(
        `INSERT INTO analytics_pending (project_id, source, grain, start)
         SELECT $1::uuid, $2, 'day', d FROM unnest($3::bigint[]) AS d`,
        [projectId, source, days],
      );
    }
    const days = await tx.query<{ source: RollupSource; start: string }>(
      `WITH picked AS (
         SELECT DISTINCT start FROM analytics_pending
          WHERE project_id = $1::uuid AND grain = 'day' AND start + ${DAY_US} <= $2::bigint
          ORDER BY start LIMIT $3::bigint)
       DELETE FROM analytics_pending AS a USING picked
        WHERE a.project_id = $1::uuid AND a.grain = 'day' AND a.start = picked.start
       RETURNING a.source, a.start::text`,
      [projectId, String(closedBeforeUs), dayLimit],
    );
    let dayCount = 0;
    for (const source of ["call", "tool"] as const) {
      const starts = [...new Set(days.filter((row) => row.source === source).map((row) => row.start))];
      if (starts.length === 0) continue;
      dayCount += starts.length;
      await recompute(tx, projectId, source, "day", starts);
    }
    const more = await tx.query<{ due: boolean }>(DUE, [projectId, String(closedBeforeUs)]);
    return { hours: hourCount, days: dayCount, remaining: Boolean(more[0]?.due) };
  });
}

/** Replaces the rollup rows of these periods with ones computed from the raw rows. */
async function recompute(
  tx: SqlExecutor,
  projectId: string,
  source: RollupSource,
  grain: RollupGrain,
  starts: string[],
): Promise<void> {
  const size = GRAIN_US[grain];
  await tx.query(
    `DELETE FROM analytics_rollups
      WHERE project_id = $1::uuid AND source = $2 AND grain = $3 AND start = ANY($4::bigint[])`,
    [projectId, source, grain, starts],
  );
  const insert = `INSERT INTO analytics_rollups (project_id, source, grain, dim, start, key, calls, input_tokens,
                    output_tokens, cost_usd, errors, bins, counts)
                  SELECT $1::uuid, '${source}', '${grain}', dim, p, key, sum(n)::int, sum(it)::bigint, sum(ot)::bigint,
                         sum(cost)::float8, sum(err)::int,
                         array_agg(bin ORDER BY bin) FILTER (WHERE bin IS NOT NULL),
                         array_agg(n ORDER BY bin) FILTER (WHERE bin IS NOT NULL)
                    FROM g GROUP BY p, dim, key`;
  if (source === "call") {
    await tx.query(
      `WITH r AS (
         SELECT s.p, coalesce(m.agent_name, '') AS agent, coalesce(m.answered_by, m.model_name) AS model,
                ${binOf("m.latency_ms")} AS bin, m.input_tokens, m.output_tokens, m.cost_usd, m.ok
           FROM unnest($2::bigint[]) AS s(p)
           JOIN model_calls m ON m.project_id = $1::uuid AND m.created_at >= s.p AND m.created_at < s.p + ${size}),
       g AS (
         SELECT p, CASE grouping(agent, model) WHEN 1 THEN 'agent' WHEN 2 THEN 'model' ELSE 'total' END AS dim,
                CASE grouping(agent, model) WHEN 1 THEN agent WHEN 2 THEN model ELSE '' END AS key,
                bin, count(*)::int AS n, coalesce(sum(input_tokens), 0) AS it, coalesce(sum(output_tokens), 0) AS ot,
                coalesce(sum(cost_usd), 0)::float8 AS cost, count(*) FILTER (WHERE NOT ok) AS err
           FROM r GROUP BY GROUPING SETS ((p, agent, bin), (p, model, bin), (p, bin)))
       ${insert}`,
      [projectId, starts],
    );
    // The period's exact percentiles, for a series bucket that is this period.
    await tx.query(
      `UPDATE analytics_rollups AS a SET p50 = x.p50, p95 = x.p95
         FROM (SELECT s.p, percentile_cont(0.5) WITHIN GROUP (ORDER BY m.latency_ms) AS p50,
                      percentile_cont(0.95) WITHIN GROUP (ORDER BY m.latency_ms) AS p95
                 FROM unnest($2::bigint[]) AS s(p)
                 JOIN model_calls m ON m.project_id = $1::uuid AND m.created_at >= s.p AND m.created_at < s.p + ${size}
                GROUP BY s.p) AS x
        WHERE a.project_id = $1::uuid AND a.source = 'call' AND a.grain = $3 AND a.dim = 'total' AND a.start = x.p`,
      [projectId, starts, grain],
    );
  } else {
    await tx.query(
      `WITH g AS (
         SELECT s.p, 'tool' AS dim, r.name AS key, ${binOf("((r.finished_at - r.started_at) / 1000.0)")} AS bin,
                count(*)::int AS n, 0 AS it, 0 AS ot, 0::float8 AS cost,
                count(*) FILTER (WHERE r.status = 'error') AS err
           FROM unnest($2::bigint[]) AS s(p)
           JOIN tool_runs r ON r.project_id = $1::uuid AND r.started_at >= s.p AND r.started_at < s.p + ${size}
          GROUP BY 1, 2, 3, 4)
       ${insert}`,
      [projectId, starts],
    );
  }
}

/** A span of whole periods of one grain, [fromUs, toUs). */
export interface PeriodSpan {
  grain: RollupGrain;
  fromUs: number;
  toUs: number;
}

/** A series bucket that is one whole rolled-up period: its sums and exact percentiles. */
export interface RollupBucket extends Omit<CallAggregate, "p50" | "p95"> {
  start: number;
  p50: number | null;
  p95: number | null;
}

/** The "in all" rows of the calls' periods of one grain in [fromUs, toUs): the series' buckets. */
export async function readRollupBuckets(
  db: SqlExecutor,
  projectId: string,
  span: PeriodSpan,
): Promise<RollupBucket[]> {
  if (span.toUs <= span.fromUs) return [];
  const rows = await db.query<Record<string, unknown>>(
    `SELECT start::text AS start, calls, input_tokens::text AS input_tokens, output_tokens::text AS output_tokens,
            cost_usd, errors, p50, p95
       FROM analytics_rollups
      WHERE project_id = $1::uuid AND source = 'call' AND grain = $2 AND dim = 'total'
        AND start >= $3::bigint AND start < $4::bigint`,
    [projectId, span.grain, String(span.fromUs), String(span.toUs)],
  );
  return rows.map((row) => ({
    start: Number(row.start),
    calls: Number(row.calls),
    input_tokens: Number(row.input_tokens),
    output_tokens: Number(row.output_tokens),
    cost_usd: Number(row.cost_usd),
    errors: Number(row.errors),
    p50: row.p50 === null || row.p50 === undefined ? null : Number(row.p50),
    p95: row.p95 === null || row.p95 === undefined ? null : Number(row.p95),
  }));
}

/**
 * The groups' figures over whole periods of one span, summed in the database: per group one row of
 * sums, and per group and latency bin one row of counts (the rows' bins merged), so the answer holds
 * a few hundred rows whatever the span's length.
 */
export async function readRollupGroups(
  db: SqlExecutor,
  projectId: string,
  source: RollupSource,
  span: PeriodSpan,
): Promise<BinnedGroup[]> {
  if (span.toUs <= span.fromUs) return [];
  const dims = source === "call" ? "dim IN ('total', 'agent', 'model')" : "dim = 'tool'";
  const rows = await db.query<Record<string, unknown>>(
    `WITH r AS (
       SELECT dim, key, calls, input_tokens, output_tokens, cost_usd, errors, bins, counts
         FROM analytics_rollups
        WHERE project_id = $1::uuid AND source = $2 AND grain = $3 AND ${dims}
          AND start >= $4::bigint AND start < $5::bigint)
     SELECT dim, key, NULL::int AS bin, sum(calls)::bigint::text AS calls, sum(input_tokens)::text AS input_tokens,
            sum(output_tokens)::text AS output_tokens, sum(cost_usd)::float8 AS cost_usd, sum(errors)::bigint::text AS errors
       FROM r GROUP BY dim, key
     UNION ALL
     SELECT dim, key, u.bin, sum(u.n)::bigint::text, NULL, NULL, NULL, NULL
       FROM r, unnest(r.bins, r.counts) AS u(bin, n)
      GROUP BY dim, key, u.bin`,
    [projectId, source, span.grain, String(span.fromUs), String(span.toUs)],
  );
  return rows.map((row) => {
    const kind = String(row.dim) as BinnedGroup["kind"];
    const key = String(row.key);
    if (row.bin === null)
      return {
        kind,
        key,
        calls: Number(row.calls),
        input_tokens: Number(row.input_tokens),
        output_tokens: Number(row.output_tokens),
        cost_usd: Number(row.cost_usd),
        errors: Number(row.errors),
        histogram: [],
      };
    return {
      kind,
      key,
      calls: 0,
      input_tokens: 0,
      output_tokens: 0,
      cost_usd: 0,
      errors: 0,
      histogram: [[Number(row.bin), Number(row.calls)]],
    };
  });
}
