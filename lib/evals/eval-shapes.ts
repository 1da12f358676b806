// The studio's reading of the Evaluations wire shapes (shared/API.md "Evaluations"; the server's own
// schemas and types are lib/contracts/evals.ts): suites, cases,
// assertions, runs, results and the comparison of two runs. Loose objects: the browser keeps what it
// does not know about (a newer server's fields) and passes it back untouched when it saves a suite.
import { z } from "zod";

export const ASSERTION_TYPES = [
  "contains",
  "not_contains",
  "equals",
  "regex",
  "tool_called",
  "subagent_spawned",
  "status",
  "max_turns",
  "max_tokens",
  "max_cost_usd",
  "max_latency_ms",
  "json_schema",
  "judge",
  "code",
] as const;

export type AssertionType = (typeof ASSERTION_TYPES)[number];

export const AssertionSchema = z.looseObject({
  type: z.string(),
  value: z.unknown().optional(),
  target: z.enum(["final_reply", "transcript"]).optional(),
  name: z.string().optional(),
  args: z.record(z.string(), z.unknown()).optional(),
  min: z.number().optional(),
  max: z.number().optional(),
  agent: z.string().optional(),
  schema: z.unknown().optional(),
  model: z.string().optional(),
  rubric: z.string().optional(),
  threshold: z.number().optional(),
  module: z.string().optional(),
});
export type Assertion = z.infer<typeof AssertionSchema>;

export const SimulatedUserSchema = z.looseObject({
  prompt: z.string(),
  model: z.string(),
  max_turns: z.number().int().positive().optional(),
  stop: z.string().optional(),
});
export type SimulatedUser = z.infer<typeof SimulatedUserSchema>;

export const CaseInputSchema = z.union([
  z.looseObject({ messages: z.array(z.string()) }),
  z.looseObject({ simulated_user: SimulatedUserSchema }),
]);
export type CaseInput = z.infer<typeof CaseInputSchema>;

export const EvalCaseSchema = z.looseObject({
  id: z.string().optional(),
  name: z.string(),
  input: CaseInputSchema,
  env: z.record(z.string(), z.unknown()).optional(),
  assertions: z.array(AssertionSchema).optional(),
});
export type EvalCase = z.infer<typeof EvalCaseSchema>;

export const EvalSuiteSchema = z.looseObject({
  id: z.string().optional(),
  name: z.string(),
  agent_id: z.string(),
  cases: z.array(EvalCaseSchema),
  assertions: z.array(AssertionSchema).optional(),
});
export type EvalSuite = z.infer<typeof EvalSuiteSchema>;

export const RunSummarySchema = z.looseObject({
  cases: z.number(),
  passed: z.number(),
  pass_rate: z.number(),
  pass_all_repetitions: z.number().nullish(),
  mean_score: z.number().nullish(),
  tokens: z.number().nullish(),
  cost_usd: z.number().nullish(),
  latency_p50_ms: z.number().nullish(),
  latency_p95_ms: z.number().nullish(),
});
export type RunSummary = z.infer<typeof RunSummarySchema>;

export const AssertionResultSchema = z.looseObject({
  type: z.string(),
  passed: z.boolean(),
  score: z.number().nullish(),
  reason: z.string().nullish(),
});
export type AssertionResult = z.infer<typeof AssertionResultSchema>;

export const CaseResultSchema = z.looseObject({
  case_id: z.string(),
  repetition: z.number().int().nonnegative().default(0),
  thread_id: z.string().nullish(),
  passed: z.boolean(),
  score: z.number().nullish(),
  assertions: z.array(AssertionResultSchema).default([]),
  turns: z.number().nullish(),
  tokens: z.number().nullish(),
  cost_usd: z.number().nullish(),
  latency_ms: z.number().nullish(),
  error: z.string().nullish(),
});
export type CaseResult = z.infer<typeof CaseResultSchema>;

export const RUN_STATUSES = ["running", "done", "failed", "cancelled"] as const;
export type EvalRunStatus = (typeof RUN_STATUSES)[number];

export const EvalRunSchema = z.looseObject({
  id: z.string(),
  suite_id: z.string().optional(),
  version: z.number().nullish(),
  status: z.enum(RUN_STATUSES),
  progress: z.looseObject({ done: z.number(), total: z.number() }).optional(),
  summary: RunSummarySchema.nullish(),
  results: z.array(CaseResultSchema).optional(),
  repetitions: z.number().optional(),
  created_at: z.union([z.number(), z.string()]).optional(),
  /** Why the run failed (status "failed"). */
  failure: z.string().nullish(),
});
export type EvalRun = z.infer<typeof EvalRunSchema>;

export const SuiteListEntrySchema = z.looseObject({
  id: z.string(),
  name: z.string(),
  agent_id: z.string(),
  cases: z.number(),
  last_run: EvalRunSchema.partial({ status: true }).nullish(),
});
export type SuiteListEntry = z.infer<typeof SuiteListEntrySchema>;

export const SuiteListSchema = z.object({ suites: z.array(SuiteListEntrySchema) });
export const SuiteAnswerSchema = z.object({ suite: EvalSuiteSchema });
export const CaseAnswerSchema = z.object({ case: EvalCaseSchema });
export const RunAnswerSchema = z.object({ run: EvalRunSchema });
/** `GET …/evals/:suiteId/runs`: the suite's runs, newest first, without their results. */
export const RunListSchema = z.object({ runs: z.array(EvalRunSchema) });

export const CHANGES = ["fixed", "regressed", "same"] as const;
export type CaseChange = (typeof CHANGES)[number];

const SideSchema = z.looseObject({ passed: z.boolean().nullish(), score: z.number().nullish() });
export const RunComparisonSchema = z.object({
  cases: z.array(
    z.looseObject({
      case_id: z.string(),
      name: z.string(),
      a: SideSchema.nullish(),
      b: SideSchema.nullish(),
      change: z.enum(CHANGES),
      /** The first repetition's threads, for the side-by-side diff. */
      a_thread_id: z.string().nullish(),
      b_thread_id: z.string().nullish(),
    }),
  ),
  summary: z.looseObject({ a: RunSummarySchema.nullish(), b: RunSummarySchema.nullish() }),
});
export type RunComparison = z.infer<typeof RunComparisonSchema>;

/** One SSE frame of `GET /api/eval-runs/:runId/events`, parsed; null for a frame the view ignores. */
export type RunEvent =
  | { kind: "progress"; done: number; total: number }
  | { kind: "result"; result: CaseResult }
  | { kind: "run"; run: EvalRun };

const ProgressSchema = z.looseObject({ done: z.number(), total: z.number() });

export function parseRunEvent(event: string, data: string): RunEvent | null {
  let payload: unknown;
  try {
    payload = JSON.parse(data);
  } catch {
    return null;
  }
  if (event === "progress") {
    const parsed = ProgressSchema.safeParse(payload);
    return parsed.success ? { kind: "progress", ...parsed.data } : null;
  }
  if (event === "result") {
    const parsed = CaseResultSchema.safeParse(payload);
    return parsed.success ? { kind: "result", result: parsed.data } : null;
  }
  if (event === "run") {
    // The run itself, or wrapped as `{ run }` like the JSON answers.
    const wrapped = RunAnswerSchema.safeParse(payload);
    if (wrapped.success) return { kind: "run", run: wrapped.data.run };
    const parsed = EvalRunSchema.safeParse(payload);
    return parsed.success ? { kind: "run", run: parsed.data } : null;
  }
  return null;
}

/** The case's simulated user, or null when its user side is fixed turns. */
export function simulatedUserOf(input: CaseInput): SimulatedUser | null {
  const parsed = SimulatedUserSchema.safeParse((input as { simulated_user?: unknown }).simulated_user);
  return parsed.success ? parsed.data : null;
}

/** The case's fixed user turns, or null when a simulated user plays the user side. */
export function fixedTurnsOf(input: CaseInput): string[] | null {
  const messages = (input as { messages?: unknown }).messages;
  return Array.isArray(messages) ? messages.filter((turn): turn is string => typeof turn === "string") : null;
}
