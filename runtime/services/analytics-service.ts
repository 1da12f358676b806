// A project's analytics for the dashboard (`GET /api/projects/:id/analytics` and `.../outcomes`):
// the aggregates of runtime/store/analytics.ts shaped into the contract (lib/contracts/analytics.ts),
// every bucket of the range present (empty ones as zeros). docs/observability.md "Dashboard".
import "server-only";
import {
  type AgentAnalytics,
  type AnalyticsPoint,
  type AnalyticsRange,
  BUCKET_MS,
  type EvalPassRates,
  type ModelAnalytics,
  type ProjectAnalytics,
  type ProjectOutcomes,
} from "@/lib/contracts/analytics";
import type { SqlClient } from "@/lib/db/sql-client";
import { NotFoundError } from "../errors";
import {
  type AnalyticsWindow,
  type ApprovalFigures,
  approvalAggregates,
  type CallAggregate,
  type CallGroup,
  mergeBinned,
  modelCallAggregates,
  modelCallBins,
  modelCallBuckets,
  type RunEnding,
  type RunGroup,
  runAggregates,
  runEndings,
  sortTools,
  type ToolGroup,
  toolAggregates,
  toolRunBins,
} from "../store/analytics";
import {
  DAY_US,
  HOUR_US,
  type PeriodSpan,
  readRollupBuckets,
  readRollupGroups,
  rollUp,
} from "../store/analytics-rollups";
import { finishedRunsOfProject } from "../store/eval-store";
import { projectExists } from "../store/project-versions";
import { isUuid } from "./project-service";

const MS = 1000;
const REASONS_SHOWN = 10;

/** Milliseconds, rounded to 0.1 ms; 0 when there was nothing to measure. */
function ms(value: number | null): number {
  return value === null ? 0 : Math.round(value * 10) / 10;
}

function callFields(aggregate: CallAggregate | undefined) {
  return {
    model_calls: aggregate?.calls ?? 0,
    input_tokens: aggregate?.input_tokens ?? 0,
    output_tokens: aggregate?.output_tokens ?? 0,
    cost_usd: aggregate?.cost_usd ?? 0,
    errors: aggregate?.errors ?? 0,
    latency_p50_ms: ms(aggregate?.p50 ?? null),
    latency_p95_ms: ms(aggregate?.p95 ?? null),
  };
}

/** Every bucket start (µs) of the range, from the one holding `from` to the one holding the last instant. */
function bucketStarts(range: AnalyticsRange): number[] {
  const size = BUCKET_MS[range.bucket];
  const starts: number[] = [];
  for (let t = Math.floor(range.from / size) * size; t < range.to; t += size) starts.push(t * MS);
  return starts;
}

export interface AnalyticsServiceOptions {
  /** The clock that says which hours are closed (tests move it). */
  now?: () => number;
  /** false: read every figure from the raw rows (the rollups' reference, for tests and the bench). */
  rollups?: boolean;
  /** Hour periods a read rolls up before answering (default 48); more pending go on in the background. */
  rollUpChunk?: number;
}

/**
 * How a window splits between the raw rows and the rollups: whole closed hours and days in the
 * middle from the rollups, the cut hours at its edges and the hour in progress from the raw rows.
 */
export interface WindowPlan {
  raw: [number, number][];
  spans: PeriodSpan[];
  /** Whole closed hours [from, to) and whole closed days [from, to) the rollups cover. */
  hours: [number, number];
  days: [number, number];
}

const floorTo = (us: number, size: number) => Math.floor(us / size) * size;
const ceilTo = (us: number, size: number) => Math.ceil(us / size) * size;

export function planWindow(fromUs: number, toUs: number, closedBeforeUs: number): WindowPlan {
  const a = ceilTo(fromUs, HOUR_US);
  const b = Math.min(floorTo(toUs, HOUR_US), closedBeforeUs);
  if (a >= b) return { raw: [[fromUs, toUs]], spans: [], hours: [a, a], days: [a, a] };
  let d1 = ceilTo(a, DAY_US);
  let d2 = floorTo(b, DAY_US);
  if (d1 >= d2) d1 = d2 = b;
  return {
    raw: [
      [fromUs, a],
      [b, toUs],
    ],
    spans: [
      { grain: "hour", fromUs: a, toUs: d1 },
      { grain: "day", fromUs: d1, toUs: d2 },
      { grain: "hour", fromUs: d2, toUs: b },
    ],
    hours: [a, b],
    days: [d1, d2],
  };
}

export class AnalyticsService {
  private readonly now: () => number;
  private readonly rollups: boolean;
  private readonly chunk: number;
  /** Catch-up roll-ups in progress, per project. */
  private readonly catchingUp = new Map<string, Promise<void>>();

  constructor(
    private readonly db: SqlClient,
    options: AnalyticsServiceOptions = {},
  ) {
    this.now = options.now ?? Date.now;
    this.rollups = options.rollups ?? true;
    this.chunk = options.rollUpChunk ?? 48;
  }

  /**
   * Rolls up the rest of a project's closed periods in chunks, in the background (one loop per
   * project): a project whose history is pending (after the migration) is answered from the raw
   * rows meanwhile, and no request waits for all of it.
   */
  private catchUp(projectId: string, closedBeforeUs: number): Promise<void> {
    let running = this.catchingUp.get(projectId);
    if (!running) {
      running = (async () => {
        try {
          while (
            (await rollUp(this.db, projectId, closedBeforeUs, { hours: this.chunk, days: this.chunk }))
              .remaining
          );
        } catch (error) {
          console.error(`analytics: rolling up project ${projectId} failed`, error);
        } finally {
          this.catchingUp.delete(projectId);
        }
      })();
      this.catchingUp.set(projectId, running);
    }
    return running;
  }

  /** Resolves when the project's background roll-up (if any) has finished (tests and the bench). */
  async settled(projectId: string): Promise<void> {
    await this.catchingUp.get(projectId);
  }

  private rawCallsAndTools(window: AnalyticsWindow): Promise<[CallGroup[], ToolGroup[]]> {
    return Promise.all([modelCallAggregates(this.db, window), toolAggregates(this.db, window)]);
  }

  /** Model calls (per bucket, agent, model, in all) and tools: rollups for closed periods, raw rows around them. */
  private async callsAndTools(window: AnalyticsWindow): Promise<[CallGroup[], ToolGroup[]]> {
    if (!this.rollups) return this.rawCallsAndTools(window);
    const closedBeforeUs = floorTo(this.now() * MS, HOUR_US);
    if (this.catchingUp.has(window.projectId)) return this.rawCallsAndTools(window);
    const rolled = await rollUp(this.db, window.projectId, closedBeforeUs, {
      hours: this.chunk,
      days: this.chunk,
    });
    if (rolled.remaining) {
      void this.catchUp(window.projectId, closedBeforeUs);
      return this.rawCallsAndTools(window);
    }
    const plan = planWindow(window.fromUs, window.toUs, closedBeforeUs);
    // Series buckets that are one whole rolled-up period; the others are read from the raw rows.
    const grain = window.bucketUs === DAY_US ? "day" : "hour";
    const [coveredFrom, coveredTo] = grain === "day" ? plan.days : plan.hours;
    const rawBuckets: number[] = [];
    for (let b = floorTo(window.fromUs, window.bucketUs); b < window.toUs; b += window.bucketUs)
      if (b < coveredFrom || b + window.bucketUs > coveredTo || b < window.fromUs) rawBuckets.push(b);
    const [seriesRows, rawSeries, callRows, rawCalls, toolRows, rawTools] = await Promise.all([
      readRollupBuckets(this.db, window.projectId, { grain, fromUs: coveredFrom, toUs: coveredTo }),
      modelCallBuckets(this.db, window, rawBuckets),
      Promise.all(plan.spans.map((span) => readRollupGroups(this.db, window.projectId, "call", span))),
      // One statement per interval: an OR of two ranges can make the planner read the project's
      // whole index range (every call of 90 days) instead of two short ones.
      Promise.all(plan.raw.map((interval) => modelCallBins(this.db, window.projectId, [interval]))),
      Promise.all(plan.spans.map((span) => readRollupGroups(this.db, window.projectId, "tool", span))),
      Promise.all(plan.raw.map((interval) => toolRunBins(this.db, window.projectId, [interval]))),
    ]);
    const buckets: CallGroup[] = seriesRows
      .filter((row) => row.calls > 0)
      .map((row) => ({ ...row, kind: "bucket", key: String(row.start) }));
    const groups = mergeBinned([...callRows.flat(), ...rawCalls.flat()]) as CallGroup[];
    const tools = mergeBinned([...toolRows.flat(), ...rawTools.flat()]).flatMap((group) =>
      group.kind === "tool"
        ? [{ tool: group.tool, calls: group.calls, errors: group.errors, p50: group.p50, p95: group.p95 }]
        : [],
    );
    return [[...buckets, ...rawSeries, ...groups], sortTools(tools)];
  }

  private async window(projectId: string, range: AnalyticsRange): Promise<AnalyticsWindow> {
    if (!isUuid(projectId) || !(await projectExists(this.db, projectId)))
      throw new NotFoundError("Project", projectId);
    return {
      projectId,
      fromUs: range.from * MS,
      toUs: range.to * MS,
      bucketUs: BUCKET_MS[range.bucket] * MS,
    };
  }

  /**
   * Series per bucket and figures by agent, model and tool (the API.md contract); with `outcomes`,
   * also how runs ended, run durations and approval waits (the dashboard asks for both at once, so
   * each aggregate pass runs once).
   */
  async ofProject(
    projectId: string,
    range: AnalyticsRange,
    options: { outcomes?: boolean } = {},
  ): Promise<ProjectAnalytics & { outcomes?: ProjectOutcomes; evals?: EvalPassRates }> {
    const window = await this.window(projectId, range);
    const [[calls, tools], runs, endings, approvals, evalRuns] = await Promise.all([
      this.callsAndTools(window),
      runAggregates(this.db, window),
      options.outcomes ? runEndings(this.db, window) : null,
      options.outcomes ? approvalAggregates(this.db, window) : null,
      options.outcomes ? finishedRunsOfProject(this.db, projectId, window.fromUs, window.toUs) : null,
    ]);
    const callIndex = new Map(calls.map((group) => [`${group.kind}|${group.key}`, group]));
    const runIndex = new Map(runs.map((group) => [`${group.kind}|${group.key}`, group]));
    const callsOf = (kind: string, key: string) => callIndex.get(`${kind}|${key}`);
    const runsOf = (kind: string, key: string) => runIndex.get(`${kind}|${key}`);

    const series: AnalyticsPoint[] = bucketStarts(range).map((start) => {
      const key = String(start);
      const call = callsOf("bucket", key);
      const run = runsOf("bucket", key);
      const fields = callFields(call);
      return {
        t: new Date(start / MS).toISOString(),
        runs: run?.runs ?? 0,
        ...fields,
        errors: fields.errors + (run?.failed ?? 0),
      };
    });

    const agents = new Set<string>();
    for (const group of calls) if (group.kind === "agent") agents.add(group.key);
    for (const group of runs) if (group.kind === "agent") agents.add(group.key);
    const by_agent: AgentAnalytics[] = [...agents]
      .map((agent) => {
        const run = runsOf("agent", agent);
        const fields = callFields(callsOf("agent", agent));
        return { agent, runs: run?.runs ?? 0, ...fields, errors: fields.errors + (run?.failed ?? 0) };
      })
      .sort((a, b) => b.runs - a.runs || b.model_calls - a.model_calls || a.agent.localeCompare(b.agent));

    const by_model: ModelAnalytics[] = calls
      .filter((group) => group.kind === "model")
      .map((group) => ({ model: group.key, ...callFields(group) }))
      .sort((a, b) => b.model_calls - a.model_calls || a.model.localeCompare(b.model));

    const by_tool = tools.map((group) => ({
      tool: group.tool,
      calls: group.calls,
      errors: group.errors,
      latency_p50_ms: ms(group.p50),
      latency_p95_ms: ms(group.p95),
    }));

    const analytics = { series, by_agent, by_model, by_tool };
    if (!endings || !approvals || !evalRuns) return analytics;
    return {
      ...analytics,
      outcomes: outcomesOf(range, calls, runs, endings, approvals),
      evals: passRates(evalRuns),
    };
  }
}

/** Each suite's finished runs with their version and pass rate (rows come by suite, oldest first). */
function passRates(rows: Awaited<ReturnType<typeof finishedRunsOfProject>>): EvalPassRates {
  const suites = new Map<string, EvalPassRates[number]>();
  for (const row of rows) {
    let suite = suites.get(row.suite_id);
    if (!suite) {
      suite = { suite_id: row.suite_id, suite: row.suite, runs: [] };
      suites.set(row.suite_id, suite);
    }
    const cases = row.summary?.cases ?? 0;
    const passed = row.summary?.passed ?? 0;
    suite.runs.push({
      run_id: row.run_id,
      version: row.version,
      finished_at: new Date(Math.floor(row.finished_at / MS)).toISOString(),
      pass_rate: row.summary?.pass_rate ?? (cases > 0 ? passed / cases : 0),
      passed,
      cases,
    });
  }
  return [...suites.values()];
}

/** How runs ended, run durations per bucket, totals and approval waits (the dashboard's other half). */
function outcomesOf(
  range: AnalyticsRange,
  calls: CallGroup[],
  runs: RunGroup[],
  endings: RunEnding[],
  approvals: ApprovalFigures,
): ProjectOutcomes {
  const runTotal = runs.find((group) => group.kind === "total");
  const callTotal = calls.find((group) => group.kind === "total");
  const runIndex = new Map(
    runs.filter((group) => group.kind === "bucket").map((group) => [group.key, group]),
  );
  const runs_series = bucketStarts(range).map((start) => {
    const run = runIndex.get(String(start));
    return {
      t: new Date(start / MS).toISOString(),
      runs: run?.runs ?? 0,
      failed: run?.failed ?? 0,
      latency_p50_ms: ms(run?.p50 ?? null),
      latency_p95_ms: ms(run?.p95 ?? null),
    };
  });
  const tally = (key: (row: (typeof endings)[number]) => string | null) => {
    const counts = new Map<string, number>();
    for (const row of endings) {
      const value = key(row);
      if (value) counts.set(value, (counts.get(value) ?? 0) + row.runs);
    }
    return [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  };
  const callFigures = callFields(callTotal);
  return {
    from: new Date(range.from).toISOString(),
    to: new Date(range.to).toISOString(),
    bucket: range.bucket,
    runs_series,
    totals: {
      runs: runTotal?.runs ?? 0,
      runs_in_progress: runTotal?.in_progress ?? 0,
      run_latency: { p50_ms: ms(runTotal?.p50 ?? null), p95_ms: ms(runTotal?.p95 ?? null) },
      model_calls: callFigures.model_calls,
      model_call_latency: { p50_ms: callFigures.latency_p50_ms, p95_ms: callFigures.latency_p95_ms },
      input_tokens: callFigures.input_tokens,
      output_tokens: callFigures.output_tokens,
      cost_usd: callFigures.cost_usd,
      errors: callFigures.errors + (runTotal?.failed ?? 0),
    },
    ended: tally((row) => row.status).map(([status, count]) => ({ status, runs: count })),
    stop_reasons: tally((row) => row.stop_reason)
      .slice(0, REASONS_SHOWN)
      .map(([reason, count]) => ({ reason, runs: count })),
    failures: tally((row) => (row.status === "failed" ? (row.failure ?? "(no reason recorded)") : null))
      .slice(0, REASONS_SHOWN)
      .map(([reason, count]) => ({ reason, runs: count })),
    approvals: {
      requested: Object.values(approvals.states).reduce((sum, n) => sum + n, 0),
      pending: approvals.states.pending ?? 0,
      approved: approvals.states.approved ?? 0,
      denied: approvals.states.denied ?? 0,
      wait: { p50_ms: ms(approvals.p50), p95_ms: ms(approvals.p95) },
    },
  };
}
