// A case's thread and its result row go out as one statement (`createCaseThreadRows`): both or
// neither, and a second start of the same case (run, case, repetition) writes nothing and answers
// null, so the runner follows the thread that won. On each backend: PGlite always, the Postgres
// server too when DATABASE_URL names one.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@/lib/db/database";
import { openTestDatabase, testDatabaseBackends } from "../../test/support/open-database";
import { insertTestProject, newRootThread } from "../../test/support/thread-rows";
import { createCaseThreadRows, insertRun, insertSuite } from "./eval-store";
import { readEventsAfter } from "./event-log";

describe.each(testDatabaseBackends())("a case's thread and result row on %s", (backend) => {
  let database: Database;
  let projectId: string;
  let runId: string;

  beforeAll(async () => {
    database = await openTestDatabase(backend);
    projectId = await insertTestProject(database.sql);
    const suiteId = randomUUID();
    await insertSuite(database.sql, suiteId, projectId, {
      name: "suite",
      agentId: "agent",
      assertions: [],
      cases: [],
    });
    runId = randomUUID();
    await insertRun(database.sql, {
      id: runId,
      suiteId,
      projectId,
      version: 1,
      repetitions: 2,
      concurrency: 1,
      plan: { suite_name: "suite", agent_id: "agent", assertions: [], cases: [] },
      leaseOwner: "test",
      leaseMs: 60_000,
    });
  });
  afterAll(async () => {
    await database?.close();
  });

  const threadCount = async (id: string) =>
    Number(
      (
        await database.sql.query<{ n: number }>("SELECT count(*)::int AS n FROM threads WHERE id = $1", [id])
      )[0]?.n,
    );

  /** Starts repetition `repetition` of case `caseId` of `run` as the thread `threadId`. */
  const startCase = (threadId: string, caseId: string, repetition: number, run = runId) =>
    createCaseThreadRows(database.sql, newRootThread(threadId, projectId), {
      id: randomUUID(),
      runId: run,
      caseId,
      repetition,
    });

  it("writes the thread, its event and the result row together; a second start of the case writes nothing", async () => {
    const caseId = randomUUID();
    const first = randomUUID();
    const row = await startCase(first, caseId, 0);
    expect(row?.id).toBe(first);
    expect(row?.status).toBe("idle");
    expect(await threadCount(first)).toBe(1);
    const { events } = await readEventsAfter(database.sql, first, 0);
    expect(events.map((event) => event.type)).toEqual(["thread"]);
    const results = await database.sql.query<{ thread_id: string; state: string }>(
      "SELECT thread_id, state FROM eval_results WHERE run_id = $1 AND case_id = $2",
      [runId, caseId],
    );
    expect(results).toEqual([{ thread_id: first, state: "running" }]);

    // The same case and repetition again (a second start that lost the race): null, and no thread.
    const second = randomUUID();
    const again = await startCase(second, caseId, 0);
    expect(again).toBeNull();
    expect(await threadCount(second)).toBe(0);
    expect((await readEventsAfter(database.sql, second, 0)).events).toEqual([]);

    // Another repetition of the same case is another row.
    const third = randomUUID();
    expect(await startCase(third, caseId, 1)).not.toBeNull();
  });

  it("fails as a whole, writing nothing, on any other error", async () => {
    const id = randomUUID();
    // No such run: the result row's foreign key fails the statement.
    await expect(startCase(id, randomUUID(), 0, randomUUID())).rejects.toThrow(/foreign key/);
    expect(await threadCount(id)).toBe(0);
  });
});
