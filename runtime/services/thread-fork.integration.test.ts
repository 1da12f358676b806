// The cost of forking a wide subagent tree (docs/runtime.md "Fork and diff"): a fork of a run that
// fanned out to 200 one-off children copies all of them in one transaction with a constant number of
// statements — one multi-row statement per kind of row, not one per child — and in well under a
// second on a quiet machine. A change that copies child by child fails the statement count. On each
// backend: PGlite always, Postgres too when DATABASE_URL names a server.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@/lib/db/database";
import { instrumentDatabase } from "@/test/support/instrumented-database";
import { assetBundle } from "@/test/support/subagent-bundles";
import { openTestDatabase, testDatabaseBackends } from "../../test/support/open-database";
import { createRuntime, type Runtime } from "../runtime";

const CHILDREN = 200;

describe.each(testDatabaseBackends())("the fork of a %s-stored 200-child tree", (backend) => {
  let opened: Database;
  let runtime: Runtime;
  let instrumented: ReturnType<typeof instrumentDatabase>;

  beforeAll(async () => {
    opened = await openTestDatabase(backend);
    instrumented = instrumentDatabase(opened);
    runtime = createRuntime(instrumented.database);
    await runtime.scheduler.start();
  });
  afterAll(async () => {
    await runtime?.scheduler.stop();
    await opened?.close();
  });

  it("copies every child in one transaction with a constant number of statements", async () => {
    const project = await runtime.projects.create({
      name: "fan-out",
      definitions: assetBundle({
        config: { blocking: false },
        orchestratorScript: [
          {
            toolCalls: Array.from({ length: CHILDREN }, (_, index) => ({
              name: "asset_subagent",
              args: { message: `tile ${index}` },
            })),
          },
          { text: "all started" },
        ],
      }),
    });
    const { threadId } = await runtime.threads.create({
      projectId: project.id,
      agentName: "orchestrator",
      message: "tiles",
    });
    const deadline = Date.now() + 120_000;
    for (;;) {
      const [row] = await opened.sql.query<{ settled: number; root: string }>(
        `SELECT count(*) FILTER (WHERE status = 'completed')::int AS settled,
           (SELECT status FROM threads WHERE id = $1) AS root
         FROM threads WHERE parent_id = $1`,
        [threadId],
      );
      if (row && Number(row.settled) === CHILDREN && row.root === "idle") break;
      if (Date.now() > deadline) throw new Error(`the fan-out did not settle: ${JSON.stringify(row)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    // Only the fork's own statements are counted from here.
    await runtime.scheduler.stop();
    const { messages } = await runtime.threads.messages(threadId, { includeSilent: true });
    const calling = messages.find((message) => message.tool_calls !== null)!;

    const before = { ...instrumented.counters };
    const started = performance.now();
    const forked = await runtime.forks.fork(threadId, { atMessageId: calling.id });
    const elapsed = performance.now() - started;
    const statements = instrumented.counters.statements - before.statements;
    const transactions = instrumented.counters.transactions - before.transactions;
    console.info(
      `[${backend}] fork of a ${CHILDREN}-child tree: ${elapsed.toFixed(0)} ms, ${statements} statements, ` +
        `${forked.copied_threads} threads and ${forked.copied_messages} messages copied`,
    );
    expect(forked.copied_threads).toBe(CHILDREN);
    expect(transactions).toBe(1);
    expect(statements).toBeLessThanOrEqual(30);
    // Generous for a loaded CI machine; a quiet one takes a fraction of it (docs/runtime.md).
    expect(elapsed).toBeLessThan(5_000);
    const [copies] = await opened.sql.query<{ count: number }>(
      "SELECT count(*)::int AS count FROM threads WHERE parent_id = $1 AND forked_from_thread_id IS NOT NULL",
      [forked.threadId],
    );
    expect(Number(copies?.count)).toBe(CHILDREN);
  }, 180_000);
});
