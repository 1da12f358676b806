// A lease renewal that moves a thread's row while one of its speculative commits is on its way: the
// renewal changed only the lease's expiry and recorded the move (`renewLeases` in
// runtime/store/thread-scheduling.ts), so the commit's version check (`threadVersionCheck`) accepts
// the copy read before it and the commit goes through on its first try. Any other write to the row,
// before or after the renewal, still fails the check, and the commit is made again under a lock
// read. Deterministic: the work itself makes the writes happen between taking its copy of the row
// and its check.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@/lib/db/database";
import { openTestDatabase, testDatabaseBackends } from "@/test/support/open-database";
import { insertTestProject, insertTestThread } from "@/test/support/thread-rows";
import { renewLeases } from "../../store/thread-scheduling";
import { findThreadForStep, updateLockedThread } from "../../store/thread-store";
import { RunMemory } from "./run-memory";
import { ThreadCommitter } from "./thread-committer";

type Write = "renewal" | "other write";

describe.each(testDatabaseBackends())("a speculative commit across a lease renewal on %s", (backend) => {
  let database: Database;

  beforeAll(async () => {
    database = await openTestDatabase(backend);
  });
  afterAll(async () => {
    await database?.close();
  });

  async function leasedThread() {
    const projectId = await insertTestProject(database.sql);
    const id = await insertTestThread(database.sql, projectId);
    await database.sql.query(
      "UPDATE threads SET lease_owner = 'me', lease_expires_at = now() + interval '1 hour' WHERE id = $1",
      [id],
    );
    const committer = new ThreadCommitter(database.sql, "me", new RunMemory(database.sql, {}), undefined);
    const found = await findThreadForStep(database.sql, id);
    if (!found) throw new Error("no thread");
    committer.expect(found);
    return { id, committer, version: found.version };
  }

  async function versionOf(id: string): Promise<string> {
    const [row] = await database.sql.query<{ version: string }>(
      "SELECT xmin::text AS version FROM threads WHERE id = $1",
      [id],
    );
    if (!row) throw new Error("no thread");
    return row.version;
  }

  /** The scheduler's renewal (a new expiry, so a new row version), or a write of another kind. */
  async function write(id: string, kind: Write): Promise<void> {
    if (kind === "renewal") {
      const renewed = await renewLeases(database.sql, { owner: "me", leaseMs: 7_200_000, threadIds: [id] });
      expect(renewed).toEqual([{ id, renewed: true }]);
    } else {
      // What queued input does to the row (runtime/store/thread-lifecycle.ts `queueInputAndWake`).
      await database.sql.query("UPDATE threads SET runnable = true WHERE id = $1", [id]);
    }
  }

  /**
   * One commit (a message and a status line) whose first try makes `writes` happen first, in order.
   * Returns how each try read the row (a lock read passes no `read`).
   */
  async function commitAcross(writes: readonly Write[]) {
    const { id, committer, version } = await leasedThread();
    const tries: { read: string | null }[] = [];
    await committer.commit(
      id,
      async (tx, row, read) => {
        tries.push({ read: read?.version ?? null });
        if (tries.length === 1) {
          for (const kind of writes) await write(id, kind);
          expect(await versionOf(id)).not.toBe(version);
        }
        await committer.insert(tx, id, [{ role: "assistant", side: "a", content: "reply" }]);
        await updateLockedThread(tx, row, committer.withMessageSeq(id, { statusText: "replied" }));
      },
      { speculate: true, readBack: true },
    );
    const messages = await database.sql.query<{ content: string }>(
      "SELECT content FROM messages WHERE thread_id = $1",
      [id],
    );
    const [thread] = await database.sql.query<{ status_text: string | null; runnable: boolean }>(
      "SELECT status_text, runnable FROM threads WHERE id = $1",
      [id],
    );
    return { tries, version, messages: messages.map((message) => message.content), thread };
  }

  for (const writes of [["renewal"], ["renewal", "renewal", "renewal"]] as const) {
    it(`goes through on its first try, speculatively, across ${writes.length} renewal(s)`, async () => {
      const { tries, version, messages, thread } = await commitAcross(writes);
      expect(tries).toEqual([{ read: version }]);
      expect(messages).toEqual(["reply"]);
      expect(thread?.status_text).toBe("replied");
    });
  }

  for (const writes of [["other write"], ["renewal", "other write"], ["other write", "renewal"]] as const) {
    it(`is made again under a lock read when the row also had another write (${writes.join(", then ")})`, async () => {
      const { tries, version, messages, thread } = await commitAcross(writes);
      // The first try checked the version it had, which the other write had moved on: it rolled back.
      expect(tries).toEqual([{ read: version }, { read: null }]);
      // Committed once, on the row as the other write left it.
      expect(messages).toEqual(["reply"]);
      expect(thread).toEqual({ status_text: "replied", runnable: true });
    });
  }
});
