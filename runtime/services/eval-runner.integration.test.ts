// The eval runner's hot path, counted statement by statement (docs/evals.md "Performance"; the
// benchmark is bench/evals.ts): while a case's thread runs in this process the runner reads nothing
// and waits for the scheduler to say the run ended (`Scheduler.whenRunEnds`), so it reads the
// thread once per turn (none before its first: a case created here is idle and empty) instead of on every commit of its tree, and
// reads what the conversation left in one statement per case. A runner that goes back to reading on
// every event, or a `whenRunEnds` that calls back before the run's last commit, fails here. A case
// run here is never watched (a watched root's commits NOTIFY); one run by another process is, and its
// tree's events wake the runner. On each backend: PGlite always, Postgres too when DATABASE_URL names
// a server.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EvalRun } from "@/lib/contracts/evals";
import type { Database } from "@/lib/db/database";
import type { Bundle } from "@/lib/standard";
import { chatBundle } from "@/test/support/bench-bundles";
import { instrumentDatabase } from "@/test/support/instrumented-database";
import { openTestDatabase, testDatabaseBackends } from "@/test/support/open-database";
import { createRuntime, type Runtime } from "../runtime";

const TURNS = 3;
const CASES = 4;
const MODEL_MS = 150;

/** The chat agent answering each turn after MODEL_MS, and a simulated customer answering at once. */
function bundle(): Bundle {
  const chat = chatBundle(TURNS, MODEL_MS);
  return {
    ...chat,
    models: [
      ...chat.models,
      {
        name: "customer",
        provider: "scripted",
        model: "scripted",
        script: Array.from({ length: TURNS }, (_, turn) => ({ text: `Question ${turn + 1}` })),
      },
    ],
  } as Bundle;
}

/** The statement that registers a live watcher of a root (runtime/store/event-watcher-rows.ts). */
const REGISTER_WATCHER =
  "WITH locked AS MATERIALIZED ( SELECT pg_advisory_xact_lock(hashtextextended('tandem_events:'";

/** A suite of `cases` simulated-user cases of TURNS turns each, which pass when every turn was answered. */
const suiteBody = (name: string, cases: number) => ({
  name,
  agent_id: "chat",
  assertions: [
    { type: "contains", value: `Answer ${TURNS}` },
    { type: "max_turns", value: TURNS },
  ],
  cases: Array.from({ length: cases }, (_, index) => ({
    name: `case ${index}`,
    input: { simulated_user: { prompt: "You are a customer.", model: "customer", max_turns: TURNS } },
  })),
});

/** Resolves with the run once its `run` event says it ended. */
const runEnd = (runtime: Runtime, runId: string) =>
  new Promise<EvalRun>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("the run did not end within 30 s")), 30_000);
    const unsubscribe = runtime.evals.subscribe(runId, (event) => {
      if (event.event !== "run") return;
      clearTimeout(timer);
      unsubscribe();
      resolve(event.data);
    });
  });

const count = (statements: Map<string, { count: number }>, start: string) =>
  [...statements]
    .filter(([text]) => text.replace(/\s+/g, " ").trim().startsWith(start))
    .reduce((sum, [, entry]) => sum + entry.count, 0);

describe.each(testDatabaseBackends())("the eval runner's statements on %s", (backend) => {
  let opened: Database;
  let runtime: Runtime;
  let statements: ReturnType<typeof instrumentDatabase>["statements"];
  let projectId: string;

  beforeAll(async () => {
    opened = await openTestDatabase(backend);
    const instrumented = instrumentDatabase(opened);
    statements = instrumented.statements;
    runtime = createRuntime(instrumented.database);
    projectId = (await runtime.projects.create({ name: "runner", definitions: bundle() })).id;
    await runtime.scheduler.start();
  });
  afterAll(async () => {
    await runtime?.evals.stop();
    await runtime?.scheduler.stop();
    await runtime?.events.close();
    await opened?.close();
  });

  it("calls whenRunEnds back after the run's last commit, and at once when nothing runs here", async () => {
    const { threadId } = await runtime.threads.create({ projectId, agentName: "chat", message: "hello" });
    const deadline = Date.now() + 10_000;
    while (!runtime.scheduler.isRunning(threadId) && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 2));
    expect(runtime.scheduler.isRunning(threadId)).toBe(true);
    const ended = await new Promise<{ running: boolean; replies: number }>((resolve) => {
      runtime.scheduler.whenRunEnds(threadId, () => {
        void opened.sql
          .query<{ count: number }>(
            "SELECT count(*)::int AS count FROM messages WHERE thread_id = $1 AND role = 'assistant'",
            [threadId],
          )
          .then((rows) =>
            resolve({ running: runtime.scheduler.isRunning(threadId), replies: Number(rows[0]?.count) }),
          );
      });
    });
    expect(ended).toEqual({ running: false, replies: 1 });
    let calledAtOnce = false;
    runtime.scheduler.whenRunEnds(threadId, () => {
      calledAtOnce = true;
    });
    expect(calledAtOnce).toBe(true);
  });

  it("reads a case's thread (and conversation) once per turn, not at its start, and its outcome in one statement", async () => {
    const suite = await runtime.evals.create(projectId, suiteBody("runner", CASES));
    statements.clear();
    const started = await runtime.evals.startRun(projectId, suite.id, {
      repetitions: 1,
      concurrency: CASES,
    });
    const run = await runEnd(runtime, started.id);
    expect(run.status).toBe("done");
    expect(run.summary.passed).toBe(CASES);
    expect(run.results.map((result) => result.turns)).toEqual(Array(CASES).fill(TURNS));
    // Listed in the suite's order whatever order the cases finished in.
    expect(run.results.map((result) => result.name)).toEqual(suite.cases.map((item) => item.name));
    const ran = [...statements].map(([text, entry]) => `${entry.count}× ${text.slice(0, 70)}`).join("\n");
    // Each turn's model answer is several commits of the tree (the post, the reply): read per event,
    // this would be two or more reads per turn.
    // A case this run created is known to be idle and empty: its first turn reads nothing.
    expect(count(statements, "SELECT t.status, t.runnable, EXISTS"), ran).toBeLessThanOrEqual(CASES * TURNS);
    expect(count(statements, "WITH RECURSIVE subtree AS"), ran).toBe(CASES);
    // The user turns posted are kept by the runner, not read back per turn.
    expect(count(statements, "SELECT payload->>'content' AS content FROM inbox_items"), ran).toBe(0);
    // Cases this process started have no earlier try: their simulated user's calls are logged, and the
    // log is not searched for an earlier answer before each one (a resumed case does: the faults suite).
    expect(count(statements, "SELECT answered_by, provider_model_id"), ran).toBe(0);
    // The simulated user's view of the conversation comes with the read that found the thread resting.
    expect(count(statements, "SELECT role, content FROM messages"), ran).toBe(0);
    expect(count(statements, "INSERT INTO model_calls"), ran).toBeGreaterThanOrEqual(CASES * TURNS);
    // Every post, the first too, stored its message and started the run in one statement (a case
    // created here idle counts as parked here): none was queued for a drain.
    expect(count(statements, "WITH woken AS ( UPDATE threads SET status = 'running'"), ran).toBe(
      CASES * TURNS,
    );
    expect(count(statements, "WITH locked AS ("), ran).toBe(0);
    // Every case ran here: none of their trees was watched, so none of their commits NOTIFYed.
    expect(count(statements, REGISTER_WATCHER), ran).toBe(0);
  });

  it("watches a case run by another process, and is woken by its tree's events, not its safety poll", async () => {
    // The runner's process runs no threads (its scheduler is not started: every post leaves the
    // thread to any scheduler); the suite's runtime above runs them, as another process would.
    const driverDatabase = instrumentDatabase(opened);
    const driver = createRuntime(driverDatabase.database);
    try {
      const suite = await driver.evals.create(projectId, suiteBody("elsewhere", 2));
      driverDatabase.statements.clear();
      const startedAt = Date.now();
      const started = await driver.evals.startRun(projectId, suite.id, { repetitions: 1, concurrency: 2 });
      const run = await runEnd(driver, started.id);
      const elapsedMs = Date.now() - startedAt;
      expect(run.status).toBe("done");
      expect(run.summary.passed).toBe(2);
      expect(run.results.map((result) => result.turns)).toEqual([TURNS, TURNS]);
      const ran = [...driverDatabase.statements]
        .map(([text, entry]) => `${entry.count}× ${text.slice(0, 70)}`)
        .join("\n");
      // Each case subscribed once (on its first turn), and kept the subscription for the rest of it.
      expect(count(driverDatabase.statements, REGISTER_WATCHER), ran).toBe(2);
      // Woken by events: a turn left to the runner's safety poll (SETTLE_POLL_MS, 5 s) would take that
      // long, and there are TURNS of them per case.
      expect(elapsedMs).toBeLessThan(5_000);
    } finally {
      await driver.evals.stop();
      await driver.events.close();
    }
  });
});
