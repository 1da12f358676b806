// An eval run survives a SIGKILL (docs/evals.md "A run survives a restart"): the server driving a run
// of fixed and simulated-user cases, two repetitions each, against a model that answers slowly, is
// killed in the middle (some case runs finished, others mid-conversation, others not started); no
// lease is handed back. Another server process starts on the same Postgres, claims the run once its
// lease expires, and finishes it. Then the run is `done` and every case × repetition finished exactly
// once: one result row and one thread each, each user turn posted once, each simulated user's and
// judge's call logged once, and the fault suite's invariants hold on every thread. A second kill
// lands exactly between a simulated user's call being logged and its answer being posted: the
// resumed case reuses the logged answer instead of calling again.
import postgres from "postgres";
import { describe, expect, it } from "vitest";
import type { EvalRun, EvalSuite } from "../../lib/contracts/evals";
import { testServerForFile } from "../support/fixture";
import { threadHelpers } from "../support/thread-helpers";
import { checkInvariants } from "./invariants";

// Short leases (runs and threads) so the killed server's work is taken over quickly.
const fixture = testServerForFile({ TANDEM_EVAL_LEASE_MS: "1500", TANDEM_LEASE_MS: "1500" });
const api = fixture.api;
const { projectWith, messagesOf } = threadHelpers(fixture);

const FIXED = 4;
const SIMULATED = 2;
const REPETITIONS = 2;
const TOTAL = (FIXED + SIMULATED) * REPETITIONS;

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
        { text: "one: {{input}}", delayMs: 600 },
        { text: "two: {{input}}", delayMs: 600 },
      ],
    },
    {
      name: "customer",
      provider: "scripted",
      model: "scripted",
      script: [{ text: "hello" }, { text: "again ({{input}})" }, { text: "bye STOP" }],
    },
    {
      name: "judge",
      provider: "scripted",
      model: "scripted",
      script: [{ text: '{ "score": 1, "reason": "ok" }' }],
    },
  ],
  tools: [],
};

const cases = [
  ...Array.from({ length: FIXED }, (_, index) => ({
    name: `fixed ${index}`,
    input: { messages: [`a${index}`, `b${index}`] },
    assertions: [{ type: "equals", value: `two: b${index}` }],
  })),
  ...Array.from({ length: SIMULATED }, (_, index) => ({
    name: `simulated ${index}`,
    input: {
      simulated_user: { prompt: "You are a customer.", model: "customer", max_turns: 4, stop: "STOP" },
    },
    assertions: [
      { type: "equals", value: "two: again (one: hello)" },
      { type: "judge", model: "judge", rubric: "Fine?" },
    ],
  })),
];

/** The user turns each case posts, in order. */
function expectedTurns(name: string): string[] {
  const [kind, index] = name.split(" ");
  return kind === "fixed" ? [`a${index}`, `b${index}`] : ["hello", "again (one: hello)"];
}

async function readRun(runId: string): Promise<EvalRun> {
  const read = await api<{ run: EvalRun }>("GET", `/api/eval-runs/${runId}`);
  expect(read.status).toBe(200);
  return read.body.run;
}

describe("an eval run across a SIGKILL", () => {
  it("is taken over by another process and finishes every case × repetition exactly once", {
    timeout: 120_000,
  }, async () => {
    const projectId = await projectWith(definitions);
    const created = await api<{ suite: EvalSuite }>("POST", `/api/projects/${projectId}/evals`, {
      name: "kill",
      agent_id: "chat",
      cases,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const started = await api<{ run: EvalRun }>(
      "POST",
      `/api/projects/${projectId}/evals/${created.body.suite.id}/runs`,
      { repetitions: REPETITIONS, concurrency: 3 },
    );
    expect(started.status).toBe(201);
    const runId = started.body.run.id;

    // In the middle: some case runs finished, the rest not.
    const deadline = Date.now() + 30_000;
    let before = await readRun(runId);
    while (before.progress.done < 2 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      before = await readRun(runId);
    }
    await fixture.server.kill();
    expect(before.status).toBe("running");
    expect(before.progress.done).toBeGreaterThanOrEqual(2);
    expect(before.progress.done).toBeLessThan(TOTAL);

    // Another process, the same database: the dead one's lease expires and the run is claimed.
    await fixture.server.restart();
    let after = await readRun(runId);
    while (after.status === "running" && Date.now() < deadline + 60_000) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      after = await readRun(runId);
    }
    expect(after.status).toBe("done");
    expect(after.progress).toEqual({ done: TOTAL, total: TOTAL });
    expect(after.results.filter((result) => !result.passed)).toEqual([]);
    expect(after.summary).toMatchObject({
      cases: FIXED + SIMULATED,
      passed: FIXED + SIMULATED,
      pass_rate: 1,
    });

    const sql = postgres(fixture.databaseUrl!, { max: 1, onnotice: () => {} });
    try {
      // One result row per case × repetition, each finished, each with its own thread.
      const results = await sql<{ case_id: string; repetition: number; thread_id: string; state: string }[]>`
        SELECT case_id::text, repetition, thread_id::text, state FROM eval_results WHERE run_id = ${runId}`;
      expect(results).toHaveLength(TOTAL);
      expect(new Set(results.map((row) => `${row.case_id}/${row.repetition}`)).size).toBe(TOTAL);
      expect(results.filter((row) => row.state !== "done")).toEqual([]);
      const resultThreads = new Set(results.map((row) => row.thread_id));
      expect(resultThreads.size).toBe(TOTAL);

      // One thread per case × repetition: the project's threads (it has no others) are exactly the
      // results' threads.
      const threads = await sql<{ id: string; name: string }[]>`
        SELECT id::text, name FROM threads WHERE project_id = ${projectId}`;
      expect(threads).toHaveLength(TOTAL);
      expect(new Set(threads.map((thread) => thread.id))).toEqual(resultThreads);

      for (const thread of threads) {
        const caseName = thread.name.replace(/^eval kill · /, "").replace(/ #\d+$/, "");
        // Each user turn posted once, in order, and the conversation as it should read.
        const posted = await sql<{ content: string }[]>`
          SELECT payload ->> 'content' AS content FROM inbox_items
          WHERE thread_id = ${thread.id} AND payload ->> 'role' = 'user' ORDER BY seq`;
        const turns = expectedTurns(caseName);
        expect(
          posted.map((turn) => turn.content),
          `user turns posted to ${thread.name}`,
        ).toEqual(turns);
        const transcript = (await messagesOf(thread.id)).map((message) => [message.role, message.content]);
        expect(transcript, `the conversation of ${thread.name}`).toEqual([
          ["user", turns[0]],
          ["assistant", `one: ${turns[0]}`],
          ["user", turns[1]],
          ["assistant", `two: ${turns[1]}`],
        ]);
        // The simulated user asked three times (the third said STOP) and the judge once, never twice.
        const calls = await sql<{ side: string; count: number }[]>`
          SELECT side, count(*)::int AS count FROM model_calls
          WHERE thread_id = ${thread.id} AND side IN ('user', 'judge') AND error IS NULL GROUP BY side ORDER BY side`;
        expect(
          calls.map((call) => [call.side, call.count]),
          `the runner's calls on ${thread.name}`,
        ).toEqual(
          caseName.startsWith("simulated")
            ? [
                ["judge", 1],
                ["user", 3],
              ]
            : [],
        );
        await checkInvariants(fixture, thread.id);
      }
    } finally {
      await sql.end();
    }
    expect(fixture.server.output()).toContain("signal SIGKILL");
  });

  it("a simulated user's or judge's call logged just before the kill is not made again after it", {
    timeout: 120_000,
  }, async () => {
    // The process dies right after it logged the third call of the runner (of any simulated case),
    // before it used the answer: the resumed case asks the very same again and gets the logged answer.
    await fixture.server.restart({ TANDEM_CRASH_AT: "after_eval_call@chat#3" });
    const projectId = await projectWith(definitions);
    const created = await api<{ suite: EvalSuite }>("POST", `/api/projects/${projectId}/evals`, {
      name: "calls",
      agent_id: "chat",
      cases: cases.filter((item) => item.name.startsWith("simulated")),
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const started = await api<{ run: EvalRun }>(
      "POST",
      `/api/projects/${projectId}/evals/${created.body.suite.id}/runs`,
      { concurrency: 2 },
    );
    expect(started.status).toBe(201);
    const runId = started.body.run.id;
    await fixture.server.exited(60_000);
    expect(fixture.server.output()).toContain("crash point after_eval_call reached for chat");

    await fixture.server.restart({ TANDEM_CRASH_AT: "" });
    const deadline = Date.now() + 60_000;
    let after = await readRun(runId);
    while (after.status === "running" && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      after = await readRun(runId);
    }
    expect(after.status).toBe("done");
    expect(after.results.map((result) => result.passed)).toEqual([true, true]);
    const sql = postgres(fixture.databaseUrl!, { max: 1, onnotice: () => {} });
    try {
      for (const result of after.results) {
        const calls = await sql<{ side: string; count: number }[]>`
          SELECT side, count(*)::int AS count FROM model_calls
          WHERE thread_id = ${result.thread_id} AND side IN ('user', 'judge') GROUP BY side ORDER BY side`;
        expect(calls.map((call) => [call.side, call.count])).toEqual([
          ["judge", 1],
          ["user", 3],
        ]);
        expect((await messagesOf(result.thread_id!)).map((message) => message.content)).toEqual([
          "hello",
          "one: hello",
          "again (one: hello)",
          "two: again (one: hello)",
        ]);
        await checkInvariants(fixture, result.thread_id!);
      }
    } finally {
      await sql.end();
    }
  });
});
