// Every assertion type of API.md "Evaluations": each passes on the right outcome and fails, saying
// why in words, on a wrong one.
import { describe, expect, it } from "vitest";
import { type Assertion, AssertionSchema } from "@/lib/contracts/evals";
import {
  type AssertionTools,
  type CaseOutcome,
  checkAssertion,
  checkAssertions,
  parseJudgeReply,
  partialMatch,
  percentile,
} from "./eval-assertions";

const good: CaseOutcome = {
  finalReply: 'Refund issued for order A-1234. {"ok": true}',
  transcript:
    "user: I want my money back\nassistant: Which order?\nuser: A-1234\nassistant: Refund issued for order A-1234.",
  toolCalls: [
    { name: "lookup_order", args: { orderId: "A-1234", options: { verbose: true } }, thread_id: "root" },
    { name: "refund", args: { amount: 10 }, thread_id: "child" },
  ],
  subagents: ["refund_worker"],
  status: "idle",
  turns: 2,
  tokens: 800,
  costUsd: 0.002,
  latencyMs: 900,
};

const bad: CaseOutcome = {
  finalReply: "I cannot help with that.",
  transcript: "user: I want my money back\nassistant: I cannot help with that.",
  toolCalls: [{ name: "lookup_order", args: { orderId: "B-1" }, thread_id: "root" }],
  subagents: [],
  status: "failed",
  turns: 6,
  tokens: 5000,
  costUsd: 0.5,
  latencyMs: 12_000,
};

const tools = (judgeReply = '{"score": 0.9, "reason": "polite"}'): AssertionTools => ({
  judge: async () => judgeReply,
  code: async (_module, outcome) =>
    outcome.finalReply.includes("A-1234")
      ? { passed: true, reason: "names the order" }
      : { passed: false, reason: "does not name the order" },
});

async function both(assertion: Assertion, judgeReply?: string) {
  const parsed = AssertionSchema.parse(assertion);
  return {
    right: await checkAssertion(parsed, good, tools(judgeReply)),
    wrong: await checkAssertion(parsed, bad, tools(judgeReply)),
  };
}

describe("assertions", () => {
  it.each<[string, Assertion, string]>([
    ["contains (final reply)", { type: "contains", value: "A-1234" }, 'does not contain "A-1234"'],
    [
      "contains (transcript)",
      { type: "contains", value: "Which order?", target: "transcript" },
      "the transcript does not contain",
    ],
    ["not_contains", { type: "not_contains", value: "cannot" }, 'contains "cannot", which it must not'],
    [
      "equals",
      { type: "equals", value: 'Refund issued for order A-1234. {"ok": true}' },
      'the final reply is "I cannot help',
    ],
    ["regex", { type: "regex", value: "order A-\\d{4}" }, "does not match /order A-\\d{4}/"],
    [
      "tool_called (partial args)",
      { type: "tool_called", name: "lookup_order", args: { options: { verbose: true } } },
      "lookup_order was called 0 time(s) with arguments matching",
    ],
    [
      "tool_called anywhere in the tree",
      { type: "tool_called", name: "refund", min: 1, max: 1 },
      "refund was called 0 time(s), expected at least 1",
    ],
    [
      "subagent_spawned",
      { type: "subagent_spawned", agent: "refund_worker", min: 1 },
      "refund_worker was spawned 0 time(s) anywhere in the tree",
    ],
    ["status", { type: "status", value: "idle" }, "the thread ended failed, expected idle"],
    ["max_turns", { type: "max_turns", value: 3 }, "6 turns, over the limit of 3"],
    ["max_tokens", { type: "max_tokens", value: 1000 }, "5000 tokens, over the limit of 1000"],
    ["max_cost_usd", { type: "max_cost_usd", value: 0.01 }, "0.5 USD, over the limit of 0.01"],
    ["max_latency_ms", { type: "max_latency_ms", value: 5000 }, "12000 ms, over the limit of 5000"],
    ["code", { type: "code", module: "mentions_order" }, "does not name the order"],
  ])(
    "%s passes on the right outcome and says why it fails on a wrong one",
    async (_name, assertion, reason) => {
      const { right, wrong } = await both(assertion);
      expect(right).toMatchObject({ type: assertion.type, passed: true, score: 1 });
      expect(wrong).toMatchObject({ type: assertion.type, passed: false, score: 0 });
      expect(wrong.reason).toContain(reason);
    },
  );

  it("tool_called counts against max", async () => {
    const twice = { ...good, toolCalls: [...good.toolCalls, ...good.toolCalls] };
    const result = await checkAssertion({ type: "tool_called", name: "refund", max: 1 }, twice, tools());
    expect(result).toMatchObject({
      passed: false,
      reason: "refund was called 2 time(s), expected at most 1",
    });
  });

  it("json_schema checks the reply as JSON (or a fenced block) against the schema", async () => {
    const schema = { type: "object", required: ["ok"], properties: { ok: { type: "boolean" } } };
    const fenced = { ...good, finalReply: 'Here:\n```json\n{"ok": true}\n```' };
    expect(await checkAssertion({ type: "json_schema", schema }, fenced, tools())).toMatchObject({
      passed: true,
    });
    const wrongShape = { ...good, finalReply: '{"ok": "yes"}' };
    const shape = await checkAssertion({ type: "json_schema", schema }, wrongShape, tools());
    expect(shape.passed).toBe(false);
    expect(shape.reason).toContain("does not match the schema");
    const notJson = await checkAssertion({ type: "json_schema", schema }, bad, tools());
    expect(notJson).toMatchObject({
      passed: false,
      reason: 'the final reply is not JSON: "I cannot help with that."',
    });
  });

  it("judge passes at or over its threshold, fails under it, and fails an unparsable reply with that reason", async () => {
    const judge: Assertion = { type: "judge", model: "judge", rubric: "polite?", threshold: 0.8 };
    expect((await both(judge)).right).toMatchObject({
      passed: true,
      score: 0.9,
      reason: "score 0.9 ≥ 0.8: polite",
    });
    const low = await both(judge, '```json\n{"score": 0.3, "reason": "rude"}\n```');
    expect(low.wrong).toMatchObject({ passed: false, score: 0.3, reason: "score 0.3 < 0.8: rude" });
    const garbage = await both(judge, "I think it was fine");
    expect(garbage.right.passed).toBe(false);
    expect(garbage.right.reason).toContain("not JSON");
    const outOfRange = await both(judge, '{"score": 7}');
    expect(outOfRange.right.reason).toContain("not a number from 0 to 1");
    const failing: AssertionTools = {
      ...tools(),
      judge: async () => Promise.reject(new Error("provider down")),
    };
    expect((await checkAssertion(judge, good, failing)).reason).toBe(
      "the judge model judge failed: provider down",
    );
  });

  it("a code check that throws fails with the error", async () => {
    const throwing: AssertionTools = { ...tools(), code: async () => Promise.reject(new Error("boom")) };
    expect(await checkAssertion({ type: "code", module: "x" }, good, throwing)).toMatchObject({
      passed: false,
      reason: "the check x threw: boom",
    });
  });

  it("a case passes only when every assertion passes; its score is their mean", async () => {
    const verdict = await checkAssertions(
      [
        { type: "contains", value: "A-1234" },
        { type: "judge", model: "j", rubric: "r", threshold: 0.5 },
      ],
      good,
      tools('{"score": 0.6, "reason": "ok"}'),
    );
    expect(verdict).toMatchObject({ passed: true, score: 0.8 });
    const failing = await checkAssertions([{ type: "contains", value: "A-1234" }], bad, tools());
    expect(failing).toMatchObject({ passed: false, score: 0 });
  });

  it("refuses a bad regex and an unknown type when a suite is parsed, naming the field", () => {
    const regex = AssertionSchema.safeParse({ type: "regex", value: "([" });
    expect(regex.success).toBe(false);
    expect(regex.error?.issues[0]?.path).toEqual(["value"]);
    const unknown = AssertionSchema.safeParse({ type: "vibes" });
    expect(unknown.error?.issues[0]?.message).toContain("type must be one of");
  });
});

describe("helpers", () => {
  it("partialMatch compares objects by the keys expected, arrays item by item", () => {
    expect(partialMatch({ a: 1 }, { a: 1, b: 2 })).toBe(true);
    expect(partialMatch({ a: { b: [1] } }, { a: { b: [1, 2], c: 3 } })).toBe(true);
    expect(partialMatch({ a: 2 }, { a: 1 })).toBe(false);
    expect(partialMatch({ a: 1 }, "a")).toBe(false);
  });

  it("parseJudgeReply reads bare, fenced and embedded JSON", () => {
    expect(parseJudgeReply('{"score": 1, "reason": "r"}')).toEqual({ score: 1, reason: "r" });
    expect(parseJudgeReply('Verdict: {"score": 0.5, "reason": "meh"} done')).toEqual({
      score: 0.5,
      reason: "meh",
    });
    expect(parseJudgeReply("nope")).toHaveProperty("error");
  });

  it("percentile is nearest-rank", () => {
    expect(percentile([], 50)).toBe(0);
    expect(percentile([3, 1, 2], 50)).toBe(2);
    expect(percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 100], 95)).toBe(100);
  });
});
