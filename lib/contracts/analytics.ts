// A project's analytics (`GET /api/projects/:id/analytics`, `?include=outcomes`), declared once
// for the server (runtime/services/analytics-service.ts) and the dashboard (app/projects/[id]/analytics).
// The query's meaning is documented in docs/observability.md "Dashboard".
import { z } from "zod";

export const ANALYTICS_BUCKETS = ["hour", "day"] as const;
export type AnalyticsBucket = (typeof ANALYTICS_BUCKETS)[number];

export const BUCKET_MS: Record<AnalyticsBucket, number> = { hour: 3_600_000, day: 86_400_000 };
/** The range the dashboard shows when `from` is not given: the 7 days before `to`. */
export const DEFAULT_RANGE_MS = 7 * BUCKET_MS.day;
/** Ranges up to this long default to hourly buckets, longer ones to daily. */
export const HOURLY_DEFAULT_UP_TO_MS = 7 * BUCKET_MS.day;
/** The most buckets one answer holds (a 1-year range by hour is 8,760). */
export const MAX_BUCKETS = 10_000;

/** A time: ISO 8601 (`2026-12-01T00:00:00Z`, a date alone is UTC midnight) or epoch milliseconds. */
const timeParam = z.string().transform((raw, context) => {
  const text = raw.trim();
  if (/^-?\d+$/.test(text)) {
    const ms = Number(text);
    if (Number.isSafeInteger(ms) && ms >= 0 && ms <= 8_640_000_000_000_000) return ms;
  } else if (/^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}(:?\d{2})?)?)?$/i.test(text)) {
    const ms = Date.parse(text);
    if (Number.isFinite(ms) && ms >= 0) return ms;
  }
  context.addIssue({
    code: "custom",
    message: `must be an ISO 8601 time (e.g. 2026-12-01T00:00:00Z) or epoch milliseconds (got "${raw}")`,
  });
  return z.NEVER;
});

export const AnalyticsQuerySchema = z.object({
  from: timeParam.optional(),
  to: timeParam.optional(),
  bucket: z
    .string()
    .refine((raw) => (ANALYTICS_BUCKETS as readonly string[]).includes(raw), {
      error: (issue) => `must be hour or day (got "${String(issue.input)}")`,
    })
    .transform((raw) => raw as AnalyticsBucket)
    .optional(),
  /** `outcomes`: the dashboard's other half too (ProjectOutcomes, under `outcomes`). */
  include: z.enum(["outcomes"], { error: 'must be "outcomes" when given' }).optional(),
});

/** The range and bucket an answer covers: `from` inclusive, `to` exclusive, epoch ms. */
export interface AnalyticsRange {
  from: number;
  to: number;
  bucket: AnalyticsBucket;
}

/** The range, and whether the answer also carries the outcomes. */
export interface AnalyticsQuery extends AnalyticsRange {
  outcomes: boolean;
}

/**
 * The query string as a range. Empty values are "not given"; every bad value throws a ZodError
 * naming the parameter (the route answers 400 with it). `now` is the default `to`.
 */
export function parseAnalyticsQuery(params: URLSearchParams, now: number = Date.now()): AnalyticsQuery {
  const raw: Record<string, string> = {};
  for (const key of Object.keys(AnalyticsQuerySchema.shape)) {
    const value = params.get(key);
    if (value !== null && value !== "") raw[key] = value;
  }
  const parsed = AnalyticsQuerySchema.parse(raw);
  const to = parsed.to ?? now;
  const from = parsed.from ?? to - DEFAULT_RANGE_MS;
  if (from >= to)
    throw new z.ZodError([
      { code: "custom", path: ["from"], message: "must be before `to`", input: raw.from },
    ]);
  const bucket = parsed.bucket ?? (to - from <= HOURLY_DEFAULT_UP_TO_MS ? "hour" : "day");
  const buckets = Math.ceil((to - from) / BUCKET_MS[bucket]) + 1;
  if (buckets > MAX_BUCKETS)
    throw new z.ZodError([
      {
        code: "custom",
        path: ["bucket"],
        message: `the range holds ${buckets} ${bucket} buckets, more than ${MAX_BUCKETS}; use a shorter range${bucket === "hour" ? " or bucket=day" : ""}`,
        input: raw.bucket,
      },
    ]);
  return { from, to, bucket, outcomes: parsed.include === "outcomes" };
}

/** Model-call and run figures of one bucket, agent or model. Latencies are of model calls, in ms. */
const CallFigures = {
  model_calls: z.number().int(),
  input_tokens: z.number().int(),
  output_tokens: z.number().int(),
  cost_usd: z.number(),
  errors: z.number().int(),
  latency_p50_ms: z.number(),
  latency_p95_ms: z.number(),
};

export const AnalyticsPointSchema = z.object({ t: z.string(), runs: z.number().int(), ...CallFigures });
export type AnalyticsPoint = z.infer<typeof AnalyticsPointSchema>;

export const AgentAnalyticsSchema = z.object({ agent: z.string(), runs: z.number().int(), ...CallFigures });
export type AgentAnalytics = z.infer<typeof AgentAnalyticsSchema>;

export const ModelAnalyticsSchema = z.object({ model: z.string(), ...CallFigures });
export type ModelAnalytics = z.infer<typeof ModelAnalyticsSchema>;

export const ToolAnalyticsSchema = z.object({
  tool: z.string(),
  calls: z.number().int(),
  errors: z.number().int(),
  latency_p50_ms: z.number(),
  latency_p95_ms: z.number(),
});
export type ToolAnalytics = z.infer<typeof ToolAnalyticsSchema>;

/** `GET /api/projects/:id/analytics` (../shared/API.md "Traces out"). */
export const ProjectAnalyticsSchema = z.object({
  series: z.array(AnalyticsPointSchema),
  by_agent: z.array(AgentAnalyticsSchema),
  by_model: z.array(ModelAnalyticsSchema),
  by_tool: z.array(ToolAnalyticsSchema),
});
export type ProjectAnalytics = z.infer<typeof ProjectAnalyticsSchema>;

const Percentiles = { p50_ms: z.number(), p95_ms: z.number() };

/** `GET /api/projects/:id/analytics?include=outcomes` adds this as `outcomes`: how runs ended and how long they and approvals took. */
export const ProjectOutcomesSchema = z.object({
  from: z.string(),
  to: z.string(),
  bucket: z.enum(ANALYTICS_BUCKETS),
  /** Per bucket: runs started, how many of them failed, and their durations (start to stop). */
  runs_series: z.array(
    z.object({
      t: z.string(),
      runs: z.number().int(),
      failed: z.number().int(),
      latency_p50_ms: z.number(),
      latency_p95_ms: z.number(),
    }),
  ),
  totals: z.object({
    runs: z.number().int(),
    runs_in_progress: z.number().int(),
    run_latency: z.object(Percentiles),
    model_calls: z.number().int(),
    model_call_latency: z.object(Percentiles),
    input_tokens: z.number().int(),
    output_tokens: z.number().int(),
    cost_usd: z.number(),
    errors: z.number().int(),
  }),
  /** Finished runs by the status they ended in (idle: a turn done, waiting for input). */
  ended: z.array(z.object({ status: z.string(), runs: z.number().int() })),
  stop_reasons: z.array(z.object({ reason: z.string(), runs: z.number().int() })),
  failures: z.array(z.object({ reason: z.string(), runs: z.number().int() })),
  approvals: z.object({
    requested: z.number().int(),
    pending: z.number().int(),
    approved: z.number().int(),
    denied: z.number().int(),
    /** From request to decision, of the decided ones. */
    wait: z.object(Percentiles),
  }),
});
export type ProjectOutcomes = z.infer<typeof ProjectOutcomesSchema>;

/**
 * Eval pass rate over versions (with `include=outcomes`): per suite, every run that finished
 * (status done) in the range, oldest first, with the project version it ran and its pass rate.
 */
export const EvalPassRatesSchema = z.array(
  z.object({
    suite_id: z.string(),
    suite: z.string(),
    runs: z.array(
      z.object({
        run_id: z.string(),
        version: z.number().int(),
        finished_at: z.string(),
        /** 0–1: passed / cases. */
        pass_rate: z.number(),
        passed: z.number().int(),
        cases: z.number().int(),
      }),
    ),
  }),
);
export type EvalPassRates = z.infer<typeof EvalPassRatesSchema>;

export const DashboardAnswerSchema = ProjectAnalyticsSchema.extend({
  outcomes: ProjectOutcomesSchema,
  evals: EvalPassRatesSchema,
});
