// Evaluations, the rest of issue 42's server side (docs/evals.md), on a real server: suites travel in
// the project zip (evals/<suite>.ts) and come back by name, a bad suite file is a 422 naming its file
// and line with nothing imported; the simulated user's and the judge's model calls are in the case
// thread's model-call log (so analytics see them) and in the result's tokens and cost.
import { describe, expect, it } from "vitest";
import { unzipProjectFiles, zipProjectFiles } from "@/lib/codegen";
import type { EvalRun, EvalSuite } from "../../lib/contracts/evals";
import { testServerForFile } from "../support/fixture";
import { threadHelpers } from "../support/thread-helpers";

const fixture = testServerForFile();
const api = fixture.api;
const { projectWith } = threadHelpers(fixture);

/** Prices per million tokens, so the runner's calls cost something. */
const priced = { inputPrice: 1000, outputPrice: 2000 };

const definitions = {
  agents: [{ name: "support", sideA: { prompt: "support_chat" } }],
  prompts: [
    {
      name: "support_chat",
      toolDescription: "Support",
      prompt: "You help with refunds.",
      model: "agent_model",
      includeChat: true,
    },
  ],
  models: [
    {
      name: "agent_model",
      provider: "scripted",
      model: "scripted",
      ...priced,
      script: [{ text: "Which order?" }, { text: "Refund issued for {{input}}." }, { text: "Bye." }],
    },
    {
      name: "customer",
      provider: "scripted",
      model: "scripted",
      ...priced,
      script: [{ text: "I want a refund" }, { text: "order 7" }, { text: "Thanks STOP" }],
    },
    {
      name: "judge",
      provider: "scripted",
      model: "scripted",
      ...priced,
      script: [{ text: '{ "score": 0.8, "reason": "fine" }' }],
    },
  ],
  tools: [],
};

const refunds = {
  name: "refunds",
  agent_id: "support",
  assertions: [{ type: "not_contains", value: "(script exhausted)", target: "transcript" }],
  cases: [
    {
      name: "simulated",
      input: {
        simulated_user: { prompt: "You want a refund.", model: "customer", max_turns: 4, stop: "STOP" },
      },
      assertions: [{ type: "judge", model: "judge", rubric: "Was the refund issued?", threshold: 0.5 }],
    },
    {
      name: "fixed",
      input: { messages: ["refund please", "order 9"] },
      env: { SHOP: "Acme" },
      assertions: [{ type: "contains", value: "Refund issued for order 9." }],
    },
  ],
};
const smoke = { name: "smoke / checks", agent_id: "support", assertions: [], cases: [] };

async function createSuite(projectId: string, body: unknown): Promise<EvalSuite> {
  const created = await api<{ suite: EvalSuite }>("POST", `/api/projects/${projectId}/evals`, body);
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body.suite;
}

async function suitesOf(projectId: string): Promise<EvalSuite[]> {
  const { suites } = (await api<{ suites: { id: string }[] }>("GET", `/api/projects/${projectId}/evals`))
    .body;
  const whole: EvalSuite[] = [];
  for (const { id } of suites)
    whole.push((await api<{ suite: EvalSuite }>("GET", `/api/projects/${projectId}/evals/${id}`)).body.suite);
  return whole.sort((left, right) => left.name.localeCompare(right.name));
}

/** A suite as the export carries it: no ids, no project, no dates. */
function withoutIds(suite: EvalSuite) {
  return {
    name: suite.name,
    agent_id: suite.agent_id,
    assertions: suite.assertions,
    cases: suite.cases.map(({ id: _id, ...item }) => item),
  };
}

async function exportZip(projectId: string): Promise<Record<string, string>> {
  const response = await fetch(`${fixture.server.baseUrl}/api/projects/${projectId}/export?format=zip`);
  expect(response.status).toBe(200);
  return unzipProjectFiles(new Uint8Array(await response.arrayBuffer()));
}

async function importZip(projectId: string, files: Record<string, string>) {
  const response = await fetch(`${fixture.server.baseUrl}/api/projects/${projectId}/import`, {
    method: "POST",
    headers: { "content-type": "application/zip" },
    body: zipProjectFiles(files) as Uint8Array<ArrayBuffer>,
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function versionsOf(projectId: string): Promise<number> {
  return (await api<{ versions: unknown[] }>("GET", `/api/projects/${projectId}/versions`)).body.versions
    .length;
}

async function waitForRun(runId: string): Promise<EvalRun> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const { run } = (await api<{ run: EvalRun }>("GET", `/api/eval-runs/${runId}`)).body;
    if (run.status !== "running") return run;
    if (Date.now() > deadline) throw new Error(`run ${runId} still running`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe("eval suites in the project export and import", () => {
  it("export writes evals/<suite>.ts; importing into a new project gives the same suites, by name", async () => {
    const source = await projectWith(definitions);
    await createSuite(source, refunds);
    await createSuite(source, smoke);
    const files = await exportZip(source);
    expect(Object.keys(files).filter((path) => path.startsWith("evals/"))).toEqual([
      "evals/refunds.ts",
      "evals/smoke-checks.ts",
    ]);
    // Data, not code: no imports, no ids.
    expect(files["evals/refunds.ts"]).not.toMatch(/^import /m);
    expect(files["evals/refunds.ts"]).not.toMatch(/\bid:/);

    const target = await projectWith({ agents: [], prompts: [], models: [], tools: [] });
    const imported = await importZip(target, files);
    expect(imported.status, JSON.stringify(imported.body)).toBe(200);
    const sourceSuites = await suitesOf(source);
    const targetSuites = await suitesOf(target);
    expect(targetSuites.map(withoutIds)).toEqual(sourceSuites.map(withoutIds));
    // Ids are the target's own.
    expect(targetSuites[0]!.id).not.toBe(sourceSuites[0]!.id);
    expect(targetSuites[0]!.cases[0]!.id).not.toBe(sourceSuites[0]!.cases[0]!.id);

    // Imported again (one case renamed in the file): the suites are replaced by name, not added, and a
    // case keeps its id when its name is kept.
    const edited = {
      ...files,
      "evals/refunds.ts": files["evals/refunds.ts"]!.replace('name: "fixed"', 'name: "fixed, renamed"'),
    };
    expect((await importZip(target, edited)).status).toBe(200);
    const again = await suitesOf(target);
    expect(again.map((suite) => suite.id)).toEqual(targetSuites.map((suite) => suite.id));
    const before = targetSuites.find((suite) => suite.name === "refunds")!;
    const after = again.find((suite) => suite.name === "refunds")!;
    expect(after.cases.map((item) => item.name)).toEqual(["simulated", "fixed, renamed"]);
    expect(after.cases[0]!.id).toBe(before.cases[0]!.id);
    expect(after.cases[1]!.id).not.toBe(before.cases[1]!.id);
  });

  it("a bad suite file is a 422 naming the file and line, and nothing is imported", async () => {
    const source = await projectWith(definitions);
    await createSuite(source, refunds);
    const files = await exportZip(source);
    const target = await projectWith(definitions);
    await createSuite(target, smoke);
    const versions = await versionsOf(target);
    const suites = await suitesOf(target);

    // A definitions change that must not be saved, and a suite with an unknown assertion type.
    const lines = files["evals/refunds.ts"]!.split("\n");
    const at = lines.findIndex((line) => line.includes('type: "contains"'));
    expect(at).toBeGreaterThan(0);
    lines[at] = lines[at]!.replace('type: "contains"', 'type: "containz"');
    const bad = {
      ...files,
      "agents/models/agent_model.ts": files["agents/models/agent_model.ts"]!.replace(
        "Which order?",
        "Changed",
      ),
      "evals/refunds.ts": lines.join("\n"),
    };
    const refused = await importZip(target, bad);
    expect(refused.status).toBe(422);
    expect(refused.body.code).toBe("invalid_suite");
    expect(refused.body.error).toMatch(
      new RegExp(`^The import has 1 error; first at evals/refunds\\.ts:${at + 1}:\\d+: `),
    );
    const diagnostics = refused.body.diagnostics as Record<string, unknown>[];
    expect(diagnostics).toEqual([
      expect.objectContaining({
        file: "evals/refunds.ts",
        line: at + 1,
        code: "invalid_suite",
        severity: "error",
      }),
    ]);
    expect(await versionsOf(target)).toBe(versions);
    expect(await suitesOf(target)).toEqual(suites);

    // Code in a suite file is refused the same way (never run), and so is an agent the definitions lack.
    const code = { ...files, "evals/refunds.ts": 'export default {\n  name: require("x"),\n};\n' };
    const coded = await importZip(target, code);
    expect(coded.status).toBe(422);
    expect(coded.body.code).toBe("invalid_source");
    expect(coded.body.error).toMatch(/first at evals\/refunds\.ts:2:\d+: /);
    const ghost = {
      ...files,
      "evals/refunds.ts": files["evals/refunds.ts"]!.replace('agent_id: "support"', 'agent_id: "ghost"'),
    };
    const agentLine =
      ghost["evals/refunds.ts"].split("\n").findIndex((line) => line.includes("agent_id:")) + 1;
    const unknownAgent = await importZip(target, ghost);
    expect(unknownAgent.status).toBe(422);
    expect(unknownAgent.body.error).toMatch(
      new RegExp(`evals/refunds\\.ts:${agentLine}:\\d+: agent_id: the project has no agent "ghost"`),
    );
    expect(await versionsOf(target)).toBe(versions);
    expect(await suitesOf(target)).toEqual(suites);
  });
});

interface LoggedCall {
  side: string;
  model_name: string;
  request: { messages: { role: string; content: string }[] };
  input_tokens: number;
  output_tokens: number;
  cost_usd: number;
  error: string | null;
}

describe("the runner's own model calls", () => {
  it("the simulated user's and the judge's calls are logged on the case thread and counted in the result", async () => {
    const projectId = await projectWith(definitions);
    const suite = await createSuite(projectId, refunds);
    const started = await api<{ run: EvalRun }>(
      "POST",
      `/api/projects/${projectId}/evals/${suite.id}/runs`,
      {},
    );
    expect(started.status).toBe(201);
    const run = await waitForRun(started.body.run.id);
    expect(run.status).toBe("done");
    expect(run.results.map((result) => [result.name, result.passed])).toEqual(
      expect.arrayContaining([
        ["simulated", true],
        ["fixed", true],
      ]),
    );

    let summed = { tokens: 0, cost: 0 };
    for (const result of run.results) {
      const logs = await api<{ model_calls: LoggedCall[] }>("GET", `/api/threads/${result.thread_id}/logs`);
      const calls = logs.body.model_calls;
      const bySide = (side: string) => calls.filter((call) => call.side === side);
      const thread = await api<{
        thread: { subtree_usage: { input_tokens: number; output_tokens: number; cost_usd: number } };
      }>("GET", `/api/threads/${result.thread_id}`);
      const tree = thread.body.thread.subtree_usage;
      const own = [...bySide("user"), ...bySide("judge")];
      const ownTokens = own.reduce((sum, call) => sum + call.input_tokens + call.output_tokens, 0);
      const ownCost = own.reduce((sum, call) => sum + call.cost_usd, 0);
      if (result.name === "simulated") {
        // Three customer turns (the third says STOP), one judge call, each with its request.
        expect(bySide("user").map((call) => call.model_name)).toEqual(["customer", "customer", "customer"]);
        expect(bySide("user")[0]!.request.messages[0]).toMatchObject({ role: "system" });
        expect(bySide("user")[0]!.request.messages[0]!.content).toContain("You want a refund.");
        expect(bySide("judge").map((call) => call.model_name)).toEqual(["judge"]);
        expect(bySide("judge")[0]!.request.messages[1]!.content).toContain("Was the refund issued?");
        expect(ownTokens).toBeGreaterThan(0);
        expect(ownCost).toBeGreaterThan(0);
      } else {
        expect(own).toEqual([]);
      }
      // The agent's own calls stay on side a.
      expect(bySide("a").length).toBeGreaterThan(0);
      expect(result.tokens).toBe(tree.input_tokens + tree.output_tokens + ownTokens);
      expect(result.cost_usd).toBeCloseTo(tree.cost_usd + ownCost, 6);
      summed = { tokens: summed.tokens + result.tokens, cost: summed.cost + result.cost_usd };
    }
    expect(run.summary.tokens).toBe(summed.tokens);
    expect(run.summary.cost_usd).toBeCloseTo(summed.cost, 6);

    // Analytics see them: by model, and under the case thread's agent.
    const analytics = await api<{
      by_model: { model: string; model_calls: number }[];
      by_agent: { agent: string; model_calls: number }[];
    }>("GET", `/api/projects/${projectId}/analytics`);
    expect(analytics.status).toBe(200);
    const calls = (model: string) =>
      analytics.body.by_model.find((entry) => entry.model === model)?.model_calls;
    expect(calls("customer")).toBe(3);
    expect(calls("judge")).toBe(1);
    const agentCalls = analytics.body.by_agent.find((entry) => entry.agent === "support")?.model_calls;
    expect(agentCalls).toBe((calls("agent_model") ?? 0) + 4);
  });
});

describe('the contract\'s answers (API.md "Evaluations")', () => {
  it("every answer has the contract's fields, and every refusal its status and field", async () => {
    const projectId = await projectWith(definitions);
    const suite = await createSuite(projectId, refunds);
    expect(Object.keys(suite)).toEqual(
      expect.arrayContaining(["id", "name", "agent_id", "cases", "assertions"]),
    );
    for (const item of suite.cases)
      expect(Object.keys(item)).toEqual(expect.arrayContaining(["id", "name", "input", "assertions"]));

    // A suite with no run has no last_run; after a run, last_run is there.
    const listed = await api<{ suites: Record<string, unknown>[] }>(
      "GET",
      `/api/projects/${projectId}/evals`,
    );
    expect(listed.body.suites).toEqual([{ id: suite.id, name: "refunds", agent_id: "support", cases: 2 }]);
    const started = await api<{ run: EvalRun }>("POST", `/api/projects/${projectId}/evals/${suite.id}/runs`);
    expect(started.status).toBe(201);
    expect(started.body.run).toMatchObject({ id: expect.any(String), status: "running" });
    const run = await waitForRun(started.body.run.id);
    expect(Object.keys(run)).toEqual(
      expect.arrayContaining(["id", "suite_id", "version", "status", "progress", "summary", "results"]),
    );
    expect(Object.keys(run.summary).sort()).toEqual(
      [
        "cases",
        "passed",
        "pass_rate",
        "pass_all_repetitions",
        "mean_score",
        "tokens",
        "cost_usd",
        "latency_p50_ms",
        "latency_p95_ms",
      ].sort(),
    );
    for (const result of run.results)
      expect(Object.keys(result)).toEqual(
        expect.arrayContaining([
          "case_id",
          "repetition",
          "thread_id",
          "passed",
          "score",
          "assertions",
          "turns",
          "tokens",
          "cost_usd",
          "latency_ms",
        ]),
      );
    const relisted = await api<{ suites: { last_run?: { id: string; status: string } }[] }>(
      "GET",
      `/api/projects/${projectId}/evals`,
    );
    expect(relisted.body.suites[0]!.last_run).toMatchObject({ id: run.id, status: "done" });
    const compared = await api<{ cases: Record<string, unknown>[]; summary: { a: unknown; b: unknown } }>(
      "GET",
      `/api/eval-runs/compare?a=${run.id}&b=${run.id}`,
    );
    expect(compared.status).toBe(200);
    expect(compared.body.summary).toEqual({ a: run.summary, b: run.summary });
    for (const item of compared.body.cases) {
      expect(Object.keys(item)).toEqual(expect.arrayContaining(["case_id", "name", "a", "b", "change"]));
      expect(item.change).toBe("same");
    }

    // A run that ended cannot be cancelled; refusals name the field.
    const ended = await api<{ code: string }>("POST", `/api/eval-runs/${run.id}/cancel`);
    expect(ended.status).toBe(409);
    const field = async (
      method: string,
      path: string,
      body: unknown,
      status: number,
      name: string,
    ): Promise<void> => {
      const answer = await api<{ error: string }>(method, path, body);
      expect(answer.status, `${method} ${path} ${JSON.stringify(body)}`).toBe(status);
      expect(answer.body.error, `${method} ${path}`).toContain(name);
    };
    const runs = `/api/projects/${projectId}/evals/${suite.id}/runs`;
    await field("POST", runs, { repetitions: 0 }, 400, "repetitions");
    await field("POST", runs, { version: "2" }, 400, "version");
    await field("POST", runs, { concurrency: 1.5 }, 400, "concurrency");
    await field(
      "POST",
      `/api/projects/${projectId}/evals/${suite.id}/cases/from-thread`,
      {},
      400,
      "thread_id",
    );
    await field("PUT", `/api/projects/${projectId}/evals/${suite.id}`, { ...refunds, name: "" }, 400, "name");
    await field(
      "POST",
      `/api/projects/${projectId}/evals`,
      { ...refunds, name: "x", cases: [{ name: "c", input: {} }] },
      400,
      "cases[0].input",
    );
    await field("GET", `/api/eval-runs/compare?b=${run.id}`, undefined, 400, "a");

    // Unknown ids are 404s, everywhere.
    const missing = "00000000-0000-4000-8000-000000000000";
    expect((await api("PUT", `/api/projects/${projectId}/evals/${missing}`, refunds)).status).toBe(404);
    expect((await api("DELETE", `/api/projects/${projectId}/evals/${missing}`)).status).toBe(404);
    expect(
      (
        await api("POST", `/api/projects/${projectId}/evals/${missing}/cases/from-thread`, {
          thread_id: missing,
        })
      ).status,
    ).toBe(404);
    expect(
      (
        await api("POST", `/api/projects/${projectId}/evals/${suite.id}/cases/from-thread`, {
          thread_id: missing,
        })
      ).status,
    ).toBe(404);
    expect((await api("GET", `/api/eval-runs/${missing}/events`)).status).toBe(404);
    expect((await api("POST", runs, { version: 99 })).status).toBe(404);
    expect((await api("GET", `/api/eval-runs/compare?a=${run.id}&b=${missing}`)).status).toBe(404);
    // Another project's suite is not this project's.
    const other = await projectWith(definitions);
    expect((await api("GET", `/api/projects/${other}/evals/${suite.id}`)).status).toBe(404);
    expect((await api("POST", `/api/projects/${other}/evals/${suite.id}/runs`, {})).status).toBe(404);
  });
});
