// Evaluations on the wire (API.md "Evaluations"; docs/evals.md): suites of cases with assertions,
// runs of a suite against a saved version, their per-case results, summary and comparison. The
// routes parse with these schemas; the studio's Evals view and `npm run eval` read the same shapes.
import { z } from "zod";

const nonEmpty = (what: string) =>
  z.string({ error: `${what} must be a string` }).min(1, `${what} is required`);

/** What a text assertion looks at: the root's last assistant reply (default) or the whole transcript. */
export const EVAL_TARGETS = ["final_reply", "transcript"] as const;
const Target = z.enum(EVAL_TARGETS, { error: 'target must be "final_reply" or "transcript"' }).optional();

/** A regular expression source that compiles (a bad one is refused when the suite is saved). */
const RegexSource = z
  .string({ error: "value must be a string (a regular expression)" })
  .superRefine((source, context) => {
    try {
      new RegExp(source);
    } catch (error) {
      context.addIssue({
        code: "custom",
        message: `value is not a valid regular expression: ${(error as Error).message}`,
      });
    }
  });

const count = (what: string) =>
  z
    .number({ error: `${what} must be a number` })
    .int(`${what} must be an integer`)
    .nonnegative()
    .optional();

export const AssertionSchema = z.discriminatedUnion(
  "type",
  [
    z.object({
      type: z.enum(["contains", "not_contains", "equals"]),
      value: z.string({ error: "value must be a string" }),
      target: Target,
    }),
    z.object({ type: z.literal("regex"), value: RegexSource, target: Target }),
    z.object({
      type: z.literal("tool_called"),
      name: nonEmpty("name"),
      args: z.record(z.string(), z.unknown(), { error: "args must be an object" }).optional(),
      min: count("min"),
      max: count("max"),
    }),
    z.object({
      type: z.literal("subagent_spawned"),
      agent: nonEmpty("agent"),
      min: count("min"),
      max: count("max"),
    }),
    z.object({ type: z.literal("status"), value: nonEmpty("value") }),
    z.object({
      type: z.enum(["max_turns", "max_tokens", "max_cost_usd", "max_latency_ms"]),
      value: z.number({ error: "value must be a number" }).nonnegative("value must be ≥ 0"),
    }),
    z.object({
      type: z.literal("json_schema"),
      schema: z.record(z.string(), z.unknown(), { error: "schema must be a JSON Schema object" }),
      target: Target,
    }),
    z.object({
      type: z.literal("judge"),
      model: nonEmpty("model"),
      rubric: nonEmpty("rubric"),
      threshold: z.number({ error: "threshold must be a number" }).min(0).max(1).optional(),
    }),
    z.object({
      type: z.literal("code"),
      module: z
        .string({ error: "module must be a string" })
        .regex(
          /^[A-Za-z0-9_-]+(\/[A-Za-z0-9_-]+)*$/,
          "module must name a file under extensions/evals/ (letters, digits, _, - and /)",
        ),
    }),
  ],
  {
    error: (issue) =>
      issue.code === "invalid_union"
        ? "type must be one of contains, not_contains, equals, regex, tool_called, subagent_spawned, status, max_turns, max_tokens, max_cost_usd, max_latency_ms, json_schema, judge, code"
        : undefined,
  },
);
export type Assertion = z.infer<typeof AssertionSchema>;
export type AssertionType = Assertion["type"];

export const SimulatedUserSchema = z.object({
  prompt: nonEmpty("prompt"),
  model: nonEmpty("model"),
  max_turns: z.number({ error: "max_turns must be a number" }).int().min(1).max(100).default(4),
  stop: z.string({ error: "stop must be a string" }).optional(),
});
export type SimulatedUser = z.infer<typeof SimulatedUserSchema>;

export const CaseInputSchema = z.union(
  [
    z.object({
      messages: z
        .array(z.string({ error: "each message must be a string" }), {
          error: "messages must be an array of strings",
        })
        .min(1, "messages needs at least one user turn"),
    }),
    z.object({ simulated_user: SimulatedUserSchema }),
  ],
  { error: "input must be { messages: [..] } or { simulated_user: { prompt, model, max_turns?, stop? } }" },
);
export type CaseInput = z.infer<typeof CaseInputSchema>;

export const CaseSchema = z.object({
  /** Kept on PUT when given (a case keeps its id, so runs compare across edits). */
  id: z.string().optional(),
  name: nonEmpty("name"),
  input: CaseInputSchema,
  env: z.record(z.string(), z.string({ error: "env values must be strings" })).optional(),
  assertions: z.array(AssertionSchema, { error: "assertions must be an array" }).default([]),
});
export type CaseBody = z.infer<typeof CaseSchema>;

export const SuiteSchema = z.object({
  name: nonEmpty("name").max(200, "name is at most 200 characters"),
  agent_id: nonEmpty("agent_id"),
  cases: z.array(CaseSchema, { error: "cases must be an array" }).default([]),
  assertions: z.array(AssertionSchema, { error: "assertions must be an array" }).default([]),
});
export type SuiteBody = z.infer<typeof SuiteSchema>;

/** A stored case (ids on it). */
export interface EvalCase {
  id: string;
  name: string;
  input: CaseInput;
  env?: Record<string, string>;
  assertions: Assertion[];
}

export interface EvalSuite {
  id: string;
  project_id: string;
  name: string;
  agent_id: string;
  cases: EvalCase[];
  assertions: Assertion[];
  created_at: number;
  updated_at: number;
}

export const RunRequestSchema = z.object({
  version: z.number({ error: "version must be a number" }).int().positive().optional(),
  repetitions: z
    .number({ error: "repetitions must be a number" })
    .int("repetitions must be an integer")
    .min(1, "repetitions must be ≥ 1")
    .max(100, "repetitions must be ≤ 100")
    .default(1),
  concurrency: z
    .number({ error: "concurrency must be a number" })
    .int("concurrency must be an integer")
    .min(1, "concurrency must be ≥ 1")
    .max(1000, "concurrency must be ≤ 1000")
    .optional(),
});
export type RunRequest = z.infer<typeof RunRequestSchema>;

export const CaseFromThreadSchema = z.object({ thread_id: nonEmpty("thread_id") });

/** `GET /api/eval-runs/compare?a=&b=`: the two runs compared case by case. */
export const EvalRunCompareQuerySchema = z.object({
  a: z.string({ error: "a is required (an eval run id)" }).trim().min(1, "a is required (an eval run id)"),
  b: z.string({ error: "b is required (an eval run id)" }).trim().min(1, "b is required (an eval run id)"),
});

export const EVAL_RUN_STATUSES = ["running", "done", "failed", "cancelled"] as const;
export type EvalRunStatus = (typeof EVAL_RUN_STATUSES)[number];

export interface AssertionResult {
  type: AssertionType;
  passed: boolean;
  score: number;
  reason: string;
}

export interface EvalCaseResult {
  case_id: string;
  /** The case's name (a Tandem extension: the run names its cases without the suite). */
  name: string;
  repetition: number;
  thread_id: string | null;
  passed: boolean;
  score: number;
  assertions: AssertionResult[];
  turns: number;
  tokens: number;
  cost_usd: number;
  latency_ms: number;
}

export interface EvalSummary {
  cases: number;
  passed: number;
  pass_rate: number;
  /** pass^k: the share of cases that passed in every repetition. */
  pass_all_repetitions: number;
  mean_score: number;
  tokens: number;
  cost_usd: number;
  latency_p50_ms: number;
  latency_p95_ms: number;
}

export interface EvalRun {
  id: string;
  suite_id: string;
  project_id: string;
  suite_name: string;
  agent_id: string;
  version: number;
  status: EvalRunStatus;
  repetitions: number;
  concurrency: number;
  progress: { done: number; total: number };
  summary: EvalSummary;
  failure: string | null;
  created_at: number;
  finished_at: number | null;
  results: EvalCaseResult[];
}

/** A suite's run in its list of runs (`GET …/evals/:suiteId/runs`): the run without its results. */
export type EvalRunListEntry = Omit<
  EvalRun,
  "results" | "summary" | "suite_name" | "agent_id" | "concurrency"
> & {
  /** Null while the run is still running. */
  summary: EvalSummary | null;
};

export interface EvalSuiteListEntry {
  id: string;
  name: string;
  agent_id: string;
  cases: number;
  last_run?: {
    id: string;
    version: number;
    status: EvalRunStatus;
    progress: { done: number; total: number };
    summary: EvalSummary;
    created_at: number;
  };
}

export const COMPARE_CHANGES = ["fixed", "regressed", "same"] as const;

export interface EvalCompareCase {
  case_id: string;
  name: string;
  a: { passed: boolean; score: number } | null;
  b: { passed: boolean; score: number } | null;
  change: (typeof COMPARE_CHANGES)[number];
  /** The first repetition's threads, for the side-by-side diff (GET /api/threads/diff?a=&b=). */
  a_thread_id: string | null;
  b_thread_id: string | null;
}

export interface EvalCompare {
  cases: EvalCompareCase[];
  summary: { a: EvalSummary; b: EvalSummary };
}

/** SSE events of GET /api/eval-runs/:runId/events. */
export type EvalRunEvent =
  | { event: "progress"; data: { done: number; total: number } }
  | { event: "result"; data: EvalCaseResult }
  | { event: "run"; data: EvalRun };
