// What one thread costs the database, counted statement by statement (docs/benchmarks.md items 12
// and 13): a dual_ai dialogue of 10 steps, created in this process, runs in 12 statements and no
// explicit transaction — the claim (which reads the thread and its input), one statement for its
// input, one per step — and its last step both stops the session and releases the lease. A change
// that adds a round trip to every step, reads the thread again, or leaves the thread's stop to a
// later lock and hand-back fails here. On each backend: PGlite always, Postgres too when
// DATABASE_URL names a server.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, openDatabase } from "@/lib/db/database";
import { chatBundle, dialogueBundle } from "@/test/support/bench-bundles";
import { createIsolatedDatabaseConfig } from "@/test/support/database";
import { instrumentDatabase } from "@/test/support/instrumented-database";
import { openTestDatabase, testDatabaseBackends } from "../test/support/open-database";
import { createRuntime, type Runtime } from "./runtime";
import { CLAIM_STATEMENT } from "./store/thread-scheduling";
import { WORK_CHANNEL } from "./store/thread-store";

const TURNS = 5; // 10 steps

describe.each(testDatabaseBackends())("the statements of one thread on %s", (backend) => {
  let opened: Database;
  let runtime: Runtime;
  let counters: ReturnType<typeof instrumentDatabase>["counters"];
  let statements: ReturnType<typeof instrumentDatabase>["statements"];

  beforeAll(async () => {
    opened = await openTestDatabase(backend);
    const instrumented = instrumentDatabase(opened);
    counters = instrumented.counters;
    statements = instrumented.statements;
    // No poll, no lease renewal during the run: only the thread's own statements are counted.
    const saved = { poll: process.env.TANDEM_POLL_MS, lease: process.env.TANDEM_LEASE_MS };
    process.env.TANDEM_POLL_MS = "600000";
    process.env.TANDEM_LEASE_MS = "600000";
    try {
      runtime = createRuntime(instrumented.database);
    } finally {
      restore("TANDEM_POLL_MS", saved.poll);
      restore("TANDEM_LEASE_MS", saved.lease);
    }
  });
  afterAll(async () => {
    await runtime?.scheduler.stop();
    await opened?.close();
  });

  it("runs a 10-step dual_ai thread in 12 statements: a claim, its input, one per step", async () => {
    const project = await runtime.projects.create({ name: "budget", definitions: dialogueBundle(TURNS) });
    const { threadId } = await runtime.threads.create({
      projectId: project.id,
      agentName: "dialogue",
      message: "go",
    });
    const before = { ...counters };
    statements.clear();
    await runtime.scheduler.start();
    // Watched around the counted database: only the runtime's own statements count.
    const read = async () =>
      (
        await opened.sql.query<{ status: string; lease_owner: string | null }>(
          "SELECT status, lease_owner FROM threads WHERE id = $1",
          [threadId],
        )
      )[0];
    const deadline = Date.now() + 30_000;
    let thread = await read();
    while (thread?.status !== "stopped" && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      thread = await read();
    }
    expect(thread?.status).toBe("stopped");
    expect(thread?.lease_owner).toBeNull();
    // Nothing may follow the last step (a lock, a hand-back): give it the time to show.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const ran = [...statements.entries()].map(([text, entry]) => `${entry.count}× ${text.slice(0, 60)}`);
    expect(counters.transactions - before.transactions, ran.join("\n")).toBe(0);
    expect(counters.statements - before.statements, ran.join("\n")).toBe(2 + 2 * TURNS);
  });
});

describe.each(testDatabaseBackends())("the statements of a thread's creation on %s", (backend) => {
  let opened: Database;
  let runtime: Runtime;
  let counters: ReturnType<typeof instrumentDatabase>["counters"];
  let statements: ReturnType<typeof instrumentDatabase>["statements"];

  beforeAll(async () => {
    opened = await openTestDatabase(backend);
    const instrumented = instrumentDatabase(opened);
    counters = instrumented.counters;
    statements = instrumented.statements;
    runtime = createRuntime(instrumented.database);
  });
  afterAll(async () => {
    await opened?.close();
  });

  // Creating, not running: the scheduler is never started here.
  const counted = async (create: () => Promise<unknown>) => {
    const before = { ...counters };
    statements.clear();
    await create();
    const ran = [...statements.entries()].map(([text, entry]) => `${entry.count}× ${text.slice(0, 60)}`);
    return {
      statements: counters.statements - before.statements,
      transactions: counters.transactions - before.transactions,
      ran: ran.join("\n"),
    };
  };

  it("creates a thread with its first message in one statement once the project's version is known", async () => {
    const project = await runtime.projects.create({ name: "create", definitions: dialogueBundle(TURNS) });
    const create = () =>
      runtime.threads.create({ projectId: project.id, agentName: "dialogue", message: "go" });
    // The first creation of the project reads its current version and that version's definitions,
    // then writes in one statement.
    const first = await counted(create);
    expect(first.transactions, first.ran).toBe(0);
    expect(first.statements, first.ran).toBe(3);
    // Later ones check the version they remember inside that one statement.
    const later = await counted(create);
    expect(later.transactions, later.ran).toBe(0);
    expect(later.statements, later.ran).toBe(1);
  });

  it("queues a message and wakes its thread, with the thread's event, in one statement", async () => {
    const project = await runtime.projects.create({ name: "post", definitions: dialogueBundle(TURNS) });
    const { threadId } = await runtime.threads.create({ projectId: project.id, agentName: "dialogue" });
    const posted = await counted(() => runtime.threads.postMessage(threadId, { content: "go" }));
    expect(posted.transactions, posted.ran).toBe(0);
    expect(posted.statements, posted.ran).toBe(1);
    const [thread] = await opened.sql.query<{ status: string }>("SELECT status FROM threads WHERE id = $1", [
      threadId,
    ]);
    expect(thread?.status).toBe("queued");
  });
});

describe.each(testDatabaseBackends())("a thread this process makes runnable on %s", (backend) => {
  let opened: Database;
  let runtime: Runtime;
  let counters: ReturnType<typeof instrumentDatabase>["counters"];
  let statements: ReturnType<typeof instrumentDatabase>["statements"];
  /** Every id the runtime notified on WORK_CHANNEL (a NOTIFY wakes every scheduler to claim). */
  const notified: string[] = [];
  let stopListening: (() => Promise<void>) | null = null;

  beforeAll(async () => {
    opened = await openTestDatabase(backend);
    const instrumented = instrumentDatabase(opened);
    counters = instrumented.counters;
    statements = instrumented.statements;
    const saved = { poll: process.env.TANDEM_POLL_MS, lease: process.env.TANDEM_LEASE_MS };
    process.env.TANDEM_POLL_MS = "600000";
    process.env.TANDEM_LEASE_MS = "600000";
    try {
      runtime = createRuntime(instrumented.database);
    } finally {
      restore("TANDEM_POLL_MS", saved.poll);
      restore("TANDEM_LEASE_MS", saved.lease);
    }
    stopListening = await opened.notifications.listen(WORK_CHANNEL, (id) => notified.push(id));
    await runtime.scheduler.start();
  });
  afterAll(async () => {
    await stopListening?.();
    await runtime?.scheduler.stop();
    await opened?.close();
  });

  const waitForStatus = async (threadId: string, status: string) => {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const [row] = await opened.sql.query<{ status: string; lease_owner: string | null }>(
        "SELECT status, lease_owner FROM threads WHERE id = $1",
        [threadId],
      );
      if ((row?.status === status && row.lease_owner === null) || Date.now() > deadline) return row;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  const claims = () =>
    [...statements.entries()]
      .filter(([text]) => text === CLAIM_STATEMENT)
      .reduce((sum, [, entry]) => sum + entry.count, 0);
  const ran = () =>
    [...statements.entries()].map(([text, entry]) => `${entry.count}× ${text.slice(0, 60)}`).join("\n");
  /** Whether a statement sent since the last clear consumed input from the inbox (a drain). */
  const drained = () => [...statements.keys()].some((text) => text.includes("UPDATE inbox_items"));

  it("runs a new thread here at once: leased as it is created, no NOTIFY, no claim", async () => {
    const project = await runtime.projects.create({ name: "taken", definitions: dialogueBundle(TURNS) });
    // The project's version and definitions are read once, before counting.
    await runtime.threads.create({ projectId: project.id, agentName: "dialogue" });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const before = { ...counters };
    statements.clear();
    notified.length = 0;
    const { threadId } = await runtime.threads.create({
      projectId: project.id,
      agentName: "dialogue",
      message: "go",
    });
    const thread = await waitForStatus(threadId, "stopped");
    expect(thread?.status).toBe("stopped");
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(claims(), ran()).toBe(0);
    expect(notified).not.toContain(threadId);
    // The creation (its first message stored with it, so no drain; the insert returns the row's
    // version, so no read back), then one per step.
    expect(counters.transactions - before.transactions, ran()).toBe(0);
    expect(counters.statements - before.statements, ran()).toBe(1 + 2 * TURNS);
  });

  it("runs a posted message's idle thread here at once: stored and started by the post's one statement", async () => {
    const project = await runtime.projects.create({ name: "posted", definitions: chatBundle(4) });
    const { threadId } = await runtime.threads.create({
      projectId: project.id,
      agentName: "chat",
      message: "hi",
    });
    expect((await waitForStatus(threadId, "idle"))?.status).toBe("idle");
    await new Promise((resolve) => setTimeout(resolve, 100));
    const before = { ...counters };
    statements.clear();
    notified.length = 0;
    await runtime.threads.postMessage(threadId, { content: "again" });
    const thread = await waitForStatus(threadId, "idle");
    await new Promise((resolve) => setTimeout(resolve, 200));
    const [answers] = await opened.sql.query<{ count: number }>(
      "SELECT count(*)::int AS count FROM messages WHERE thread_id = $1 AND role = 'assistant'",
      [threadId],
    );
    expect(thread?.status).toBe("idle");
    expect(Number(answers?.count)).toBe(2);
    expect(claims(), ran()).toBe(0);
    expect(notified).not.toContain(threadId);
    // The post (which stored the message and started the run: the thread parked here, so nothing is
    // drained), then the turn's one step.
    expect(counters.transactions - before.transactions, ran()).toBe(0);
    expect(counters.statements - before.statements, ran()).toBe(2);
    expect(drained(), ran()).toBe(false);
  });

  it("drains a message posted to an idle thread that did not park here: the post, the drain, the step", async () => {
    const project = await runtime.projects.create({ name: "not parked here", definitions: chatBundle(4) });
    // Created without a message: idle, and it never ran in this process.
    const { threadId } = await runtime.threads.create({ projectId: project.id, agentName: "chat" });
    const before = { ...counters };
    statements.clear();
    notified.length = 0;
    await runtime.threads.postMessage(threadId, { content: "hello" });
    const thread = await waitForStatus(threadId, "idle");
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(thread?.status).toBe("idle");
    expect(claims(), ran()).toBe(0);
    // The post (which read the thread and its input as the step needs them), the drain that
    // consumes that input by id, then the turn's step.
    expect(counters.transactions - before.transactions, ran()).toBe(0);
    expect(counters.statements - before.statements, ran()).toBe(3);
    expect(drained(), ran()).toBe(true);
  });
});

// Postgres plans a prepared statement for the values given (a custom plan) until its cached generic
// plan is estimated to cost no more; a statement whose generic plan always looks dearer is planned
// again on every run. On one connection, the server's own count of the plans each statement used
// shows it. Postgres only: PGlite's client prepares no named statements.
describe.each(testDatabaseBackends().filter((backend) => backend === "postgres"))(
  "the plans Postgres keeps on %s",
  () => {
    let opened: Database;
    let drop: (() => Promise<void>) | null = null;
    let runtime: Runtime;

    beforeAll(async () => {
      const isolated = await createIsolatedDatabaseConfig();
      drop = isolated.drop;
      // One connection: the runtime's statements and the check of their plans share a session.
      opened = await openDatabase(isolated.config, { maxConnections: 1, groupCommit: false });
      runtime = createRuntime(opened);
      await runtime.scheduler.start();
    });
    afterAll(async () => {
      await runtime?.scheduler.stop();
      await opened?.close();
      await drop?.();
    });

    it("keeps the generic plan of a drain that consumes input read with the thread", async () => {
      const turns = 9;
      const project = await runtime.projects.create({ name: "plans", definitions: chatBundle(turns) });
      // Statistics of a database in use (thousands of items read long ago), so that the planner's
      // estimates for an array of ids differ from its estimate for one id as they do in production.
      const other = await runtime.threads.create({ projectId: project.id, agentName: "chat" });
      await opened.sql.query(
        `INSERT INTO inbox_items (id, thread_id, kind, payload, created_at, consumed_at)
         SELECT gen_random_uuid(), $1, 'message', '{}', 1, 1 FROM generate_series(1, 3000)`,
        [other.threadId],
      );
      await opened.sql.query("ANALYZE inbox_items");
      const answers = async (threadId: string) =>
        Number(
          (
            await opened.sql.query<{ count: number }>(
              "SELECT count(*)::int AS count FROM messages WHERE thread_id = $1 AND role = 'assistant'",
              [threadId],
            )
          )[0]?.count,
        );
      for (let turn = 1; turn <= turns; turn += 1) {
        // Posted to an idle thread that never ran here (a thread that parked here would have its
        // message stored by the post, with nothing to drain): the post reads its input, the drain
        // consumes it by id.
        const { threadId } = await runtime.threads.create({ projectId: project.id, agentName: "chat" });
        await runtime.threads.postMessage(threadId, { content: `question ${turn}` });
        const deadline = Date.now() + 30_000;
        while ((await answers(threadId)) < 1 && Date.now() < deadline)
          await new Promise((resolve) => setTimeout(resolve, 20));
        expect(await answers(threadId)).toBe(1);
        // The thread is handed back before the next post, so that post takes it here again.
        while (Date.now() < deadline) {
          const [row] = await opened.sql.query<{ lease_owner: string | null }>(
            "SELECT lease_owner FROM threads WHERE id = $1",
            [threadId],
          );
          if (row?.lease_owner === null) break;
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      }
      const plans = await opened.sql.query<{ generic_plans: number; custom_plans: number }>(
        `SELECT generic_plans::int, custom_plans::int FROM pg_prepared_statements
         WHERE statement LIKE '%UPDATE inbox_items%consumed_at = CASE WHEN tandem_expect%'`,
      );
      // Every turn's input was posted to an idle thread, so every turn drained it by id.
      const ran = plans.reduce((sum, row) => sum + Number(row.generic_plans) + Number(row.custom_plans), 0);
      expect(ran).toBe(turns);
      // The first five are always custom plans; after them the cached plan is kept.
      expect(plans.reduce((sum, row) => sum + Number(row.custom_plans), 0)).toBeLessThanOrEqual(5);
    });
  },
);

function restore(name: string, value: string | undefined): void {
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
}
