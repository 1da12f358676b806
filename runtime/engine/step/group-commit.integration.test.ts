// Step commits of many threads under group commit, on a Postgres server (docs/runtime.md "Group
// commit"): speculative commits ready at the same moment share one transaction, and a thread whose
// lease was taken fails alone (LeaseLost) while its batch-mates commit, each exactly once.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, openDatabase } from "@/lib/db/database";
import { createIsolatedDatabaseConfig, testBackend } from "@/test/support/database";
import { insertTestProject, insertTestThread } from "@/test/support/thread-rows";
import { findThreadForStep, updateLockedThread } from "../../store/thread-store";
import { LeaseLost } from "./errors";
import { RunMemory } from "./run-memory";
import { ThreadCommitter } from "./thread-committer";

const THREADS = 12;
const VICTIM = 5;

const onPostgres = testBackend() === "postgres";

// On the suite's backend: on PGlite (one connection) nothing is grouped, and the stolen lease must
// still fail its own thread alone.
describe(`step commits under group commit on ${testBackend()}`, () => {
  let database: Database;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    const isolated = await createIsolatedDatabaseConfig();
    drop = isolated.drop;
    // A Postgres test database is a copy of a migrated template; a PGlite one starts empty.
    database = await openDatabase(isolated.config, { groupCommit: true, migrate: !onPostgres });
  });
  afterAll(async () => {
    await database?.close();
    await drop?.();
  });

  /** Threads leased to "me", each with a committer that knows its current version (speculates). */
  async function leasedThreads(count: number) {
    const projectId = await insertTestProject(database.sql);
    const ids: string[] = [];
    for (let index = 0; index < count; index += 1) ids.push(await insertTestThread(database.sql, projectId));
    await database.sql.query(
      "UPDATE threads SET lease_owner = 'me', lease_expires_at = now() + interval '1 hour' WHERE id = ANY($1::uuid[])",
      [ids],
    );
    const committers = await Promise.all(
      ids.map(async (id) => {
        const committer = new ThreadCommitter(database.sql, "me", new RunMemory(database.sql, {}), undefined);
        const found = await findThreadForStep(database.sql, id);
        if (!found) throw new Error("no thread");
        committer.expect(found);
        return committer;
      }),
    );
    return { ids, committers };
  }

  /** One step's commit of each thread, all started at once: a message and a status line. */
  function commitAll(ids: string[], committers: ThreadCommitter[], label: string) {
    return Promise.allSettled(
      ids.map((id, index) =>
        committers[index]!.commit(
          id,
          async (tx, row) => {
            await committers[index]!.insert(tx, id, [
              { role: "assistant", side: "a", content: `${label} ${id}` },
            ]);
            await updateLockedThread(tx, row, committers[index]!.withMessageSeq(id, { statusText: label }));
          },
          { speculate: true, readBack: true },
        ),
      ),
    );
  }

  async function messagesOf(id: string) {
    return database.sql.query<{ seq: number; content: string }>(
      "SELECT seq, content FROM messages WHERE thread_id = $1 ORDER BY seq",
      [id],
    );
  }

  it("shares transactions between threads; a thread whose lease was taken fails alone", async () => {
    const { ids, committers } = await leasedThreads(THREADS);
    const first = database.sql.commitStats();
    const round1 = await commitAll(ids, committers, "one");
    expect(round1.every((outcome) => outcome.status === "fulfilled")).toBe(true);
    const grouped = database.sql.commitStats();
    if (onPostgres) {
      expect(grouped.parts - first.parts).toBe(THREADS);
      expect(grouped.batches - first.batches).toBeLessThan(THREADS);
    } else {
      expect(grouped).toMatchObject({ grouped: false, batches: 0, parts: 0 });
    }

    // Another process took the victim's lease after its last commit (the committer's known version
    // is stale now): its speculative part fails its group, which goes again without it.
    await database.sql.query("UPDATE threads SET lease_owner = 'thief' WHERE id = $1", [ids[VICTIM]!]);
    const round2 = await commitAll(ids, committers, "two");
    const after = database.sql.commitStats();
    expect((round2[VICTIM] as PromiseRejectedResult).reason).toBeInstanceOf(LeaseLost);
    for (const [index, outcome] of round2.entries())
      if (index !== VICTIM)
        expect(outcome.status, String((outcome as PromiseRejectedResult).reason)).toBe("fulfilled");
    if (onPostgres) {
      expect(after.retried - grouped.retried).toBeGreaterThan(0);
      expect(after.fallbacks - grouped.fallbacks).toBe(0);
      expect(after.parts - grouped.parts).toBe(THREADS - 1);
    }

    // Every commit exactly once, numbered without gaps; nothing of the victim's second step.
    for (const [index, id] of ids.entries()) {
      const expected = index === VICTIM ? [`one ${id}`] : [`one ${id}`, `two ${id}`];
      expect((await messagesOf(id)).map((message) => message.content)).toEqual(expected);
      expect((await messagesOf(id)).map((message) => message.seq)).toEqual(expected.map((_, seq) => seq + 1));
    }
    const [victim] = await database.sql.query<{ status_text: string | null }>(
      "SELECT status_text FROM threads WHERE id = $1",
      [ids[VICTIM]!],
    );
    expect(victim?.status_text).toBe("one");
  });
});
