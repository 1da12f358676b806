// Checks one case's outcome against its assertions (API.md "Evaluations"; docs/evals.md
// "Assertions"). Pure but for the judge and code checks, which the runner hands in: every assertion
// answers `{ type, passed, score, reason }`, and a failed one says in words why.
import type { Assertion, AssertionResult } from "@/lib/contracts/evals";
import { checkJsonSchema, formatSchemaIssues } from "../tools/json-schema-check";

/** What a case's conversation left, as the assertions see it. */
export interface CaseOutcome {
  /** The root's last visible assistant reply ("" when it never replied). */
  finalReply: string;
  /** Every visible message of the root, one per line: `role: content`. */
  transcript: string;
  /** Tool calls made anywhere in the tree, in order. */
  toolCalls: { name: string; args: unknown; thread_id: string }[];
  /** Agents of the subagents spawned anywhere in the tree. */
  subagents: string[];
  /** The root thread's status at the end. */
  status: string;
  turns: number;
  tokens: number;
  costUsd: number;
  latencyMs: number;
}

export interface JudgeVerdict {
  score: number;
  reason: string;
}

export interface AssertionTools {
  /** Asks a project model to grade the transcript; answers its raw reply text. */
  judge(model: string, rubric: string, outcome: CaseOutcome): Promise<string>;
  /** Runs `extensions/evals/<module>.ts` on the outcome. */
  code(module: string, outcome: CaseOutcome): Promise<{ passed: boolean; score?: number; reason?: string }>;
}

const excerpt = (text: string, max = 120) => {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
};

const pass = (type: Assertion["type"], reason: string, score = 1): AssertionResult => ({
  type,
  passed: true,
  score,
  reason,
});
const fail = (type: Assertion["type"], reason: string, score = 0): AssertionResult => ({
  type,
  passed: false,
  score,
  reason,
});

/** Does `actual` contain everything `expected` names (objects by key, arrays item by item, the rest equal)? */
export function partialMatch(expected: unknown, actual: unknown): boolean {
  if (expected === null || typeof expected !== "object")
    return Object.is(expected, actual) || expected === actual;
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual) || actual.length < expected.length) return false;
    return expected.every((item, index) => partialMatch(item, actual[index]));
  }
  if (actual === null || typeof actual !== "object" || Array.isArray(actual)) return false;
  return Object.entries(expected as Record<string, unknown>).every(([key, value]) =>
    partialMatch(value, (actual as Record<string, unknown>)[key]),
  );
}

/**
 * A judge's reply as `{ score, reason }`: JSON, alone or in a fenced block, or the first `{…}` in
 * the text; null (with why) when none parses or the score is not a number in 0..1.
 */
export function parseJudgeReply(text: string): JudgeVerdict | { error: string } {
  const candidates: string[] = [];
  const fenced = /```(?:json)?\s*([\s\S]*?)```/i.exec(text);
  if (fenced?.[1]) candidates.push(fenced[1]);
  candidates.push(text);
  const braces = /\{[\s\S]*\}/.exec(text);
  if (braces) candidates.push(braces[0]);
  for (const candidate of candidates) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(candidate.trim());
    } catch {
      continue;
    }
    if (!parsed || typeof parsed !== "object") continue;
    const { score, reason } = parsed as { score?: unknown; reason?: unknown };
    const value = typeof score === "string" ? Number(score) : score;
    if (typeof value !== "number" || !Number.isFinite(value) || value < 0 || value > 1)
      return { error: `the judge's score is not a number from 0 to 1 (${JSON.stringify(score)})` };
    return { score: value, reason: typeof reason === "string" ? reason : "" };
  }
  return { error: `the judge's reply is not JSON { "score", "reason" }: "${excerpt(text)}"` };
}

function textOf(assertion: { target?: "final_reply" | "transcript" | undefined }, outcome: CaseOutcome) {
  return assertion.target === "transcript"
    ? { text: outcome.transcript, where: "the transcript" }
    : { text: outcome.finalReply, where: "the final reply" };
}

function countCheck(count: number, min: number | undefined, max: number | undefined): string | null {
  const lower = min ?? 1;
  if (count < lower) return `at least ${lower}`;
  if (max !== undefined && count > max) return `at most ${max}`;
  return null;
}

export async function checkAssertion(
  assertion: Assertion,
  outcome: CaseOutcome,
  tools: AssertionTools,
): Promise<AssertionResult> {
  switch (assertion.type) {
    case "contains":
    case "not_contains":
    case "equals": {
      const { text, where } = textOf(assertion, outcome);
      const value = assertion.value;
      if (assertion.type === "equals") {
        return text.trim() === value.trim()
          ? pass("equals", `${where} equals "${excerpt(value)}"`)
          : fail("equals", `${where} is "${excerpt(text)}", not "${excerpt(value)}"`);
      }
      const found = text.includes(value);
      if (assertion.type === "contains")
        return found
          ? pass("contains", `${where} contains "${excerpt(value)}"`)
          : fail("contains", `${where} does not contain "${excerpt(value)}" (it is "${excerpt(text)}")`);
      return found
        ? fail("not_contains", `${where} contains "${excerpt(value)}", which it must not`)
        : pass("not_contains", `${where} does not contain "${excerpt(value)}"`);
    }
    case "regex": {
      const { text, where } = textOf(assertion, outcome);
      let pattern: RegExp;
      try {
        pattern = new RegExp(assertion.value);
      } catch (error) {
        return fail(
          "regex",
          `/${assertion.value}/ is not a valid regular expression: ${(error as Error).message}`,
        );
      }
      return pattern.test(text)
        ? pass("regex", `${where} matches /${assertion.value}/`)
        : fail("regex", `${where} does not match /${assertion.value}/ (it is "${excerpt(text)}")`);
    }
    case "tool_called": {
      const named = outcome.toolCalls.filter((call) => call.name === assertion.name);
      const matching = assertion.args
        ? named.filter((call) => partialMatch(assertion.args, call.args))
        : named;
      const wanted = countCheck(matching.length, assertion.min, assertion.max);
      const withArgs = assertion.args ? ` with arguments matching ${JSON.stringify(assertion.args)}` : "";
      if (wanted === null)
        return pass("tool_called", `${assertion.name} was called ${matching.length} time(s)${withArgs}`);
      const others =
        assertion.args && named.length > matching.length
          ? `; its calls had ${named
              .slice(0, 3)
              .map((call) => JSON.stringify(call.args))
              .join(", ")}`
          : "";
      return fail(
        "tool_called",
        `${assertion.name} was called ${matching.length} time(s)${withArgs}, expected ${wanted}${others}`,
      );
    }
    case "subagent_spawned": {
      const spawned = outcome.subagents.filter((agent) => agent === assertion.agent).length;
      const wanted = countCheck(spawned, assertion.min, assertion.max);
      if (wanted === null)
        return pass("subagent_spawned", `${assertion.agent} was spawned ${spawned} time(s)`);
      const seen =
        outcome.subagents.length > 0 ? ` (spawned: ${[...new Set(outcome.subagents)].join(", ")})` : "";
      return fail(
        "subagent_spawned",
        `${assertion.agent} was spawned ${spawned} time(s) anywhere in the tree, expected ${wanted}${seen}`,
      );
    }
    case "status":
      return outcome.status === assertion.value
        ? pass("status", `the thread ended ${outcome.status}`)
        : fail("status", `the thread ended ${outcome.status}, expected ${assertion.value}`);
    case "max_turns":
    case "max_tokens":
    case "max_cost_usd":
    case "max_latency_ms": {
      const [actual, unit] =
        assertion.type === "max_turns"
          ? [outcome.turns, "turns"]
          : assertion.type === "max_tokens"
            ? [outcome.tokens, "tokens"]
            : assertion.type === "max_cost_usd"
              ? [outcome.costUsd, "USD"]
              : [outcome.latencyMs, "ms"];
      return actual <= assertion.value
        ? pass(assertion.type, `${actual} ${unit} ≤ ${assertion.value}`)
        : fail(assertion.type, `${actual} ${unit}, over the limit of ${assertion.value}`);
    }
    case "json_schema": {
      const { text, where } = textOf(assertion, outcome);
      const candidate = /```(?:json)?\s*([\s\S]*?)```/i.exec(text)?.[1] ?? text;
      let value: unknown;
      try {
        value = JSON.parse(candidate.trim());
      } catch {
        return fail("json_schema", `${where} is not JSON: "${excerpt(text)}"`);
      }
      const issues = checkJsonSchema(assertion.schema, value);
      return issues.length === 0
        ? pass("json_schema", `${where} matches the schema`)
        : fail("json_schema", `${where} does not match the schema: ${formatSchemaIssues(issues)}`);
    }
    case "judge": {
      const threshold = assertion.threshold ?? 0.7;
      let reply: string;
      try {
        reply = await tools.judge(assertion.model, assertion.rubric, outcome);
      } catch (error) {
        return fail("judge", `the judge model ${assertion.model} failed: ${(error as Error).message}`);
      }
      const verdict = parseJudgeReply(reply);
      if ("error" in verdict) return fail("judge", verdict.error);
      const why = verdict.reason ? `: ${verdict.reason}` : "";
      return verdict.score >= threshold
        ? pass("judge", `score ${verdict.score} ≥ ${threshold}${why}`, verdict.score)
        : fail("judge", `score ${verdict.score} < ${threshold}${why}`, verdict.score);
    }
    case "code": {
      try {
        const verdict = await tools.code(assertion.module, outcome);
        const score = verdict.score ?? (verdict.passed ? 1 : 0);
        const reason =
          verdict.reason ?? (verdict.passed ? `${assertion.module} passed` : `${assertion.module} failed`);
        return verdict.passed ? pass("code", reason, score) : fail("code", reason, score);
      } catch (error) {
        return fail("code", `the check ${assertion.module} threw: ${(error as Error).message}`);
      }
    }
  }
}

export async function checkAssertions(
  assertions: readonly Assertion[],
  outcome: CaseOutcome,
  tools: AssertionTools,
): Promise<{ passed: boolean; score: number; assertions: AssertionResult[] }> {
  const results: AssertionResult[] = [];
  for (const assertion of assertions) results.push(await checkAssertion(assertion, outcome, tools));
  const passed = results.every((result) => result.passed);
  const score =
    results.length === 0 ? 1 : results.reduce((sum, result) => sum + result.score, 0) / results.length;
  return { passed, score, assertions: results };
}

/** The nearest-rank percentile of `values` (0 when empty). */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((left, right) => left - right);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank]!;
}
