// Messages stored with a thread's run started, not drained (a thread created with its first message,
// a message posted to a thread parked here), are announced to after_create_message by the thread's
// next step, as drained input is. The announcement travels with the taken thread to its run
// (`TakenThread.announce`), so caches bounded to one entry, which drop every entry but the newest
// before the runs take them, lose none. On each backend: PGlite always, Postgres too when
// DATABASE_URL names a server.
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@/lib/db/database";
import type { Bundle } from "@/lib/standard";
import { chatBundle } from "@/test/support/bench-bundles";
import { openTestDatabase, testDatabaseBackends } from "../../test/support/open-database";
import { createRuntime, type Runtime } from "../runtime";

const EXTENSIONS = path.resolve(__dirname, "../../test/extensions");
const THREADS = 6;
const ONE_ENTRY = { entries: 1, bytes: 1024 ** 2 };

/** The benchmark chat, with the test hook that writes /hooklog/<seq>-<role>.txt per created message. */
function loggedChat(): Bundle {
  const bundle = chatBundle(4);
  return { ...bundle, agents: bundle.agents.map((agent) => ({ ...agent, hooks: ["log_created"] })) };
}

describe.each(testDatabaseBackends())(
  "messages stored with the run started are announced on %s",
  (backend) => {
    let database: Database;
    let runtime: Runtime;
    let projectId: string;

    beforeAll(async () => {
      process.env.TANDEM_EXTENSIONS_DIR = EXTENSIONS;
      (globalThis as { __tandemExtensions?: unknown }).__tandemExtensions = undefined;
      database = await openTestDatabase(backend);
      runtime = createRuntime(database, { parkedCacheLimits: ONE_ENTRY, spawnedCacheLimits: ONE_ENTRY });
      await runtime.scheduler.start();
      projectId = (await runtime.projects.create({ name: "announced", definitions: loggedChat() })).id;
    });
    afterAll(async () => {
      await runtime?.scheduler.stop();
      await database?.close();
    });

    const hookLog = async (threadId: string) =>
      (await runtime.files.list(threadId, "/hooklog")).map((file) => file.path).sort();
    /** Waits until every thread's hook log lists `expected` (hooks run after the commits they follow). */
    const logsReach = async (threadIds: readonly string[], expected: string[]) => {
      let logs: string[][] = [];
      for (let waited = 0; waited < 15_000; waited += 25) {
        logs = await Promise.all(threadIds.map(hookLog));
        if (logs.every((log) => expected.every((file) => log.includes(file)))) break;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      return logs;
    };
    const idle = async (threadIds: readonly string[]) => {
      for (let waited = 0; waited < 15_000; waited += 25) {
        const rows = await database.sql.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM threads WHERE id = ANY($1::uuid[]) AND status = 'idle' AND lease_owner IS NULL",
          [threadIds],
        );
        if (rows[0]?.n === threadIds.length) return;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      throw new Error("the threads did not park");
    };

    it("announces each thread's first message, stored with the thread, though the cache kept one", async () => {
      const created = await Promise.all(
        Array.from({ length: THREADS }, (_, index) =>
          runtime.threads.create({ projectId, agentName: "chat", message: `hello ${index}` }),
        ),
      );
      const threadIds = created.map((thread) => thread.threadId);
      // Stored with the thread (no drain): the answer shows it running with its message.
      const [stored] = await database.sql.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM inbox_items WHERE thread_id = ANY($1::uuid[]) AND consumed_at IS NULL",
        [threadIds],
      );
      expect(stored?.n).toBe(0);
      await idle(threadIds);
      const logs = await logsReach(threadIds, ["/hooklog/1-user.txt", "/hooklog/2-assistant.txt"]);
      for (const log of logs) expect(log).toEqual(["/hooklog/1-user.txt", "/hooklog/2-assistant.txt"]);
    });

    it("announces every message posted to parked threads at once, whichever way it was stored", async () => {
      const created = await Promise.all(
        Array.from({ length: THREADS }, (_, index) =>
          runtime.threads.create({ projectId, agentName: "chat", message: `hi ${index}` }),
        ),
      );
      const threadIds = created.map((thread) => thread.threadId);
      await idle(threadIds);
      await Promise.all(
        threadIds.map((threadId) => runtime.threads.postMessage(threadId, { content: "again" })),
      );
      await idle(threadIds);
      const expected = [
        "/hooklog/1-user.txt",
        "/hooklog/2-assistant.txt",
        "/hooklog/3-user.txt",
        "/hooklog/4-assistant.txt",
      ];
      const logs = await logsReach(threadIds, expected);
      for (const log of logs) expect(log).toEqual(expected);
    });
  },
);
