// The runtime under group commit, on a Postgres server (docs/runtime.md "Group commit"): 40 dual_ai
// dialogues of 10 steps run at once, their step commits share transactions (far fewer groups than
// commits), and every step is there exactly once: one model-call row, one assistant message and one
// stop per thread, nothing lost or repeated.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, openDatabase } from "@/lib/db/database";
import { chatBundle, dialogueBundle } from "@/test/support/bench-bundles";
import { createIsolatedDatabaseConfig, testBackend } from "@/test/support/database";
import { createRuntime, type Runtime } from "./runtime";

const THREADS = 40;
const TURNS = 5; // 10 steps per thread

const onPostgres = testBackend() === "postgres";

// On the suite's backend: on PGlite (one connection) commits pass through ungrouped, and every step
// must still be there exactly once.
describe(`the runtime with group commit on ${testBackend()}`, () => {
  let database: Database;
  let runtime: Runtime;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    const isolated = await createIsolatedDatabaseConfig();
    drop = isolated.drop;
    // A Postgres test database is a copy of a migrated template; a PGlite one starts empty.
    database = await openDatabase(isolated.config, { groupCommit: true, migrate: !onPostgres });
    runtime = createRuntime(database);
  });
  afterAll(async () => {
    await runtime?.scheduler.stop();
    await database?.close();
    await drop?.();
  });

  it("runs many threads at once with shared commits, every step exactly once", async () => {
    const project = await runtime.projects.create({ name: "group", definitions: dialogueBundle(TURNS) });
    const ids: string[] = [];
    for (let index = 0; index < THREADS; index += 1) {
      const { threadId } = await runtime.threads.create({
        projectId: project.id,
        agentName: "dialogue",
        message: `go ${index}`,
      });
      ids.push(threadId);
    }
    const before = database.sql.commitStats();
    await runtime.scheduler.start();
    const deadline = Date.now() + 60_000;
    const stopped = async () =>
      (
        await database.sql.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM threads WHERE id = ANY($1::uuid[]) AND status = 'stopped'",
          [ids],
        )
      )[0]!.n;
    while ((await stopped()) < THREADS && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 25));
    expect(await stopped()).toBe(THREADS);

    const stats = database.sql.commitStats();
    const batches = stats.batches - before.batches;
    const parts = stats.parts - before.parts;
    if (onPostgres) {
      // Most of the 400 step commits went out in groups, far fewer groups than commits.
      expect(parts).toBeGreaterThan(THREADS * TURNS);
      expect(batches).toBeLessThan(parts / 2);
    } else {
      expect(stats).toMatchObject({ grouped: false, batches: 0, parts: 0 });
    }

    const perThread = await database.sql.query<{
      calls: number;
      replies: number;
      seqs: number;
      rows: number;
    }>(
      `SELECT
         (SELECT count(*)::int FROM model_calls c WHERE c.thread_id = t.id) AS calls,
         (SELECT count(*)::int FROM messages m WHERE m.thread_id = t.id AND m.role = 'assistant') AS replies,
         (SELECT count(DISTINCT seq)::int FROM messages m WHERE m.thread_id = t.id) AS seqs,
         (SELECT count(*)::int FROM messages m WHERE m.thread_id = t.id) AS rows
       FROM threads t WHERE t.id = ANY($1::uuid[])`,
      [ids],
    );
    for (const thread of perThread) {
      expect(thread.calls).toBe(TURNS * 2);
      expect(thread.seqs).toBe(thread.rows);
    }
  });
  it("groups messages posted at once to threads parked here, each stored and answered once", async () => {
    // Answers that take a while: the posts' commits are the only ones at that moment.
    const project = await runtime.projects.create({ name: "posts", definitions: chatBundle(2, 400) });
    await runtime.scheduler.start();
    const ids: string[] = [];
    for (let index = 0; index < THREADS; index += 1) {
      const { threadId } = await runtime.threads.create({
        projectId: project.id,
        agentName: "chat",
        message: `first ${index}`,
      });
      ids.push(threadId);
    }
    const count = async (sql: string) => (await database.sql.query<{ n: number }>(sql, [ids]))[0]!.n;
    const parkedIdle = () =>
      count(
        "SELECT count(*)::int AS n FROM threads WHERE id = ANY($1::uuid[]) AND status = 'idle' AND lease_owner IS NULL",
      );
    const deadline = Date.now() + 60_000;
    while ((await parkedIdle()) < THREADS && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 25));
    expect(await parkedIdle()).toBe(THREADS);

    const before = database.sql.commitStats();
    await Promise.all(
      ids.map((id, index) => runtime.threads.postMessage(id, { content: `second ${index}` })),
    );
    const stats = database.sql.commitStats();
    if (onPostgres) {
      // Each post was one commit (its message stored, its run started), most of them in groups.
      expect(stats.parts - before.parts + stats.alone - before.alone).toBe(THREADS);
      expect(stats.batches - before.batches).toBeLessThan(THREADS / 2);
    } else {
      expect(stats).toMatchObject({ grouped: false, batches: 0, parts: 0 });
    }
    const answered = () =>
      count(
        "SELECT count(*)::int AS n FROM messages WHERE thread_id = ANY($1::uuid[]) AND content LIKE 'Answer 2 to: second %'",
      );
    while ((await answered()) < THREADS && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 25));
    expect(await answered()).toBe(THREADS);
    // Every thread: its four messages, each once, in order.
    const rows = await database.sql.query<{ thread_id: string; contents: string[] }>(
      `SELECT thread_id, array_agg(content ORDER BY seq) AS contents FROM messages
       WHERE thread_id = ANY($1::uuid[]) GROUP BY thread_id`,
      [ids],
    );
    expect(rows).toHaveLength(THREADS);
    for (const row of rows) {
      const index = ids.indexOf(row.thread_id);
      expect(row.contents).toEqual([
        `first ${index}`,
        `Answer 1 to: first ${index}`,
        `second ${index}`,
        `Answer 2 to: second ${index}`,
      ]);
    }
  });
});
