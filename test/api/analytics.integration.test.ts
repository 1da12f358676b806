// GET /api/projects/:id/analytics (../shared/API.md "Traces out"; docs/observability.md "Dashboard"):
// a project whose threads ran on scripted models (deterministic tokens and a price table) answers its
// runs, model calls, tokens, cost, errors and latencies per bucket and by agent, model and tool —
// the same figures the threads' own logs hold; bucket boundaries (from inclusive, to exclusive, UTC
// hours and days); with include=outcomes, how runs ended; bad parameters answer 400 naming the parameter; an unknown project 404.
import { beforeAll, describe, expect, it } from "vitest";
import type { EvalPassRates, ProjectAnalytics, ProjectOutcomes } from "@/lib/contracts/analytics";
import type { EvalRun, EvalSuite } from "@/lib/contracts/evals";
import { testServerForFile } from "../support/fixture";
import { threadHelpers } from "../support/thread-helpers";

const fixture = testServerForFile();
const { projectWith, startThread, waitFor } = threadHelpers(fixture);
const api = fixture.api;

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

const WRITE_FILE = {
  name: "write_file",
  kind: "builtin",
  builtin: "fs_write",
  description: "Write a file to this thread's filesystem.",
};

/** `assistant` writes a file then answers (two calls on `demo`, priced); `failing`'s model always errors. */
const bundle = {
  agents: [
    { name: "assistant", type: "ai_human", sideA: { prompt: "assistant_chat" } },
    { name: "failing", type: "ai_human", sideA: { prompt: "failing_chat" } },
  ],
  prompts: [
    {
      name: "assistant_chat",
      toolDescription: "c",
      prompt: "Be brief.",
      model: "demo",
      includeChat: true,
      tools: ["write_file"],
    },
    { name: "failing_chat", toolDescription: "f", prompt: "Fail.", model: "broken", includeChat: true },
  ],
  models: [
    {
      name: "demo",
      provider: "scripted",
      model: "s",
      inputPrice: 3,
      outputPrice: 15,
      script: [
        { toolCalls: [{ name: "write_file", args: { path: "/note.md", content: "{{input}}" } }] },
        { text: "Saved: {{input}}" },
      ],
    },
    { name: "broken", provider: "scripted", model: "s", script: [{ error: "boom: the provider fell over" }] },
  ],
  tools: [WRITE_FILE],
};

type Logs = {
  model_calls: {
    input_tokens: number;
    output_tokens: number;
    cost_usd: number;
    latency_ms: number;
    created_at: number;
    error: string | null;
  }[];
  tool_calls: { name: string; status: string }[];
};

let projectId: string;
let calls: Logs["model_calls"];
let tools: Logs["tool_calls"];
let startedAt: number;

/** Postgres's percentile_cont over the values (linear interpolation), rounded like the service. */
function percentile(values: number[], fraction: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const position = fraction * (sorted.length - 1);
  const low = Math.floor(position);
  const high = Math.ceil(position);
  const lowValue = sorted[low] ?? 0;
  const value = lowValue + ((sorted[high] ?? 0) - lowValue) * (position - low);
  return Math.round(value * 10) / 10;
}

const analytics = (query: string, id = projectId) =>
  api<ProjectAnalytics & { error?: string; code?: string }>("GET", `/api/projects/${id}/analytics${query}`);

beforeAll(async () => {
  startedAt = Date.now();
  projectId = await projectWith(bundle);
  const threads = await Promise.all([
    startThread(projectId, "assistant", "one"),
    startThread(projectId, "assistant", "two"),
    startThread(projectId, "failing", "three"),
  ]);
  await Promise.all([
    waitFor(threads[0], ["idle"]),
    waitFor(threads[1], ["idle"]),
    waitFor(threads[2], ["failed"], 30_000),
  ]);
  calls = [];
  tools = [];
  for (const id of threads) {
    const logs = await api<Logs>("GET", `/api/threads/${id}/logs`);
    calls.push(...logs.body.model_calls);
    tools.push(...logs.body.tool_calls);
  }
}, 60_000);

describe("GET /api/projects/:id/analytics", () => {
  it("answers the logs' figures by agent, model and tool, and per hour", async () => {
    const response = await analytics("");
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    const body = response.body;
    expect(Object.keys(body).sort()).toEqual(["by_agent", "by_model", "by_tool", "series"]);

    const ok = calls.filter((call) => call.error === null);
    const failed = calls.filter((call) => call.error !== null);
    expect(ok).toHaveLength(4);
    expect(failed).toHaveLength(1);
    const sum = (list: typeof calls, key: "input_tokens" | "output_tokens" | "cost_usd") =>
      list.reduce((total, call) => total + Number(call[key]), 0);
    expect(sum(ok, "input_tokens")).toBeGreaterThan(0);
    expect(sum(ok, "cost_usd")).toBeGreaterThan(0);

    expect(body.by_model).toEqual([
      {
        model: "demo",
        model_calls: 4,
        input_tokens: sum(ok, "input_tokens"),
        output_tokens: sum(ok, "output_tokens"),
        cost_usd: expect.closeTo(sum(ok, "cost_usd"), 9),
        errors: 0,
        latency_p50_ms: percentile(
          ok.map((call) => Number(call.latency_ms)),
          0.5,
        ),
        latency_p95_ms: percentile(
          ok.map((call) => Number(call.latency_ms)),
          0.95,
        ),
      },
      {
        model: "broken",
        model_calls: 1,
        input_tokens: 0,
        output_tokens: 0,
        cost_usd: 0,
        errors: 1,
        // Its retries' back-off makes it slower than 256 ms: read from 1 % bins (within 0.5 %).
        latency_p50_ms: expect.any(Number),
        latency_p95_ms: expect.any(Number),
      },
    ]);
    const failedMs = Number(failed[0]?.latency_ms);
    const broken = body.by_model[1];
    expect(Math.abs((broken?.latency_p50_ms ?? 0) - failedMs)).toBeLessThanOrEqual(failedMs * 0.025 + 0.1);
    expect(broken?.latency_p95_ms).toBe(broken?.latency_p50_ms);
    expect(body.by_agent.map((entry) => [entry.agent, entry.runs, entry.model_calls, entry.errors])).toEqual([
      ["assistant", 2, 4, 0],
      // Its failed model call and its failed run.
      ["failing", 1, 1, 2],
    ]);
    const assistant = body.by_agent[0];
    expect(assistant?.input_tokens).toBe(sum(ok, "input_tokens"));
    expect(assistant?.output_tokens).toBe(sum(ok, "output_tokens"));
    expect(assistant?.cost_usd).toBeCloseTo(sum(ok, "cost_usd"), 9);

    expect(tools.map((tool) => tool.name)).toEqual(["write_file", "write_file"]);
    expect(body.by_tool).toEqual([
      {
        tool: "write_file",
        calls: 2,
        errors: 0,
        latency_p50_ms: expect.any(Number),
        latency_p95_ms: expect.any(Number),
      },
    ]);

    // The default: the 7 days before now, by hour — 168 or 169 hourly buckets, oldest first.
    expect([168, 169]).toContain(body.series.length);
    for (const [index, point] of body.series.entries()) {
      expect(Object.keys(point).sort()).toEqual(
        [
          "cost_usd",
          "errors",
          "input_tokens",
          "latency_p50_ms",
          "latency_p95_ms",
          "model_calls",
          "output_tokens",
          "runs",
          "t",
        ].sort(),
      );
      expect(Date.parse(point.t) % HOUR).toBe(0);
      expect(new Date(point.t).toISOString()).toBe(point.t);
      if (index > 0) expect(Date.parse(point.t) - Date.parse(body.series[index - 1]?.t ?? "")).toBe(HOUR);
    }
    const total = (key: "runs" | "model_calls" | "errors" | "input_tokens") =>
      body.series.reduce((sum, point) => sum + point[key], 0);
    expect(total("runs")).toBe(3);
    expect(total("model_calls")).toBe(5);
    expect(total("errors")).toBe(2);
    expect(total("input_tokens")).toBe(sum(ok, "input_tokens"));
    // Every call lands in the bucket of its start.
    for (const call of calls) {
      const ms = Math.floor(call.created_at / 1000);
      const point = body.series.find((entry) => entry.t === new Date(ms - (ms % HOUR)).toISOString());
      expect(point?.model_calls).toBeGreaterThan(0);
    }
  });

  it("counts from inclusive and to exclusive, in UTC hour and day buckets, ISO or epoch ms", async () => {
    const first = Math.min(...calls.map((call) => call.created_at));
    const firstMs = Math.floor(first / 1000);
    const sameMs = calls.filter((call) => Math.floor(call.created_at / 1000) === firstMs).length;
    // [firstMs, firstMs + 1): the calls started in that millisecond; [.., firstMs): none of them.
    const at = await analytics(`?from=${firstMs}&to=${firstMs + 1}`);
    expect(at.status, JSON.stringify(at.body)).toBe(200);
    expect(at.body.series).toHaveLength(1);
    expect(at.body.series[0]?.t).toBe(new Date(firstMs - (firstMs % HOUR)).toISOString());
    expect(at.body.series[0]?.model_calls).toBe(sameMs);
    const before = await analytics(`?from=${firstMs - HOUR}&to=${firstMs}`);
    expect(before.body.series.reduce((sum, point) => sum + point.model_calls, 0)).toBe(0);

    // An aligned three-hour range in ISO: exactly three buckets, starting at `from`.
    const hourStart = startedAt - (startedAt % HOUR);
    const iso = (ms: number) => new Date(ms).toISOString();
    const hours = await analytics(
      `?from=${iso(hourStart - HOUR)}&to=${iso(hourStart + 2 * HOUR)}&bucket=hour`,
    );
    expect(hours.status).toBe(200);
    expect(hours.body.series.map((point) => point.t)).toEqual([
      iso(hourStart - HOUR),
      iso(hourStart),
      iso(hourStart + HOUR),
    ]);
    expect(hours.body.series[0]?.model_calls).toBe(0);

    // By day: UTC midnights, all five calls in the range of today and yesterday.
    const dayStart = startedAt - (startedAt % DAY);
    const days = await analytics(`?from=${dayStart - DAY}&to=${Date.now() + 1}&bucket=day`);
    expect(days.status).toBe(200);
    expect(days.body.series[0]?.t).toBe(iso(dayStart - DAY));
    for (const point of days.body.series) expect(point.t.endsWith("T00:00:00.000Z")).toBe(true);
    expect(days.body.series.reduce((sum, point) => sum + point.model_calls, 0)).toBe(5);
    expect(days.body.series.reduce((sum, point) => sum + point.runs, 0)).toBe(3);

    // A range longer than 7 days defaults to days; empty buckets are zeros.
    const month = await analytics(`?from=${iso(Date.now() - 30 * DAY)}`);
    expect(month.status).toBe(200);
    expect([30, 31]).toContain(month.body.series.length);
    expect(month.body.series[0]).toMatchObject({ runs: 0, model_calls: 0, latency_p50_ms: 0, cost_usd: 0 });
  });

  it("refuses bad parameters with 400 naming the parameter, and an unknown project with 404", async () => {
    const cases: [string, string][] = [
      ["?from=yesterday", "from"],
      ["?to=2026-13-45T99:00:00Z", "to"],
      ["?from=12.5", "from"],
      ["?bucket=week", "bucket"],
      [`?from=${Date.now()}&to=${Date.now() - HOUR}`, "from"],
      [`?from=2000-01-01&to=2026-01-01&bucket=hour`, "bucket"],
      ["?include=everything", "include"],
    ];
    for (const [query, param] of cases) {
      const response = await analytics(query);
      expect(response.status, query).toBe(400);
      expect(response.body.code).toBe("invalid_request");
      expect(response.body.error, query).toContain(param);
    }
    const unknown = await analytics("", "6a1f3c1e-0000-4000-8000-000000000000");
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe("project_not_found");
    expect((await analytics("", "not-a-project")).status).toBe(404);
  });

  it("adds how runs ended, run durations and totals with include=outcomes", async () => {
    const response = await analytics("?include=outcomes");
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(Object.keys(response.body).sort()).toEqual([
      "by_agent",
      "by_model",
      "by_tool",
      "evals",
      "outcomes",
      "series",
    ]);
    // No eval suite in this project: an empty list.
    expect((response.body as { evals?: unknown }).evals).toEqual([]);
    const body = (response.body as ProjectAnalytics & { outcomes: ProjectOutcomes }).outcomes;
    expect(body.bucket).toBe("hour");
    expect(body.totals).toMatchObject({ runs: 3, runs_in_progress: 0, model_calls: 5, errors: 2 });
    expect(body.totals.run_latency.p95_ms).toBeGreaterThan(0);
    expect(body.ended).toEqual([
      { status: "idle", runs: 2 },
      { status: "failed", runs: 1 },
    ]);
    expect(body.failures).toHaveLength(1);
    expect(body.failures[0]?.reason).toContain("boom: the provider fell over");
    expect(body.approvals).toEqual({
      requested: 0,
      pending: 0,
      approved: 0,
      denied: 0,
      wait: { p50_ms: 0, p95_ms: 0 },
    });
    expect(body.runs_series.reduce((sum, point) => sum + point.runs, 0)).toBe(3);
    expect(body.runs_series.reduce((sum, point) => sum + point.failed, 0)).toBe(1);
  });

  it("adds each finished eval run's pass rate by version with include=outcomes, per suite, in the range", {
    timeout: 60_000,
  }, async () => {
    /** `greeter` says hello on version 1 and goodbye on version 2; the suite wants "hello". */
    const definitions = (text: string) => ({
      agents: [{ name: "greeter", type: "ai_human", sideA: { prompt: "greet" } }],
      prompts: [{ name: "greet", toolDescription: "g", prompt: "Greet.", model: "says", includeChat: true }],
      models: [{ name: "says", provider: "scripted", model: "s", script: [{ text }] }],
    });
    const evalProject = await projectWith(definitions("hello there"));
    const suite = (
      await api<{ suite: EvalSuite }>("POST", `/api/projects/${evalProject}/evals`, {
        name: "greetings",
        agent_id: "greeter",
        assertions: [{ type: "contains", value: "hello" }],
        cases: [
          { name: "hi", input: { messages: ["hi"] } },
          { name: "hey", input: { messages: ["hey"] } },
        ],
      })
    ).body.suite;
    const run = async () => {
      const started = await api<{ run: EvalRun }>(
        "POST",
        `/api/projects/${evalProject}/evals/${suite.id}/runs`,
        {},
      );
      expect(started.status, JSON.stringify(started.body)).toBe(201);
      const deadline = Date.now() + 30_000;
      for (;;) {
        const { body } = await api<{ run: EvalRun }>("GET", `/api/eval-runs/${started.body.run.id}`);
        if (body.run.status !== "running") return body.run;
        if (Date.now() > deadline) throw new Error("eval run still running");
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    };
    const first = await run();
    expect(
      (await api("PUT", `/api/projects/${evalProject}/definitions`, definitions("goodbye"))).status,
    ).toBe(200);
    const second = await run();
    expect([first.status, second.status]).toEqual(["done", "done"]);

    const answer = await api<{ evals: EvalPassRates }>(
      "GET",
      `/api/projects/${evalProject}/analytics?include=outcomes`,
    );
    expect(answer.status).toBe(200);
    expect(answer.body.evals).toEqual([
      {
        suite_id: suite.id,
        suite: "greetings",
        runs: [
          {
            run_id: first.id,
            version: 1,
            finished_at: expect.any(String),
            pass_rate: 1,
            passed: 2,
            cases: 2,
          },
          {
            run_id: second.id,
            version: 2,
            finished_at: expect.any(String),
            pass_rate: 0,
            passed: 0,
            cases: 2,
          },
        ],
      },
    ]);
    const finished = Date.parse(answer.body.evals[0]?.runs[0]?.finished_at ?? "");
    expect(Math.abs(finished - (first.finished_at ?? 0) / 1000)).toBeLessThan(1);
    // A range that ends before the runs finished holds none; the plain contract answer has no field.
    const before = await api<{ evals: EvalPassRates }>(
      "GET",
      `/api/projects/${evalProject}/analytics?include=outcomes&from=${startedAt - DAY}&to=${startedAt}`,
    );
    expect(before.body.evals).toEqual([]);
    expect(Object.keys((await analytics("", evalProject)).body)).not.toContain("evals");
  });
});
