// Words for the eval view (pure): a case's user side, an assertion, a run's figures, and a case's
// results across repetitions. Every sentence here is one a person reads in a table cell.
import {
  type Assertion,
  type CaseResult,
  type EvalCase,
  type EvalRun,
  fixedTurnsOf,
  type RunSummary,
  simulatedUserOf,
} from "./eval-shapes";

const quote = (text: string, max = 60) => `“${text.length > max ? `${text.slice(0, max - 1)}…` : text}”`;

/** The case's user side in one line: its fixed turns, or the simulated user and its limits. */
export function describeUserSide(evalCase: EvalCase): string {
  const turns = fixedTurnsOf(evalCase.input);
  const user = simulatedUserOf(evalCase.input);
  if (turns) {
    if (turns.length === 0) return "No user turns yet";
    const first = quote(turns[0] ?? "");
    return turns.length === 1 ? `1 turn: ${first}` : `${turns.length} turns: ${first} …`;
  }
  if (user) {
    const limits = [
      user.max_turns ? `up to ${user.max_turns} turns` : null,
      user.stop ? `stops at ${quote(user.stop, 24)}` : null,
    ].filter(Boolean);
    return `Simulated user on ${user.model}${limits.length > 0 ? ` (${limits.join(", ")})` : ""}: ${quote(user.prompt, 48)}`;
  }
  return "Unknown user side";
}

export function isSimulated(evalCase: EvalCase): boolean {
  return simulatedUserOf(evalCase.input) !== null;
}

const targetText = (assertion: Assertion) =>
  assertion.target === "transcript" ? "the transcript" : "the final reply";

const range = (min: number | undefined, max: number | undefined, noun: string) => {
  if (min !== undefined && max !== undefined)
    return min === max ? `exactly ${min} ${noun}` : `${min}–${max} ${noun}`;
  if (max !== undefined) return `at most ${max} ${noun}`;
  return `at least ${min ?? 1} ${noun}`;
};

/** An assertion as a sentence: what must hold for the case to pass. */
export function describeAssertion(assertion: Assertion): string {
  const value = typeof assertion.value === "string" ? assertion.value : JSON.stringify(assertion.value ?? "");
  switch (assertion.type) {
    case "contains":
      return `${targetText(assertion)} contains ${quote(value)}`;
    case "not_contains":
      return `${targetText(assertion)} does not contain ${quote(value)}`;
    case "equals":
      return `${targetText(assertion)} equals ${quote(value)}`;
    case "regex":
      return `${targetText(assertion)} matches /${value}/`;
    case "tool_called": {
      const args =
        assertion.args && Object.keys(assertion.args).length > 0
          ? ` with ${JSON.stringify(assertion.args)}`
          : "";
      return `tool ${assertion.name ?? "?"} called ${range(assertion.min, assertion.max, "times")}${args}`;
    }
    case "subagent_spawned":
      return `subagent ${assertion.agent ?? "?"} spawned ${range(assertion.min, assertion.max, "times")}`;
    case "status":
      return `ends with status ${value}`;
    case "max_turns":
      return `at most ${value} turns`;
    case "max_tokens":
      return `at most ${value} tokens`;
    case "max_cost_usd":
      return `costs at most $${value}`;
    case "max_latency_ms":
      return `takes at most ${value} ms`;
    case "json_schema":
      return `${targetText(assertion)} matches a JSON schema`;
    case "judge":
      return `judge ${assertion.model ?? "?"} scores ≥ ${assertion.threshold ?? 0.7}: ${quote(assertion.rubric ?? "", 48)}`;
    case "code":
      return `code check ${assertion.module ?? "?"}`;
    default:
      return assertion.type;
  }
}

export function formatRate(rate: number | null | undefined): string {
  if (rate === null || rate === undefined || Number.isNaN(rate)) return "—";
  return `${Math.round(rate * 1000) / 10}%`;
}

export function formatScore(score: number | null | undefined): string {
  if (score === null || score === undefined || Number.isNaN(score)) return "—";
  return score.toFixed(2);
}

export function formatCost(cost: number | null | undefined): string {
  if (cost === null || cost === undefined) return "—";
  if (cost === 0) return "$0";
  return cost < 0.01 ? `$${cost.toFixed(4)}` : `$${cost.toFixed(2)}`;
}

export function formatMs(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return "—";
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
}

export function formatCount(count: number | null | undefined): string {
  if (count === null || count === undefined) return "—";
  return count.toLocaleString("en-US");
}

export function formatDelta(a: number | null | undefined, b: number | null | undefined): string {
  if (a === null || a === undefined || b === null || b === undefined) return "—";
  const delta = Math.round((b - a) * 100) / 100;
  if (delta === 0) return "±0";
  return delta > 0 ? `+${delta.toFixed(2)}` : delta.toFixed(2);
}

/** The summary's figures as labelled values, in the order the view shows them. */
export function summaryFigures(summary: RunSummary): { label: string; value: string; hint: string }[] {
  return [
    {
      label: "Pass rate",
      value: formatRate(summary.pass_rate),
      hint: `${summary.passed} of ${summary.cases} case runs passed`,
    },
    {
      label: "pass^k",
      value: formatRate(summary.pass_all_repetitions),
      hint: "cases that passed every repetition",
    },
    { label: "Mean score", value: formatScore(summary.mean_score), hint: "mean of the cases' scores (0–1)" },
    { label: "Tokens", value: formatCount(summary.tokens), hint: "input and output tokens of every call" },
    { label: "Cost", value: formatCost(summary.cost_usd), hint: "estimated from the models' prices" },
    {
      label: "Latency p50 / p95",
      value: `${formatMs(summary.latency_p50_ms)} / ${formatMs(summary.latency_p95_ms)}`,
      hint: "per case, from first message to the end",
    },
  ];
}

export interface CaseOutcome {
  caseId: string;
  results: CaseResult[];
  passed: number;
  /** Every repetition passed (pass^k for this case). */
  passedAll: boolean;
  meanScore: number | null;
}

/** A run's results grouped by case (repetitions in order), in the order the cases first appear. */
export function outcomesByCase(results: readonly CaseResult[]): Map<string, CaseOutcome> {
  const outcomes = new Map<string, CaseOutcome>();
  for (const result of results) {
    const outcome = outcomes.get(result.case_id) ?? {
      caseId: result.case_id,
      results: [],
      passed: 0,
      passedAll: true,
      meanScore: null,
    };
    outcome.results.push(result);
    outcomes.set(result.case_id, outcome);
  }
  for (const outcome of outcomes.values()) {
    outcome.results.sort((a, b) => a.repetition - b.repetition);
    outcome.passed = outcome.results.filter((result) => result.passed).length;
    outcome.passedAll = outcome.passed === outcome.results.length;
    const scores = outcome.results.map((result) => result.score).filter((score) => typeof score === "number");
    outcome.meanScore =
      scores.length > 0 ? scores.reduce((sum, score) => sum + score, 0) / scores.length : null;
  }
  return outcomes;
}

/** Adds a streamed result to a run's results, replacing one for the same case and repetition. */
export function withResult(results: readonly CaseResult[], result: CaseResult): CaseResult[] {
  const others = results.filter(
    (existing) => !(existing.case_id === result.case_id && existing.repetition === result.repetition),
  );
  return [...others, result];
}

export function progressText(run: Pick<EvalRun, "status" | "progress">): string {
  const done = run.progress?.done ?? 0;
  const total = run.progress?.total ?? 0;
  const counted = total > 0 ? `${done} of ${total} case runs` : "starting";
  switch (run.status) {
    case "running":
      return `Running: ${counted}`;
    case "done":
      return `Finished: ${counted}`;
    case "cancelled":
      return `Cancelled after ${counted}`;
    case "failed":
      return `Failed after ${counted}`;
  }
}
