import { describe, expect, it } from "vitest";
import { caseToJson, newCase, parseCaseJson } from "./case-json";
import {
  describeAssertion,
  describeUserSide,
  formatDelta,
  formatRate,
  outcomesByCase,
  progressText,
  withResult,
} from "./describe";
import { type CaseResult, parseRunEvent } from "./eval-shapes";
import { passRateByVersion, rememberRun, runEntry } from "./run-history";
import { definitionNames, starterSuitesFor } from "./starter-suites";

const result = (case_id: string, repetition: number, passed: boolean, score?: number): CaseResult => ({
  case_id,
  repetition,
  passed,
  score,
  assertions: [],
});

describe("eval words", () => {
  it("says a case's user side: fixed turns or a simulated user with its limits", () => {
    expect(describeUserSide({ name: "a", input: { messages: ["I want my money back", "1234"] } })).toBe(
      "2 turns: “I want my money back” …",
    );
    expect(describeUserSide({ name: "a", input: { messages: ["Hi"] } })).toBe("1 turn: “Hi”");
    expect(describeUserSide({ name: "a", input: { messages: [] } })).toBe("No user turns yet");
    expect(
      describeUserSide({
        name: "a",
        input: { simulated_user: { prompt: "You are angry", model: "sim", max_turns: 4, stop: "bye" } },
      }),
    ).toBe("Simulated user on sim (up to 4 turns, stops at “bye”): “You are angry”");
  });

  it("says what each assertion checks", () => {
    expect(describeAssertion({ type: "contains", value: "refund" })).toBe(
      "the final reply contains “refund”",
    );
    expect(describeAssertion({ type: "not_contains", value: "x", target: "transcript" })).toBe(
      "the transcript does not contain “x”",
    );
    expect(describeAssertion({ type: "tool_called", name: "lookup", args: { id: 1 }, min: 1, max: 3 })).toBe(
      'tool lookup called 1–3 times with {"id":1}',
    );
    expect(describeAssertion({ type: "subagent_spawned", agent: "worker", min: 2 })).toBe(
      "subagent worker spawned at least 2 times",
    );
    expect(describeAssertion({ type: "max_turns", value: 5 })).toBe("at most 5 turns");
    expect(describeAssertion({ type: "judge", model: "j", rubric: "polite", threshold: 0.8 })).toBe(
      "judge j scores ≥ 0.8: “polite”",
    );
    expect(describeAssertion({ type: "code", module: "refund_check" })).toBe("code check refund_check");
  });

  it("formats rates and deltas", () => {
    expect(formatRate(0.855)).toBe("85.5%");
    expect(formatRate(null)).toBe("—");
    expect(formatDelta(0.5, 0.75)).toBe("+0.25");
    expect(formatDelta(0.75, 0.5)).toBe("-0.25");
    expect(formatDelta(1, 1)).toBe("±0");
    expect(formatDelta(null, 1)).toBe("—");
  });

  it("groups repetitions per case: pass^k only when every repetition passed", () => {
    const outcomes = outcomesByCase([
      result("a", 1, false, 0),
      result("a", 0, true, 1),
      result("b", 0, true, 0.5),
    ]);
    expect(outcomes.get("a")).toMatchObject({ passed: 1, passedAll: false, meanScore: 0.5 });
    expect(outcomes.get("a")?.results.map((r) => r.repetition)).toEqual([0, 1]);
    expect(outcomes.get("b")).toMatchObject({ passed: 1, passedAll: true, meanScore: 0.5 });
  });

  it("replaces a streamed result for the same case and repetition", () => {
    const results = withResult([result("a", 0, false)], result("a", 0, true));
    expect(results).toHaveLength(1);
    expect(results[0]?.passed).toBe(true);
    expect(withResult(results, result("a", 1, true))).toHaveLength(2);
  });

  it("says the progress of a run in each status", () => {
    expect(progressText({ status: "running", progress: { done: 3, total: 10 } })).toBe(
      "Running: 3 of 10 case runs",
    );
    expect(progressText({ status: "cancelled", progress: { done: 3, total: 10 } })).toBe(
      "Cancelled after 3 of 10 case runs",
    );
    expect(progressText({ status: "running" })).toBe("Running: starting");
  });
});

describe("run events", () => {
  it("reads progress, results and the run (bare or wrapped) and ignores the rest", () => {
    expect(parseRunEvent("progress", '{"done":1,"total":4}')).toEqual({
      kind: "progress",
      done: 1,
      total: 4,
    });
    expect(parseRunEvent("result", JSON.stringify(result("c", 0, true)))).toMatchObject({
      kind: "result",
      result: { case_id: "c", passed: true },
    });
    expect(parseRunEvent("run", '{"id":"r","status":"done"}')).toMatchObject({
      kind: "run",
      run: { id: "r" },
    });
    expect(parseRunEvent("run", '{"run":{"id":"r","status":"cancelled"}}')).toMatchObject({
      kind: "run",
      run: { status: "cancelled" },
    });
    expect(parseRunEvent("progress", "not json")).toBeNull();
    expect(parseRunEvent("ping", "{}")).toBeNull();
  });
});

describe("case JSON", () => {
  it("round-trips a case without its id and names the field that is wrong", () => {
    const text = caseToJson({ id: "x", name: "one", input: { messages: ["hi"] }, assertions: [] });
    expect(JSON.parse(text)).toEqual({ name: "one", input: { messages: ["hi"] }, assertions: [] });
    expect(parseCaseJson(text)).toMatchObject({ ok: true, value: { name: "one" } });
    expect(parseCaseJson("{")).toMatchObject({ ok: false, message: expect.stringMatching(/^Not JSON/) });
    expect(parseCaseJson("[]")).toMatchObject({ ok: false });
    expect(parseCaseJson('{"input":{"messages":[]}}')).toMatchObject({
      ok: false,
      message: expect.stringMatching(/^name/),
    });
    expect(parseCaseJson('{"name":"a","input":{}}')).toMatchObject({
      ok: false,
      message: expect.stringMatching(/^input/),
    });
  });

  it("names a new case after the ones there are", () => {
    expect(newCase([]).name).toBe("case 1");
    expect(newCase(["case 2"]).name).toBe("case 3");
  });
});

describe("run history", () => {
  it("keeps the newest first, replaces a run seen again and caps the list", () => {
    let history = rememberRun([], { id: "a", version: 1, status: "running", pass_rate: null, started_at: 1 });
    history = rememberRun(history, { id: "b", version: 2, status: "done", pass_rate: 0.5, started_at: 2 });
    history = rememberRun(history, { id: "a", version: 1, status: "done", pass_rate: 1, started_at: 9 });
    expect(history.map((run) => [run.id, run.status, run.started_at])).toEqual([
      ["b", "done", 2],
      ["a", "done", 1],
    ]);
    for (let index = 0; index < 140; index += 1)
      history = rememberRun(history, {
        id: `r${index}`,
        version: 3,
        status: "done",
        pass_rate: 1,
        started_at: 10 + index,
      });
    expect(history).toHaveLength(100);
    expect(history[0]?.id).toBe("r139");
  });

  it("makes an entry of a listed run: its start in milliseconds, no pass rate while it runs", () => {
    expect(
      runEntry({ id: "r", status: "running", version: 4, summary: null, created_at: 1_700_000_000_123_456 }),
    ).toEqual({ id: "r", version: 4, status: "running", pass_rate: null, started_at: 1_700_000_000_123 });
    const summary = {
      cases: 4,
      passed: 3,
      pass_rate: 0.75,
      pass_all_repetitions: 0.75,
      mean_score: 0.8,
      tokens: 10,
      cost_usd: 0,
      latency_p50_ms: 1,
      latency_p95_ms: 2,
    };
    expect(runEntry({ id: "s", status: "done", version: null, summary, created_at: 2_000 })).toEqual({
      id: "s",
      version: null,
      status: "done",
      pass_rate: 0.75,
      started_at: 2,
    });
  });

  it("charts the latest finished run of each version, in version order", () => {
    const points = passRateByVersion([
      { id: "c", version: 2, status: "done", pass_rate: 0.5, started_at: 3 },
      { id: "b", version: 1, status: "done", pass_rate: 1, started_at: 2 },
      { id: "a", version: 1, status: "done", pass_rate: 0.2, started_at: 1 },
      { id: "d", version: 3, status: "running", pass_rate: null, started_at: 4 },
    ]);
    expect(points).toEqual([
      { version: 1, passRate: 1, runId: "b" },
      { version: 2, passRate: 0.5, runId: "c" },
    ]);
  });
});

describe("starter suites", () => {
  const templates = [
    {
      label: "T",
      evalSuites: () => [
        {
          name: "s",
          agent_id: "support",
          assertions: [{ type: "judge", model: "judge_model", rubric: "r" }],
          cases: [{ name: "c", input: { simulated_user: { prompt: "p", model: "sim" } } }],
        },
      ],
    },
  ];
  it("offers a template's suite only when the project has its agent and every model it names", () => {
    const names = definitionNames({
      agents: [{ name: "support" }],
      models: [{ name: "sim" }, { name: "judge_model" }, 3],
    });
    expect(names).toEqual({ agents: ["support"], models: ["judge_model", "sim"] });
    expect(starterSuitesFor(templates, names).map((entry) => entry.suite.name)).toEqual(["s"]);
    expect(starterSuitesFor(templates, { ...names, models: ["sim"] })).toEqual([]);
    expect(starterSuitesFor(templates, { agents: [], models: names.models })).toEqual([]);
    expect(definitionNames(null)).toEqual({ agents: [], models: [] });
  });
});
