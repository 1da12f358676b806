// The claim statement (`claim` in runtime/store/thread-scheduling.ts) on each backend: which threads it takes, in
// which order, and that it reads waiting threads from the queued_since index even when the table's
// statistics have not caught up with a burst of new threads (a fan-out), instead of reading and
// sorting every runnable thread on each claim.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@/lib/db/database";
import { openTestDatabase, testDatabaseBackends } from "@/test/support/open-database";
import { insertTestProject, newRootThread } from "@/test/support/thread-rows";
import { spawnThreads } from "./thread-lifecycle";
import { CLAIM_STATEMENT, claimRunnableThreads } from "./thread-scheduling";

const WAITING = 400;

describe.each(testDatabaseBackends())("the claim on %s", (backend) => {
  let database: Database;
  /** Every waiting thread, oldest queued_since first. */
  let waiting: string[];

  beforeAll(async () => {
    database = await openTestDatabase(backend);
    const projectId = await insertTestProject(database.sql);
    for (let batch = 0; batch < WAITING; batch += 100) {
      await spawnThreads(
        database.sql,
        Array.from({ length: 100 }, () => newRootThread(randomUUID(), projectId)),
      );
    }
    // Distinct waiting times in an order unrelated to the rows' insertion (their random ids).
    await database.sql.query(
      `UPDATE threads SET queued_since = ordered.position
       FROM (SELECT id, 1000 + row_number() OVER (ORDER BY id) AS position FROM threads) AS ordered
       WHERE threads.id = ordered.id`,
    );
    const rows = await database.sql.query<{ id: string }>(
      "SELECT id FROM threads WHERE runnable AND lease_owner IS NULL ORDER BY queued_since",
    );
    waiting = rows.map((row) => row.id);
  });
  afterAll(async () => {
    await database?.close();
  });

  it("reads the waiting threads from the queued_since index before any statistics exist", async () => {
    const plan = await database.sql.query<Record<string, string>>(`EXPLAIN ${CLAIM_STATEMENT}`, [
      "owner",
      "1000",
      [],
      8,
    ]);
    const text = plan.map((row) => Object.values(row).join("")).join("\n");
    expect(text).toContain("threads_queued_since_idx");
    // Not every waiting (or runnable) thread read and sorted, as the earlier claims did (on a
    // table this small, reading all of it for the outer join or the expired leases is fine).
    expect(text).not.toMatch(/Sort Key: threads(_\d+)?\.(queued_since|updated_at)/);
  });

  it("takes threads behind an expired lease first, then those waiting longest, and skips the excluded", async () => {
    expect(waiting).toHaveLength(WAITING);
    const expired = waiting.at(-1)!;
    await database.sql.query(
      "UPDATE threads SET lease_owner = 'a process that died', lease_expires_at = now() - interval '1 second' WHERE id = $1",
      [expired],
    );
    const first = await claimRunnableThreads(database.sql, {
      owner: "this process",
      leaseMs: 60_000,
      exclude: [waiting[1]!],
      limit: 4,
    });
    // The statement returns what it took in no particular order.
    expect(first.map((claimed) => claimed.id).sort()).toEqual(
      [expired, waiting[0]!, waiting[2]!, waiting[3]!].sort(),
    );
    expect(first.every((claimed) => claimed.read?.row.lease_owner === "this process")).toBe(true);

    const second = await claimRunnableThreads(database.sql, {
      owner: "this process",
      leaseMs: 60_000,
      exclude: [],
      limit: 2,
    });
    expect(second.map((claimed) => claimed.id).sort()).toEqual([waiting[1]!, waiting[4]!].sort());
    const held = await database.sql.query<{ count: number }>(
      "SELECT count(*)::int AS count FROM threads WHERE lease_owner = 'this process' AND queued_since IS NULL",
    );
    expect(Number(held[0]?.count)).toBe(6);
  });

  it("does not take a terminated thread", async () => {
    const next = waiting[5]!;
    // As the terminate transition leaves it: not runnable (so no longer waiting either).
    await database.sql.query("UPDATE threads SET terminated_at = 1, runnable = false WHERE id = $1", [next]);
    const claimed = await claimRunnableThreads(database.sql, {
      owner: "this process",
      leaseMs: 60_000,
      exclude: [],
      limit: 1,
    });
    expect(claimed.map((thread) => thread.id)).not.toContain(next);
  });
});
