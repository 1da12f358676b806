// Creating a thread (ThreadService.create) writes it in one statement without reading it back, and
// pins it to the version of the project this process last read, checked inside that statement. So:
// what the creation returns must be what was stored, and a remembered version that another process
// made stale (a publish, a deletion) must never pin a thread to an old version or turn a creation
// into a wrong answer. Two runtimes over one database stand for two processes. On each backend:
// PGlite always, Postgres too when DATABASE_URL names a server.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@/lib/db/database";
import type { Bundle } from "@/lib/standard";
import { chatBundle } from "@/test/support/bench-bundles";
import { openTestDatabase, testDatabaseBackends } from "../../test/support/open-database";
import { createRuntime, type Runtime } from "../runtime";
import { readEventsAfter } from "../store/event-log";
import { THREAD_COLUMNS, toThreadRow, toThreadView } from "../store/thread-row";

/** chatBundle with a second agent, "late", that only a later version has. */
function withLateAgent(): Bundle {
  const bundle = chatBundle(3);
  return { ...bundle, agents: [...bundle.agents, { ...bundle.agents[0]!, name: "late" }] };
}

/** `sql` that calls `after` once each read of a project's current version has answered. */
function afterEachVersionRead(sql: Database["sql"], after: () => void | Promise<void>): Database["sql"] {
  return new Proxy(sql, {
    get(target, property, receiver) {
      if (property !== "query") return Reflect.get(target, property, receiver);
      return async (text: string, params?: unknown[]) => {
        const rows = await target.query(text, params as never);
        if (text.startsWith("SELECT current_version FROM projects")) await after();
        return rows;
      };
    },
  });
}

describe.each(testDatabaseBackends())("thread creation on %s", (backend) => {
  let database: Database;
  let here: Runtime;
  let elsewhere: Runtime;

  beforeAll(async () => {
    database = await openTestDatabase(backend);
    here = createRuntime(database);
    elsewhere = createRuntime(database);
  });
  afterAll(async () => {
    await database?.close();
  });

  const storedVersion = async (threadId: string) =>
    Number(
      (
        await database.sql.query<{ project_version: number }>(
          "SELECT project_version FROM threads WHERE id = $1",
          [threadId],
        )
      )[0]?.project_version,
    );

  it("returns and announces the thread exactly as it was stored", async () => {
    const project = await here.projects.create({ name: "stored", definitions: chatBundle(3) });
    for (const input of [
      { projectId: project.id, agentName: "chat", message: "hello", name: "named", env: { REGION: "eu" } },
      { projectId: project.id, agentName: "chat" },
      {
        projectId: project.id,
        agentName: "chat",
        initialMessages: [{ role: "assistant" as const, content: "Welcome." }],
        message: "hi",
      },
    ]) {
      const created = await here.threads.create(input);
      const [raw] = await database.sql.query<Record<string, unknown>>(
        `SELECT ${THREAD_COLUMNS} FROM threads WHERE id = $1`,
        [created.threadId],
      );
      expect(raw).toBeDefined();
      const stored = toThreadView(toThreadRow(raw!));
      expect(created.thread).toEqual(stored);
      const { events } = await readEventsAfter(database.sql, created.threadId, 0);
      expect(events.find((event) => event.type === "thread")?.data).toEqual(stored);
    }
  });

  it("stores a first message with a thread this process runs: no drain, its input recorded consumed", async () => {
    const running = createRuntime(database);
    await running.scheduler.start();
    try {
      const project = await running.projects.create({ name: "taken", definitions: chatBundle(3) });
      const created = await running.threads.create({
        projectId: project.id,
        agentName: "chat",
        message: "hello",
      });
      // At once, before any step: the message is in the history (a human's, side B of a chat), the
      // run started on side A, and the input is in the inbox as consumed (what a replay reads).
      expect(created.thread.status).toBe("running");
      const [first] = await database.sql.query<{ seq: number; role: string; side: string; content: string }>(
        "SELECT seq, role, side, content FROM messages WHERE thread_id = $1 AND seq = 1",
        [created.threadId],
      );
      expect(first).toEqual({ seq: 1, role: "user", side: "b", content: "hello" });
      const inbox = await database.sql.query<{ consumed: boolean; external: string; created_at: string }>(
        "SELECT consumed_at IS NOT NULL AS consumed, payload->>'external' AS external FROM inbox_items WHERE thread_id = $1",
        [created.threadId],
      );
      expect(inbox).toEqual([{ consumed: true, external: "true" }]);
      const { events } = await readEventsAfter(database.sql, created.threadId, 0);
      expect(events.slice(0, 2).map((event) => event.type)).toEqual(["thread", "message"]);
      // Then the turn: one answer after the one question, nothing stored twice.
      for (let waited = 0; waited < 10_000; waited += 20) {
        const [row] = await database.sql.query<{ status: string }>(
          "SELECT status FROM threads WHERE id = $1",
          [created.threadId],
        );
        if (row?.status === "idle") break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      const messages = await database.sql.query<{ seq: number; role: string; content: string }>(
        "SELECT seq, role, content FROM messages WHERE thread_id = $1 ORDER BY seq",
        [created.threadId],
      );
      expect(messages).toEqual([
        { seq: 1, role: "user", content: "hello" },
        { seq: 2, role: "assistant", content: "Answer 1 to: hello" },
      ]);
      const [turn] = await database.sql.query<{ execution: unknown }>(
        "SELECT execution FROM threads WHERE id = $1",
        [created.threadId],
      );
      const execution = typeof turn?.execution === "string" ? JSON.parse(turn.execution) : turn?.execution;
      expect(execution).toMatchObject({ turnsB: 1, turnStartSeq: 1 });
    } finally {
      await running.scheduler.stop();
    }
  });

  it("pins a thread to the version another process published since this one last read it", async () => {
    const project = await here.projects.create({ name: "published", definitions: chatBundle(3) });
    const before = await here.threads.create({ projectId: project.id, agentName: "chat", message: "one" });
    expect(await storedVersion(before.threadId)).toBe(project.version);

    const saved = await elsewhere.projects.saveDefinitions(project.id, withLateAgent());
    expect(saved.version).toBeGreaterThan(project.version);
    const after = await here.threads.create({ projectId: project.id, agentName: "chat", message: "two" });
    expect(after.thread.version).toBe(saved.version);
    expect(await storedVersion(after.threadId)).toBe(saved.version);
    // An agent only the new version has is found, not refused on the remembered version.
    await elsewhere.projects.saveDefinitions(project.id, withLateAgent());
    const late = await here.threads.create({ projectId: project.id, agentName: "late", message: "three" });
    expect(late.thread.version).toBe(saved.version + 1);
  });

  it("finds an agent a newer version added, when the remembered version does not have it", async () => {
    const project = await here.projects.create({ name: "added", definitions: chatBundle(3) });
    await here.threads.create({ projectId: project.id, agentName: "chat", message: "one" });
    const saved = await elsewhere.projects.saveDefinitions(project.id, withLateAgent());
    const late = await here.threads.create({ projectId: project.id, agentName: "late", message: "two" });
    expect(late.thread.version).toBe(saved.version);
    expect(await storedVersion(late.threadId)).toBe(saved.version);
  });

  it("answers not found, creating nothing, for a project another process deleted", async () => {
    const project = await here.projects.create({ name: "deleted", definitions: chatBundle(3) });
    await here.threads.create({ projectId: project.id, agentName: "chat", message: "one" });
    await elsewhere.projects.delete(project.id);
    await expect(
      here.threads.create({ projectId: project.id, agentName: "chat", message: "two" }),
    ).rejects.toMatchObject({ code: "project_not_found" });
    const [left] = await database.sql.query<{ count: number }>(
      "SELECT count(*)::int AS count FROM threads WHERE project_id = $1",
      [project.id],
    );
    expect(Number(left?.count)).toBe(0);
  });

  it("still refuses an agent no version has, with the version remembered", async () => {
    const project = await here.projects.create({ name: "unknown", definitions: chatBundle(3) });
    await here.threads.create({ projectId: project.id, agentName: "chat", message: "one" });
    await expect(
      here.threads.create({ projectId: project.id, agentName: "nobody", message: "two" }),
    ).rejects.toMatchObject({ code: "agent_not_found" });
  });

  it("reads the version once for a burst of creations in a project this process has not read yet", async () => {
    const project = await here.projects.create({ name: "burst", definitions: chatBundle(3) });
    let reads = 0;
    const fresh = createRuntime({
      ...database,
      sql: afterEachVersionRead(database.sql, () => {
        reads += 1;
      }),
    });
    const created = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        fresh.threads.create({ projectId: project.id, agentName: "chat", message: `hello ${index}` }),
      ),
    );
    expect(reads).toBe(1);
    expect(new Set(created.map((thread) => thread.thread.version))).toEqual(new Set([project.version]));
    // A publish since: the next burst finds the remembered version stale and every creation is pinned
    // to the new one.
    const saved = await elsewhere.projects.saveDefinitions(project.id, chatBundle(3));
    const after = await Promise.all(
      Array.from({ length: 5 }, (_, index) =>
        fresh.threads.create({ projectId: project.id, agentName: "chat", message: `again ${index}` }),
      ),
    );
    for (const thread of after) expect(await storedVersion(thread.threadId)).toBe(saved.version);
  });

  it("answers a conflict, creating nothing, when a publish lands between every read and its creation", async () => {
    const project = await here.projects.create({ name: "busy", definitions: chatBundle(3) });
    // This process's database, where every read of the project's current version is followed by a
    // publish in another process before the creation that read it goes out.
    let reads = 0;
    const publishing = afterEachVersionRead(database.sql, async () => {
      reads += 1;
      await elsewhere.projects.saveDefinitions(project.id, chatBundle(3));
    });
    const busy = createRuntime({ ...database, sql: publishing });
    await expect(
      busy.threads.create({ projectId: project.id, agentName: "chat", message: "hello" }),
    ).rejects.toMatchObject({ kind: "conflict", code: "project_version_changed" });
    expect(reads).toBe(3);
    const [left] = await database.sql.query<{ count: number }>(
      "SELECT count(*)::int AS count FROM threads WHERE project_id = $1",
      [project.id],
    );
    expect(Number(left?.count)).toBe(0);
    // Once the publishing stops, the same request goes through.
    const created = await here.threads.create({ projectId: project.id, agentName: "chat", message: "hello" });
    expect(await storedVersion(created.threadId)).toBe(project.version + 3);
  });
});
