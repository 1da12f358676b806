// Group commit on a real Postgres server (`commit-batcher.ts`): one-statement commits submitted at the
// same moment share one transaction, each keeps its own checks and outcome, and a part whose check
// or statement fails fails alone while its batch-mates commit, once. PGlite passes commits through.
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createIsolatedDatabaseConfig, testBackend } from "../../test/support/database";
import { type Database, openDatabase } from "./database";
import { LazyTransaction } from "./lazy-transaction";
import type { SqlStatement } from "./sql-client";

const TABLES = `
  CREATE TABLE batch_items (id TEXT PRIMARY KEY, n INT NOT NULL);
  CREATE TABLE batch_log (id SERIAL PRIMARY KEY, item TEXT NOT NULL, txid BIGINT NOT NULL DEFAULT txid_current())`;

const itemCheck = (id: string, n: number): SqlStatement => ({
  text: "SELECT tandem_expect((SELECT n FROM batch_items WHERE id = $1 FOR NO KEY UPDATE) = $2::int, 'stale ' || $1)",
  params: [id, n],
});

/**
 * One thread's step-like commit: check its item's version, bump it, log it; read the item back after.
 * `tree`: the root it belongs to (its place in a group is `tree/id`); by default its own.
 */
async function commitItem(database: Database, id: string, expected: number, failing = false, tree = id) {
  const lazy = new LazyTransaction(database.sql, [itemCheck(id, expected)], `${tree}/${id}`);
  await lazy.defer(`UPDATE batch_items SET n = n + ${failing ? "1 / 0" : "1"} WHERE id = $1`, [id]);
  await lazy.defer("INSERT INTO batch_log (item) VALUES ($1)", [id]);
  const committed = await lazy.commit([{ text: "SELECT n FROM batch_items WHERE id = $1", params: [id] }]);
  return committed.after[0];
}

// Only where the suite has a Postgres server (its Postgres leg); the embedded test below runs in both.
const onPostgresServer = testBackend() === "postgres" ? describe : () => {};

onPostgresServer("group commit on a Postgres server", () => {
  let database: Database;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    const isolated = await createIsolatedDatabaseConfig();
    drop = isolated.drop;
    database = await openDatabase(isolated.config, { groupCommit: true, migrate: false });
    await database.sql.exec(TABLES);
  });
  afterAll(async () => {
    await database?.close();
    await drop?.();
  });

  async function items(prefix: string, count: number): Promise<string[]> {
    const ids = Array.from({ length: count }, (_, index) => `${prefix}-${String(index).padStart(3, "0")}`);
    await database.sql.query("INSERT INTO batch_items (id, n) SELECT unnest($1::text[]), 0", [ids]);
    return ids;
  }
  const logged = async (prefix: string) =>
    database.sql.query<{ item: string; txid: string }>(
      "SELECT item, txid::text FROM batch_log WHERE item LIKE $1 ORDER BY item",
      [`${prefix}-%`],
    );
  const values = async (prefix: string) =>
    database.sql.query<{ id: string; n: number }>(
      "SELECT id, n FROM batch_items WHERE id LIKE $1 ORDER BY id",
      [`${prefix}-%`],
    );

  it("commits many threads' commits ready at once in far fewer transactions, each read back to its caller", async () => {
    const ids = await items("a", 40);
    const before = database.sql.commitStats();
    // Metrics out (`tandem.commit.batch_size`): told each transaction's size.
    const sizes: number[] = [];
    database.sql.observeCommitBatches((parts) => sizes.push(parts));
    const reads = await Promise.all(ids.map((id) => commitItem(database, id, 0)));
    database.sql.observeCommitBatches(null);
    expect(reads).toEqual(ids.map(() => [{ n: 1 }]));
    const after = database.sql.commitStats();
    expect(sizes.reduce((sum, parts) => sum + parts, 0)).toBe(40);
    expect(sizes.filter((parts) => parts > 1)).toHaveLength(after.batches - before.batches);
    expect(after.grouped).toBe(true);
    expect(after.parts - before.parts).toBe(40);
    expect(after.batches - before.batches).toBeGreaterThan(0);
    expect(after.batches - before.batches).toBeLessThan(40);
    // Every commit exactly once, and several of them in one transaction.
    const log = await logged("a");
    expect(log.map((row) => row.item)).toEqual(ids);
    expect(new Set(log.map((row) => row.txid)).size).toBeLessThan(40);
    expect(await values("a")).toEqual(ids.map((id) => ({ id, n: 1 })));
  });

  it("fails a part whose check is stale alone; its batch-mates commit once", async () => {
    const ids = await items("b", 20);
    const before = database.sql.commitStats();
    const outcomes = await Promise.allSettled(
      ids.map((id, index) => commitItem(database, id, index === 7 ? 5 : 0)),
    );
    const after = database.sql.commitStats();
    expect(String((outcomes[7] as PromiseRejectedResult).reason)).toContain("stale b-007");
    for (const [index, outcome] of outcomes.entries())
      if (index !== 7) expect(outcome).toEqual({ status: "fulfilled", value: [{ n: 1 }] });
    // The stale part failed its group, which went again without it, still as a group.
    expect(after.retried - before.retried).toBeGreaterThan(0);
    expect(after.fallbacks - before.fallbacks).toBe(0);
    expect(after.parts - before.parts).toBe(19);
    const others = ids.filter((_, index) => index !== 7);
    expect((await logged("b")).map((row) => row.item)).toEqual(others);
    expect(await values("b")).toEqual(ids.map((id, index) => ({ id, n: index === 7 ? 0 : 1 })));
  });

  it("runs a failed group's parts alone when a statement fails for another reason: only that part fails", async () => {
    const ids = await items("c", 20);
    const before = database.sql.commitStats();
    const outcomes = await Promise.allSettled(
      ids.map((id, index) => commitItem(database, id, 0, index === 3)),
    );
    const after = database.sql.commitStats();
    expect(String((outcomes[3] as PromiseRejectedResult).reason)).toMatch(/division by zero/);
    for (const [index, outcome] of outcomes.entries())
      if (index !== 3) expect(outcome).toEqual({ status: "fulfilled", value: [{ n: 1 }] });
    expect(after.fallbacks - before.fallbacks).toBeGreaterThan(0);
    const others = ids.filter((_, index) => index !== 3);
    expect((await logged("c")).map((row) => row.item)).toEqual(others);
    expect(await values("c")).toEqual(ids.map((id, index) => ({ id, n: index === 3 ? 0 : 1 })));
  });

  it("locks a group's rows ahead in one statement and runs each part's guard once; a stale part still fails alone", async () => {
    // A guard that counts its runs (a check may call a function: the combiner sees only its text).
    await database.sql.exec(`
      CREATE TABLE guard_runs (item TEXT NOT NULL);
      CREATE FUNCTION counted_guard(item TEXT, ok BOOLEAN) RETURNS BOOLEAN AS $$
      BEGIN INSERT INTO guard_runs VALUES (item); RETURN tandem_expect(ok, 'stale ' || item); END
      $$ LANGUAGE plpgsql`);
    const ids = await items("f", 24);
    const commit = async (id: string, expected: number) => {
      const check = {
        text: "SELECT counted_guard($1, (SELECT n FROM batch_items WHERE id = $1 FOR NO KEY UPDATE) = $2::int)",
        params: [id, expected],
      };
      const lazy = new LazyTransaction(database.sql, [check], id, {
        table: "batch_items",
        idType: "text",
        id,
      });
      await lazy.defer("UPDATE batch_items SET n = n + 1 WHERE id = $1", [id]);
      await lazy.defer("INSERT INTO batch_log (item) VALUES ($1)", [id]);
      return (await lazy.commit([{ text: "SELECT n FROM batch_items WHERE id = $1", params: [id] }]))
        .after[0];
    };
    const before = database.sql.commitStats();
    const outcomes = await Promise.allSettled(ids.map((id, index) => commit(id, index === 5 ? 9 : 0)));
    const after = database.sql.commitStats();
    expect(String((outcomes[5] as PromiseRejectedResult).reason)).toContain("stale f-005");
    for (const [index, outcome] of outcomes.entries())
      if (index !== 5) expect(outcome).toEqual({ status: "fulfilled", value: [{ n: 1 }] });
    expect(after.batches - before.batches).toBeGreaterThan(0);
    expect(after.fallbacks - before.fallbacks).toBe(0);
    const others = ids.filter((_, index) => index !== 5);
    expect((await logged("f")).map((row) => row.item)).toEqual(others);
    // Guard runs that committed: once per committed part (a guard run inside the part's statement
    // only), never a second time on its own first. A rolled-back group's runs are not there.
    const runs = await database.sql.query<{ item: string; runs: number }>(
      "SELECT item, count(*)::int AS runs FROM guard_runs WHERE item LIKE 'f-%' GROUP BY item ORDER BY item",
    );
    expect(runs).toEqual(others.map((item) => ({ item, runs: 1 })));
  });

  /** The transactions that logged the prefix's items: how many items each held, largest first. */
  const transactionSizes = async (prefix: string) =>
    [
      ...(await logged(prefix))
        .reduce(
          (sizes, row) => sizes.set(row.txid, (sizes.get(row.txid) ?? 0) + 1),
          new Map<string, number>(),
        )
        .values(),
    ].sort((one, other) => other - one);

  it("puts one tree's commits ready at once in one group, not spread over the connections", async () => {
    // 40 commits of one tree, 4 groups may be in flight: one transaction (spread, they would be four,
    // queueing on the tree's event lock one after another in Postgres).
    const ids = await items("t", 40);
    const reads = await Promise.all(ids.map((id) => commitItem(database, id, 0, false, "tree-t")));
    expect(reads).toEqual(ids.map(() => [{ n: 1 }]));
    expect(await transactionSizes("t")).toEqual([40]);
  });

  it("keeps two trees' commits in groups of their own, side by side", async () => {
    const ids = await items("u", 60);
    await Promise.all(
      ids.map((id, index) => commitItem(database, id, 0, false, index % 2 ? "tree-u1" : "tree-u2")),
    );
    const log = await logged("u");
    expect(await transactionSizes("u")).toEqual([30, 30]);
    // Each transaction holds one tree's items only.
    const treesOf = new Map<string, Set<number>>();
    for (const row of log) {
      const trees = treesOf.get(row.txid) ?? new Set<number>();
      trees.add(Number(row.item.slice(2)) % 2);
      treesOf.set(row.txid, trees);
    }
    expect([...treesOf.values()].map((trees) => trees.size)).toEqual([1, 1]);
  });

  it("sends a tree's commits past a group's size after its group, never beside it", async () => {
    // 100 of one tree, at most 64 to a group: 64, then the other 36 once the first group is done.
    const ids = await items("v", 100);
    const reads = await Promise.all(ids.map((id) => commitItem(database, id, 0, false, "tree-v")));
    expect(reads).toEqual(ids.map(() => [{ n: 1 }]));
    expect(await transactionSizes("v")).toEqual([64, 36]);
    // Not side by side: the log's ids (a sequence, taken as rows are inserted) do not interleave.
    const order = await database.sql.query<{ item: string; txid: string }>(
      "SELECT item, txid::text FROM batch_log WHERE item LIKE 'v-%' ORDER BY id",
    );
    const first = order[0]!.txid;
    expect(order.slice(0, 64).every((row) => row.txid === first)).toBe(true);
    expect(order.slice(64).every((row) => row.txid !== first)).toBe(true);
  });

  it("holds a tree's next commits while its group is in flight; other trees' go on", async () => {
    const ids = await items("h", 6);
    const [other] = await items("i", 1);
    let release = () => {};
    let locked = () => {};
    const isLocked = new Promise<void>((resolve) => {
      locked = resolve;
    });
    // Another session holds h-000's row: the tree's group waits in Postgres for it.
    const holder = database.sql.transaction(async (tx) => {
      await tx.query("SELECT n FROM batch_items WHERE id = 'h-000' FOR UPDATE");
      locked();
      await new Promise<void>((resolve) => {
        release = resolve;
      });
    });
    await isLocked;
    const first = commitItem(database, ids[0]!, 0, false, "tree-h");
    await new Promise((resolve) => setTimeout(resolve, 100));
    // Submitted while the tree's group is in flight (and stuck): the tree's wait, the other tree's not.
    let laterDone = false;
    const later = Promise.all(ids.slice(1).map((id) => commitItem(database, id, 0, false, "tree-h"))).then(
      (reads) => {
        laterDone = true;
        return reads;
      },
    );
    expect(await commitItem(database, other!, 0, false, "tree-i")).toEqual([{ n: 1 }]);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(laterDone).toBe(false);
    expect(await logged("h")).toEqual([]);
    release();
    await holder;
    expect(await first).toEqual([{ n: 1 }]);
    expect(await later).toEqual(ids.slice(1).map(() => [{ n: 1 }]));
    // Then the tree's waiting commits went together, after its first group.
    expect(await transactionSizes("h")).toEqual([5, 1]);
  });

  it("commits a lone commit alone, without a transaction around it", async () => {
    const [id] = await items("d", 1);
    const before = database.sql.commitStats();
    expect(await commitItem(database, id!, 0)).toEqual([{ n: 1 }]);
    const after = database.sql.commitStats();
    expect(after.alone - before.alone).toBe(1);
    expect(after.batches - before.batches).toBe(0);
  });
});

onPostgresServer("a group commit on the wire", () => {
  let database: Database;
  let drop: () => Promise<void>;
  const previous = process.env.TANDEM_GROUP_COMMIT_IN_FLIGHT;
  let writes = 0;
  const prototype = net.Socket.prototype as unknown as Record<
    "_write" | "_writev",
    (...args: unknown[]) => void
  >;
  const originals = { _write: prototype._write, _writev: prototype._writev };

  beforeAll(async () => {
    const isolated = await createIsolatedDatabaseConfig();
    drop = isolated.drop;
    // One group in flight: everything ready at once is one group, on one connection.
    process.env.TANDEM_GROUP_COMMIT_IN_FLIGHT = "1";
    database = await openDatabase(isolated.config, { groupCommit: true, migrate: false });
    await database.sql.exec(TABLES);
    // Writes as the streams hand them to the kernel (one system call each), as bench/socket-writes.ts.
    for (const method of ["_write", "_writev"] as const) {
      const original = originals[method];
      prototype[method] = function counted(this: net.Socket, ...args: unknown[]) {
        writes += 1;
        return original.apply(this, args);
      };
    }
  });
  afterAll(async () => {
    Object.assign(prototype, originals);
    if (previous === undefined) delete process.env.TANDEM_GROUP_COMMIT_IN_FLIGHT;
    else process.env.TANDEM_GROUP_COMMIT_IN_FLIGHT = previous;
    await database?.close();
    await drop?.();
  });

  it("sends a group of 48 commits with large statements (over 16 KiB, over 100 statements) in a few writes", async () => {
    const ids = Array.from({ length: 48 }, (_, index) => `w-${String(index).padStart(3, "0")}`);
    await database.sql.query("INSERT INTO batch_items (id, n) SELECT unnest($1::text[]), 0", [ids]);
    const padding = "x".repeat(2048);
    // Checks not locked ahead: 48 × (check, statement, read) + BEGIN + COMMIT = 146 statements.
    const commit = async (id: string, expected: number) => {
      const lazy = new LazyTransaction(database.sql, [itemCheck(id, expected)], id);
      await lazy.defer("UPDATE batch_items SET n = n + 1 WHERE id = $1 AND $2::text <> ''", [id, padding]);
      await lazy.defer("INSERT INTO batch_log (item) VALUES ($1)", [id]);
      return (await lazy.commit([{ text: "SELECT n FROM batch_items WHERE id = $1", params: [id] }]))
        .after[0];
    };
    // The first rounds prepare the statements on the connection (a first use waits for its description).
    for (let round = 0; round < 3; round += 1) await Promise.all(ids.map((id) => commit(id, round)));
    const before = { writes, stats: database.sql.commitStats() };
    expect(await Promise.all(ids.map((id) => commit(id, 3)))).toEqual(ids.map(() => [{ n: 4 }]));
    const after = database.sql.commitStats();
    expect(after.batches - before.stats.batches).toBe(1);
    expect(after.largest).toBe(48);
    // BEGIN … COMMIT and the reads in one write (the release and a stray write at most besides);
    // postgres.js sent the rest one statement per answer when the socket or its pipeline was full.
    expect(writes - before.writes).toBeLessThanOrEqual(3);
  });
});

// Its own in-memory PGlite, so it runs in both legs of the suite.
describe("group commit on the embedded database", () => {
  it("passes commits through: one connection has nothing to share", async () => {
    const database = await openDatabase({ kind: "pglite", dataDir: null }, { groupCommit: true });
    try {
      await database.sql.exec(TABLES);
      await database.sql.query("INSERT INTO batch_items (id, n) VALUES ('e-1', 0), ('e-2', 0)");
      expect(await Promise.all(["e-1", "e-2"].map((id) => commitItem(database, id, 0)))).toEqual([
        [{ n: 1 }],
        [{ n: 1 }],
      ]);
      expect(database.sql.commitStats()).toMatchObject({ grouped: false, batches: 0 });
    } finally {
      await database.close();
    }
  });
});
