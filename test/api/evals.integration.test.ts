// Evaluations over HTTP (API.md "Evaluations"; docs/evals.md) on a real server with scripted models:
// suites CRUD and validation, a run with fixed and simulated users, a judge answered by a scripted
// model, a code check from test/extensions/evals, repetitions (pass^k), the SSE stream, cancel,
// compare across two versions, a case from a thread, and `npm run eval` against the server.
import { execFile } from "node:child_process";
import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import type { EvalCompare, EvalRun, EvalSuite } from "../../lib/contracts/evals";
import { testServerForFile } from "../support/fixture";
import { ROOT } from "../support/server";
import { connectSse } from "../support/sse";
import { threadHelpers } from "../support/thread-helpers";

const fixture = testServerForFile({ TANDEM_EXTENSIONS_DIR: path.resolve(__dirname, "../extensions") });
const api = fixture.api;
const { projectWith, startThread, waitFor, messagesOf } = threadHelpers(fixture);

/** The agent asks for the order, looks it up, and confirms the refund (`finalText` is its last words). */
function definitions(finalText = "Refund issued for order A-1234.") {
  return {
    agents: [
      { name: "support", sideA: { prompt: "support_chat" } },
      { name: "slowpoke", sideA: { prompt: "slow_chat" } },
    ],
    prompts: [
      {
        name: "support_chat",
        toolDescription: "Support",
        prompt: "You help with refunds.",
        model: "agent_model",
        includeChat: true,
        tools: ["lookup_order"],
      },
      { name: "slow_chat", toolDescription: "Slow", prompt: "Slow.", model: "slow_model", includeChat: true },
    ],
    models: [
      {
        name: "agent_model",
        provider: "scripted",
        model: "scripted",
        script: [
          { text: "Sorry to hear that. What is your order number?" },
          { toolCalls: [{ name: "lookup_order", args: { orderId: "A-1234" } }] },
          { text: finalText },
        ],
      },
      {
        // The simulated customer: its second message quotes what it was shown as the latest user
        // turn, which (roles swapped) is the agent's reply; its third ends the chat.
        name: "customer",
        provider: "scripted",
        model: "scripted",
        script: [
          { text: "I want my money back" },
          { text: "order A-1234 (you said: {{input}})" },
          { text: "Thanks! STOP" },
        ],
      },
      {
        name: "judge",
        provider: "scripted",
        model: "scripted",
        script: [{ text: '```json\n{ "score": 0.9, "reason": "resolved politely" }\n```' }],
      },
      {
        name: "slow_model",
        provider: "scripted",
        model: "scripted",
        script: [{ text: "zzz", delayMs: 20_000 }],
      },
    ],
    tools: [{ name: "lookup_order", description: "Look an order up", kind: "code", module: "lookup_order" }],
  };
}

const refundAssertions = [
  { type: "contains", value: "A-1234" },
  { type: "regex", value: "Refund issued for order A-\\d{4}" },
  { type: "tool_called", name: "lookup_order", args: { orderId: "A-1234" }, min: 1, max: 1 },
  { type: "status", value: "idle" },
  { type: "judge", model: "judge", rubric: "Did the agent resolve the refund politely?", threshold: 0.8 },
  { type: "code", module: "mentions_order" },
];

const suiteBody = {
  name: "refunds",
  agent_id: "support",
  assertions: [
    { type: "max_turns", value: 3 },
    { type: "not_contains", value: "(script exhausted)", target: "transcript" },
  ],
  cases: [
    {
      name: "angry refund",
      input: { messages: ["I want my money back", "order A-1234"] },
      env: { SHOP_NAME: "Acme" },
      assertions: refundAssertions,
    },
    {
      name: "simulated refund",
      input: {
        simulated_user: {
          prompt: "You are an angry customer.",
          model: "customer",
          max_turns: 4,
          stop: "STOP",
        },
      },
      env: { SHOP_NAME: "Acme" },
      assertions: refundAssertions,
    },
  ],
};

async function waitForRun(runId: string, timeoutMs = 30_000): Promise<EvalRun> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { run } = (await api<{ run: EvalRun }>("GET", `/api/eval-runs/${runId}`)).body;
    if (run.status !== "running") return run;
    if (Date.now() > deadline) throw new Error(`run ${runId} still running: ${JSON.stringify(run.progress)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function startRun(projectId: string, suiteId: string, body: Record<string, unknown> = {}) {
  const started = await api<{ run: EvalRun }>(
    "POST",
    `/api/projects/${projectId}/evals/${suiteId}/runs`,
    body,
  );
  expect(started.status, JSON.stringify(started.body)).toBe(201);
  expect(started.body.run.status).toBe("running");
  return started.body.run.id;
}

describe("eval suites", () => {
  it("are created with ids on the suite and every case, listed, read, replaced and deleted", async () => {
    const projectId = await projectWith(definitions());
    const created = await api<{ suite: EvalSuite }>("POST", `/api/projects/${projectId}/evals`, suiteBody);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const suite = created.body.suite;
    expect(suite.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(suite.cases.map((item) => item.name)).toEqual(["angry refund", "simulated refund"]);
    for (const item of suite.cases) expect(item.id).toMatch(/^[0-9a-f-]{36}$/);

    const listed = await api<{ suites: { id: string; name: string; agent_id: string; cases: number }[] }>(
      "GET",
      `/api/projects/${projectId}/evals`,
    );
    expect(listed.body.suites).toEqual([{ id: suite.id, name: "refunds", agent_id: "support", cases: 2 }]);

    // PUT keeps the ids of the cases it is sent with.
    const edited = {
      ...suiteBody,
      cases: [{ ...suiteBody.cases[0], id: suite.cases[0]!.id, name: "renamed" }],
    };
    const put = await api<{ suite: EvalSuite }>(
      "PUT",
      `/api/projects/${projectId}/evals/${suite.id}`,
      edited,
    );
    expect(put.status).toBe(200);
    expect(put.body.suite.cases).toMatchObject([{ id: suite.cases[0]!.id, name: "renamed" }]);
    expect(
      (await api<{ suite: EvalSuite }>("GET", `/api/projects/${projectId}/evals/${suite.id}`)).body.suite
        .cases,
    ).toHaveLength(1);

    // A second suite of the same name is a conflict.
    expect((await api("POST", `/api/projects/${projectId}/evals`, suiteBody)).status).toBe(409);

    expect((await api("DELETE", `/api/projects/${projectId}/evals/${suite.id}`)).status).toBe(200);
    expect((await api("GET", `/api/projects/${projectId}/evals/${suite.id}`)).status).toBe(404);
  });

  it("refuse bad bodies naming the field, and unknown ids with 404", async () => {
    const projectId = await projectWith(definitions());
    const badAgent = await api<{ error: string; code: string }>("POST", `/api/projects/${projectId}/evals`, {
      ...suiteBody,
      agent_id: "nobody",
    });
    expect(badAgent.status).toBe(422);
    expect(badAgent.body.error).toContain("agent_id");

    const badRegex = await api<{ error: string }>("POST", `/api/projects/${projectId}/evals`, {
      ...suiteBody,
      assertions: [{ type: "regex", value: "([unclosed" }],
    });
    expect(badRegex.status).toBe(400);
    expect(badRegex.body.error).toContain("assertions[0].value");

    const badModel = await api<{ error: string }>("POST", `/api/projects/${projectId}/evals`, {
      ...suiteBody,
      assertions: [{ type: "judge", model: "oracle", rubric: "good?" }],
    });
    expect(badModel.status).toBe(422);
    expect(badModel.body.error).toContain("assertions[0].model");

    const badType = await api<{ error: string }>("POST", `/api/projects/${projectId}/evals`, {
      ...suiteBody,
      assertions: [{ type: "vibes" }],
    });
    expect(badType.status).toBe(400);
    expect(badType.body.error).toContain("assertions[0]");

    const missing = "00000000-0000-4000-8000-000000000000";
    expect((await api("GET", `/api/projects/${missing}/evals`)).status).toBe(404);
    expect((await api("GET", `/api/projects/${projectId}/evals/${missing}`)).status).toBe(404);
    expect((await api("POST", `/api/projects/${projectId}/evals/${missing}/runs`, {})).status).toBe(404);
    expect((await api("GET", `/api/eval-runs/${missing}`)).status).toBe(404);
    expect((await api("GET", `/api/eval-runs/not-a-uuid`)).status).toBe(404);
    expect((await api("POST", `/api/eval-runs/${missing}/cancel`)).status).toBe(404);
    expect((await api("GET", `/api/eval-runs/compare?a=${missing}&b=${missing}`)).status).toBe(404);
    expect((await api("GET", `/api/eval-runs/compare?a=${missing}`)).status).toBe(400);
  });
});

describe("eval runs", () => {
  it("run fixed and simulated users with every kind of assertion, twice each, streaming progress, and compare two versions", {
    timeout: 60_000,
  }, async () => {
    const projectId = await projectWith(definitions());
    const { suite } = (await api<{ suite: EvalSuite }>("POST", `/api/projects/${projectId}/evals`, suiteBody))
      .body;
    const runId = await startRun(projectId, suite.id, { repetitions: 2, concurrency: 4 });
    const events = await connectSse(`${fixture.server.baseUrl}/api/eval-runs/${runId}/events`);
    const ended = await events.waitFor((frame) => frame.event === "run", 30_000);
    events.close();
    const run = JSON.parse(ended.data) as EvalRun;

    expect(run.status).toBe("done");
    expect(run.version).toBe(1);
    expect(run.progress).toEqual({ done: 4, total: 4 });
    const failures = run.results.flatMap((result) => result.assertions.filter((item) => !item.passed));
    expect(failures).toEqual([]);
    expect(run.results).toHaveLength(4);
    for (const result of run.results) {
      expect(result.passed).toBe(true);
      expect(result.turns).toBe(2);
      expect(result.tokens).toBeGreaterThan(0);
      expect(result.assertions.map((item) => item.type)).toEqual([
        "max_turns",
        "not_contains",
        "contains",
        "regex",
        "tool_called",
        "status",
        "judge",
        "code",
      ]);
      expect(result.assertions.find((item) => item.type === "judge")).toMatchObject({
        score: 0.9,
        reason: expect.stringContaining("resolved politely"),
      });
    }
    expect(run.summary).toMatchObject({ cases: 2, passed: 2, pass_rate: 1, pass_all_repetitions: 1 });
    expect(run.summary.mean_score).toBeGreaterThan(0.9);
    expect(run.summary.latency_p95_ms).toBeGreaterThanOrEqual(run.summary.latency_p50_ms);
    // The stream sent every result once and the final progress.
    const streamed = events.frames.filter((frame) => frame.event === "result");
    expect(streamed).toHaveLength(4);
    expect(
      events.frames.some((frame) => frame.event === "progress" && JSON.parse(frame.data).done === 4),
    ).toBe(true);

    // Each case is an ordinary root thread of the project; the simulated user saw the agent's reply
    // as its user turn (roles swapped) and stopped at its stop text.
    const simulated = run.results.find((result) => result.name === "simulated refund")!;
    const turns = (await messagesOf(simulated.thread_id!)).filter((message) => message.role === "user");
    expect(turns.map((message) => message.content)).toEqual([
      "I want my money back",
      "order A-1234 (you said: Sorry to hear that. What is your order number?)",
    ]);
    const listed = await api<{ threads: { id: string }[] }>(
      "GET",
      `/api/threads?project_id=${projectId}&limit=50`,
    );
    expect(listed.body.threads.map((thread) => thread.id)).toEqual(
      expect.arrayContaining(run.results.map((result) => result.thread_id)),
    );

    // The suite lists its last run.
    const suites = await api<{ suites: { last_run?: { id: string } }[] }>(
      "GET",
      `/api/projects/${projectId}/evals`,
    );
    expect(suites.body.suites[0]?.last_run?.id).toBe(runId);

    // Version 2 forgets the order number: both cases regress, and every failed assertion says why.
    const saved = await api("PUT", `/api/projects/${projectId}/definitions`, definitions("Done."));
    expect(saved.status).toBe(200);
    const second = await waitForRun(await startRun(projectId, suite.id));
    expect(second.version).toBe(2);
    expect(second.summary).toMatchObject({ cases: 2, passed: 0, pass_rate: 0 });
    const reasons = second.results[0]!.assertions.filter((item) => !item.passed);
    expect(reasons.map((item) => item.type)).toEqual(["contains", "regex", "code"]);
    expect(reasons[0]!.reason).toContain('does not contain "A-1234"');
    expect(reasons[2]!.reason).toBe("the final reply does not name order A-1234");

    const compared = await api<EvalCompare>("GET", `/api/eval-runs/compare?a=${runId}&b=${second.id}`);
    expect(compared.status).toBe(200);
    expect(compared.body.cases.map((item) => [item.name, item.change, item.a, item.b?.passed])).toEqual([
      ["angry refund", "regressed", { passed: true, score: expect.any(Number) }, false],
      ["simulated refund", "regressed", { passed: true, score: expect.any(Number) }, false],
    ]);
    expect(compared.body.summary.a.pass_rate).toBe(1);
    expect(compared.body.summary.b.pass_rate).toBe(0);
    // An older version still runs on request.
    const again = await waitForRun(await startRun(projectId, suite.id, { version: 1 }));
    expect(again).toMatchObject({ version: 1, summary: { pass_rate: 1 } });
    const reverse = (await api<EvalCompare>("GET", `/api/eval-runs/compare?a=${second.id}&b=${again.id}`))
      .body;
    expect(reverse.cases.map((item) => item.change)).toEqual(["fixed", "fixed"]);

    // The suite's runs, newest first, without their results: the view's history and chart.
    const history = await api<{ runs: (Omit<EvalRun, "results"> & { results?: unknown })[] }>(
      "GET",
      `/api/projects/${projectId}/evals/${suite.id}/runs`,
    );
    expect(history.status).toBe(200);
    expect(
      history.body.runs.map((item) => [item.id, item.version, item.status, item.summary?.pass_rate]),
    ).toEqual([
      [again.id, 1, "done", 1],
      [second.id, 2, "done", 0],
      [runId, 1, "done", 1],
    ]);
    expect(history.body.runs[0]).toMatchObject({ suite_id: suite.id, progress: { done: 2, total: 2 } });
    expect(history.body.runs[0]?.results).toBeUndefined();
    const unknownSuite = await api(
      "GET",
      `/api/projects/${projectId}/evals/00000000-0000-4000-8000-000000000000/runs`,
    );
    expect(unknownSuite.status).toBe(404);
  });

  it("cancel: the run ends cancelled and its conversation in flight is stopped", async () => {
    const projectId = await projectWith(definitions());
    const { suite } = (
      await api<{ suite: EvalSuite }>("POST", `/api/projects/${projectId}/evals`, {
        name: "slow",
        agent_id: "slowpoke",
        cases: [{ name: "waits", input: { messages: ["hello"] }, assertions: [] }],
      })
    ).body;
    const runId = await startRun(projectId, suite.id);
    // Wait for the case's thread to be at work.
    let threadId: string | undefined;
    for (let i = 0; i < 100 && !threadId; i++) {
      const threads = await api<{ threads: { id: string; status: string }[] }>(
        "GET",
        `/api/threads?project_id=${projectId}`,
      );
      threadId = threads.body.threads.find((thread) => thread.status === "running")?.id;
      if (!threadId) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(threadId).toBeDefined();
    const cancelled = await api<{ run: EvalRun }>("POST", `/api/eval-runs/${runId}/cancel`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.run.status).toBe("cancelled");
    expect((await api<{ run: EvalRun }>("GET", `/api/eval-runs/${runId}`)).body.run.status).toBe("cancelled");
    await waitFor(threadId!, ["idle", "stopped"], 5_000);
    // A second cancel answers the cancelled run again; no result was recorded for the stopped case.
    const twice = await api<{ run: EvalRun }>("POST", `/api/eval-runs/${runId}/cancel`);
    expect(twice.status).toBe(200);
    expect(twice.body.run.results).toEqual([]);
  });

  it("a case from a real thread: its user turns become input.messages", async () => {
    const projectId = await projectWith(definitions());
    const { suite } = (await api<{ suite: EvalSuite }>("POST", `/api/projects/${projectId}/evals`, suiteBody))
      .body;
    const threadId = await startThread(projectId, "support", "I want my money back", { SHOP_NAME: "Acme" });
    await waitFor(threadId, ["idle"]);
    await api("POST", `/api/threads/${threadId}/messages`, { content: "order A-1234" });
    await waitFor(threadId, ["idle"]);
    const added = await api<{ case: { id: string; input: unknown } }>(
      "POST",
      `/api/projects/${projectId}/evals/${suite.id}/cases/from-thread`,
      { thread_id: threadId },
    );
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    expect(added.body.case.input).toEqual({ messages: ["I want my money back", "order A-1234"] });
    const { suite: after } = (
      await api<{ suite: EvalSuite }>("GET", `/api/projects/${projectId}/evals/${suite.id}`)
    ).body;
    expect(after.cases.map((item) => item.id)).toContain(added.body.case.id);
    const unknown = await api("POST", `/api/projects/${projectId}/evals/${suite.id}/cases/from-thread`, {
      thread_id: "00000000-0000-4000-8000-000000000000",
    });
    expect(unknown.status).toBe(404);
    expect(
      (await api("POST", `/api/projects/${projectId}/evals/${suite.id}/cases/from-thread`, {})).status,
    ).toBe(400);
  });

  it("npm run eval: prints a table, writes JUnit XML, exits 0 when every case passes and 1 when one fails", {
    timeout: 60_000,
  }, async () => {
    const name = `cli-${Date.now()}`;
    const created = await api<{ id: string }>("POST", "/api/projects", { name, definitions: definitions() });
    const projectId = created.body.id;
    await api("POST", `/api/projects/${projectId}/evals`, { ...suiteBody, cases: [suiteBody.cases[0]] });
    await api("POST", `/api/projects/${projectId}/evals`, {
      name: "strict",
      agent_id: "support",
      cases: [
        {
          name: "bananas",
          input: { messages: ["hello"] },
          assertions: [{ type: "contains", value: "banana" }],
        },
      ],
    });
    const folder = await mkdtemp(path.join(tmpdir(), "tandem-eval-cli-"));
    const junit = path.join(folder, "report.xml");
    const run = (suite: string, extra: string[] = []) =>
      promisify(execFile)(
        process.execPath,
        [
          "--import",
          "tsx",
          "scripts/eval.ts",
          "--project",
          name,
          "--suite",
          suite,
          "--base",
          fixture.server.baseUrl,
          ...extra,
        ],
        { cwd: ROOT, env: { ...process.env, TANDEM_API_TOKEN: "" } },
      ).then(
        (output) => ({ code: 0, stdout: output.stdout }),
        (error: { code: number; stdout: string }) => ({ code: error.code, stdout: error.stdout }),
      );
    const [passing, failing] = await Promise.all([
      run("refunds", ["--junit", junit, "--repetitions", "2"]),
      run("strict", ["--version", "1"]),
    ]);
    expect(passing.code, passing.stdout).toBe(0);
    expect(passing.stdout).toContain("angry refund");
    expect(passing.stdout).toContain("1/1 cases passed");
    const xml = await readFile(junit, "utf8");
    expect(xml).toContain('<testsuite name="refunds" tests="2" failures="0"');
    expect(xml).toContain('name="angry refund #2"');
    expect(failing.code, failing.stdout).toBe(1);
    expect(failing.stdout).toContain("FAIL");
    expect(failing.stdout).toContain('does not contain "banana"');
  });
});
