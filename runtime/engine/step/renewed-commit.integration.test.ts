// A lease renewal that moves a thread's row while one of its speculative commits is on its way
// (runtime/engine/step/thread-committer.ts, `leaseRenewing` / `leaseRenewed`): the renewal changed
// only the lease's expiry, so the commit goes again speculatively on the version the renewal left,
// not under a lock read. Deterministic: the work itself makes the renewal happen between taking its
// copy of the row and its check.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@/lib/db/database";
import { openTestDatabase, testDatabaseBackends } from "@/test/support/open-database";
import { insertTestProject, insertTestThread } from "@/test/support/thread-rows";
import { findThreadForStep, updateLockedThread } from "../../store/thread-store";
import { RunMemory } from "./run-memory";
import { ThreadCommitter } from "./thread-committer";

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

  /** What the scheduler's renewal statement does to one row: a new expiry, so a new row version. */
  async function renew(id: string): Promise<{ from: string; to: string }> {
    const [before] = await database.sql.query<{ version: string }>(
      "SELECT xmin::text AS version FROM threads WHERE id = $1",
      [id],
    );
    const [after] = await database.sql.query<{ version: string }>(
      `UPDATE threads SET lease_expires_at = now() + interval '2 hours' WHERE id = $1
       RETURNING xmin::text AS version`,
      [id],
    );
    if (!before || !after) throw new Error("no thread");
    return { from: before.version, to: after.version };
  }

  /**
   * One commit (a message and a status line) whose first try makes a renewal happen first; `report`
   * tells the committer of the move the way the scheduler does. Returns how each try read the row.
   */
  async function commitAcrossRenewal(report: "before its check" | "after its check fails") {
    const { id, committer, version } = await leasedThread();
    const tries: { read: string | null }[] = [];
    let settle = () => {};
    const settled = new Promise<void>((resolve) => {
      settle = resolve;
    });
    if (report === "after its check fails") committer.leaseRenewing(settled);
    await committer.commit(
      id,
      async (tx, row, read) => {
        tries.push({ read: read?.version ?? null });
        if (tries.length === 1) {
          const moved = await renew(id);
          expect(moved.from).toBe(version);
          if (report === "before its check") committer.leaseRenewed(id, moved.from, moved.to);
          else
            setTimeout(() => {
              committer.leaseRenewed(id, moved.from, moved.to);
              settle();
            }, 30);
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
    const [thread] = await database.sql.query<{ status_text: string | null }>(
      "SELECT status_text FROM threads WHERE id = $1",
      [id],
    );
    return { tries, version, messages: messages.map((message) => message.content), thread };
  }

  for (const report of ["before its check", "after its check fails"] as const) {
    it(`tries again on the renewed version, without a lock read (renewal reported ${report})`, async () => {
      const { tries, version, messages, thread } = await commitAcrossRenewal(report);
      // The first try checked the version it had, which the renewal had moved on: it rolled back.
      // The second went speculatively on the renewed version (a lock read would pass no `read`).
      expect(tries).toHaveLength(2);
      expect(tries[0]?.read).toBe(version);
      expect(tries[1]?.read).not.toBeNull();
      expect(tries[1]?.read).not.toBe(version);
      // Committed once.
      expect(messages).toEqual(["reply"]);
      expect(thread?.status_text).toBe("replied");
    });
  }
});
