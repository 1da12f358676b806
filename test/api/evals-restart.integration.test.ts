// An eval run survives a restart of the server (docs/evals.md "A run survives a restart"): the server
// is stopped in the middle of a run and started again on the same database; the run resumes and
// every case finishes exactly once — one thread per case, each turn posted once, one result each.
import { describe, expect, it } from "vitest";
import type { EvalRun, EvalSuite } from "../../lib/contracts/evals";
import { testServerForFile } from "../support/fixture";
import { threadHelpers } from "../support/thread-helpers";

const fixture = testServerForFile({ TANDEM_EVAL_LEASE_MS: "1500", TANDEM_LEASE_MS: "1500" });
const api = fixture.api;
const { projectWith, messagesOf } = threadHelpers(fixture);

const CASES = 9;

const definitions = {
  agents: [{ name: "chat", sideA: { prompt: "chat_prompt" } }],
  prompts: [
    { name: "chat_prompt", toolDescription: "Chat", prompt: "Chat.", model: "slow", includeChat: true },
  ],
  models: [
    {
      name: "slow",
      provider: "scripted",
      model: "scripted",
      script: [
        { text: "one: {{input}}", delayMs: 700 },
        { text: "two: {{input}}", delayMs: 700 },
      ],
    },
  ],
  tools: [],
};

async function readRun(runId: string): Promise<EvalRun> {
  return (await api<{ run: EvalRun }>("GET", `/api/eval-runs/${runId}`)).body.run;
}

describe("an eval run across a restart", () => {
  it("resumes after the server restarts and finishes every case exactly once", {
    timeout: 90_000,
  }, async () => {
    const projectId = await projectWith(definitions);
    const cases = Array.from({ length: CASES }, (_, index) => ({
      name: `case ${index}`,
      input: { messages: [`a${index}`, `b${index}`] },
      assertions: [{ type: "equals", value: `two: b${index}` }],
    }));
    const { suite } = (
      await api<{ suite: EvalSuite }>("POST", `/api/projects/${projectId}/evals`, {
        name: "restart",
        agent_id: "chat",
        cases,
      })
    ).body;
    const started = await api<{ run: EvalRun }>("POST", `/api/projects/${projectId}/evals/${suite.id}/runs`, {
      concurrency: 3,
    });
    expect(started.status).toBe(201);
    const runId = started.body.run.id;
    // In the middle: some cases finished, others not.
    const deadline = Date.now() + 30_000;
    let before = await readRun(runId);
    while (before.progress.done < 1 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      before = await readRun(runId);
    }
    expect(before.status).toBe("running");
    expect(before.progress.done).toBeGreaterThanOrEqual(1);
    expect(before.progress.done).toBeLessThan(CASES);

    await fixture.server.restart();

    let after = await readRun(runId);
    while (after.status === "running" && Date.now() < deadline + 30_000) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      after = await readRun(runId);
    }
    expect(after.status).toBe("done");
    expect(after.progress).toEqual({ done: CASES, total: CASES });
    expect(after.results).toHaveLength(CASES);
    expect(new Set(after.results.map((result) => result.case_id)).size).toBe(CASES);
    expect(after.results.filter((result) => !result.passed)).toEqual([]);
    expect(after.summary).toMatchObject({ cases: CASES, passed: CASES, pass_rate: 1 });
    // One thread per case, and each took each turn once.
    const threads = await api<{ total: number }>("GET", `/api/threads?project_id=${projectId}&limit=100`);
    expect(threads.body.total).toBe(CASES);
    for (const result of after.results) {
      const index = Number(result.name.split(" ")[1]);
      const transcript = (await messagesOf(result.thread_id!)).map((message) => [
        message.role,
        message.content,
      ]);
      expect(transcript).toEqual([
        ["user", `a${index}`],
        ["assistant", `one: a${index}`],
        ["user", `b${index}`],
        ["assistant", `two: b${index}`],
      ]);
    }
  });
});
