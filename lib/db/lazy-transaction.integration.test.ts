// LazyTransaction on each backend: deferred work commits as one statement, all or nothing; a read
// opens a real transaction that replays what was collected; parts that depend on each other run in
// a transaction as written.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabase, testDatabaseBackends } from "../../test/support/open-database";
import type { Database } from "./database";
import { LazyTransaction } from "./lazy-transaction";
import type { SqlClient, SqlStatement } from "./sql-client";

describe.each(testDatabaseBackends())("LazyTransaction on %s", (backend) => {
  let database: Database;
  /** The client, counting how work reaches it (our own client, only observed). */
  let client: SqlClient;
  let sent = { transactions: 0, sequences: 0 };

  beforeAll(async () => {
    database = await openTestDatabase(backend);
    await database.sql.exec(`
      CREATE TABLE lazy_items (id TEXT PRIMARY KEY, n INT NOT NULL);
      CREATE TABLE lazy_log (id SERIAL PRIMARY KEY, item TEXT NOT NULL);`);
    client = {
      ...database.sql,
      transaction: (work) => {
        sent.transactions += 1;
        return database.sql.transaction(work);
      },
      sequence: (statements) => {
        sent.sequences += 1;
        return database.sql.sequence(statements);
      },
      commitStatement: (part) => {
        sent.sequences += 1;
        return database.sql.commitStatement(part);
      },
    };
  });
  afterAll(async () => {
    await database?.close();
  });

  const itemCheck = (id: string, n: number): SqlStatement => ({
    text: "SELECT tandem_expect((SELECT n FROM lazy_items WHERE id = $1 FOR UPDATE) = $2::int, 'stale ' || $1)",
    params: [id, n],
  });
  const itemsNamed = async (prefix: string) =>
    database.sql.query<{ id: string; n: number }>(
      "SELECT id, n FROM lazy_items WHERE id LIKE $1 ORDER BY id",
      [`${prefix}%`],
    );
  const logOf = async (item: string) =>
    (await database.sql.query<{ item: string }>("SELECT item FROM lazy_log WHERE item = $1", [item])).length;

  it("commits deferred work as one statement, checks first, and reads back after it", async () => {
    await database.sql.query("INSERT INTO lazy_items (id, n) VALUES ('a-1', 1)");
    sent = { transactions: 0, sequences: 0 };
    const lazy = new LazyTransaction(client, [itemCheck("a-1", 1)]);
    await lazy.defer("UPDATE lazy_items SET n = n + 1 WHERE id = $1", ["a-1"]);
    await lazy.defer("INSERT INTO lazy_log (item) VALUES ($1)", ["a-1"]);
    expect(lazy.began).toBe(false);
    const {
      after: [read],
    } = await lazy.commit([{ text: "SELECT n FROM lazy_items WHERE id = $1", params: ["a-1"] }]);
    expect(sent).toEqual({ transactions: 0, sequences: 1 });
    expect(read).toEqual([{ n: 2 }]);
    expect(await itemsNamed("a-")).toEqual([{ id: "a-1", n: 2 }]);
    expect(await logOf("a-1")).toBe(1);
  });

  it("commits nothing when a check fails or a part fails", async () => {
    await database.sql.query("INSERT INTO lazy_items (id, n) VALUES ('b-1', 5)");
    const stale = new LazyTransaction(client, [itemCheck("b-1", 4)]);
    await stale.defer("UPDATE lazy_items SET n = 0 WHERE id = $1", ["b-1"]);
    await stale.defer("INSERT INTO lazy_log (item) VALUES ($1)", ["b-1"]);
    await expect(stale.commit()).rejects.toThrow("stale b-1");

    const failing = new LazyTransaction(client, [itemCheck("b-1", 5)]);
    await failing.defer("INSERT INTO lazy_log (item) VALUES ($1)", ["b-1"]);
    await failing.defer("UPDATE lazy_items SET n = n / 0 WHERE id = $1", ["b-1"]);
    await expect(failing.commit()).rejects.toThrow(/division by zero/);
    expect(await itemsNamed("b-")).toEqual([{ id: "b-1", n: 5 }]);
    expect(await logOf("b-1")).toBe(0);
  });

  it("opens a real transaction at the first read, replaying what was collected before it", async () => {
    sent = { transactions: 0, sequences: 0 };
    const lazy = new LazyTransaction(client, []);
    await lazy.defer("INSERT INTO lazy_items (id, n) VALUES ($1, 1)", ["c-1"]);
    const seen = await lazy.query<{ n: number }>("SELECT n FROM lazy_items WHERE id = $1", ["c-1"]);
    expect(seen).toEqual([{ n: 1 }]);
    expect(lazy.began).toBe(true);
    await lazy.defer("UPDATE lazy_items SET n = 2 WHERE id = $1", ["c-1"]);
    const {
      after: [read],
    } = await lazy.commit([{ text: "SELECT n FROM lazy_items WHERE id = $1", params: ["c-1"] }]);
    expect(read).toEqual([{ n: 2 }]);
    expect(sent).toEqual({ transactions: 1, sequences: 0 });
    expect(await itemsNamed("c-")).toEqual([{ id: "c-1", n: 2 }]);

    const undone = new LazyTransaction(client, []);
    await undone.defer("INSERT INTO lazy_items (id, n) VALUES ($1, 1)", ["c-2"]);
    await undone.query("SELECT 1");
    await undone.rollback(new Error("changed my mind"));
    expect(await itemsNamed("c-")).toEqual([{ id: "c-1", n: 2 }]);
  });

  it("runs parts that depend on each other in a transaction, in order", async () => {
    sent = { transactions: 0, sequences: 0 };
    const lazy = new LazyTransaction(client, []);
    await lazy.defer("INSERT INTO lazy_items (id, n) VALUES ($1, 1)", ["d-1"]);
    // Combined, this UPDATE would not see the row inserted beside it.
    await lazy.defer("UPDATE lazy_items SET n = 7 WHERE id = $1", ["d-1"]);
    await lazy.commit();
    expect(sent).toEqual({ transactions: 1, sequences: 0 });
    expect(await itemsNamed("d-")).toEqual([{ id: "d-1", n: 7 }]);
  });

  it("returns the rows of a returning part instead of sending the reads after it", async () => {
    await database.sql.query("INSERT INTO lazy_items (id, n) VALUES ('f-1', 1)");
    const returningUpdate = {
      text: "UPDATE lazy_items SET n = n + 1 WHERE id = $1 RETURNING id, n",
      params: ["f-1"],
      returnsRows: true,
      describes: { known: "to the caller" },
    };
    const read = { text: "SELECT n FROM lazy_items WHERE id = $1", params: ["f-1"] };
    // The check locks and reads the row the returning part then updates: it must run first, or it
    // would find the row already changed by this statement and fail.
    sent = { transactions: 0, sequences: 0 };
    const lazy = new LazyTransaction(client, [itemCheck("f-1", 1)]);
    await lazy.defer("UPDATE lazy_items SET n = n + 1 WHERE id = $1", ["f-1"], returningUpdate);
    await lazy.defer("INSERT INTO lazy_log (item) VALUES ($1)", ["f-1"]);
    const committed = await lazy.commit([read], { returnedInsteadOfAfter: true });
    expect(committed.returned).toEqual([{ id: "f-1", n: 2 }]);
    expect(committed.returnedFrom?.describes).toEqual({ known: "to the caller" });
    expect(committed.after).toEqual([[]]);
    expect(sent).toEqual({ transactions: 0, sequences: 1 });

    // Not asked for: the plain form goes out and the reads follow.
    const plain = new LazyTransaction(client, [itemCheck("f-1", 2)]);
    await plain.defer("UPDATE lazy_items SET n = n + 1 WHERE id = $1", ["f-1"], returningUpdate);
    expect(await plain.commit([read])).toEqual({ after: [[{ n: 3 }]], returned: null, returnedFrom: null });

    // A failing check still stops everything.
    const stale = new LazyTransaction(client, [itemCheck("f-1", 2)]);
    await stale.defer("UPDATE lazy_items SET n = n + 1 WHERE id = $1", ["f-1"], returningUpdate);
    await expect(stale.commit([read], { returnedInsteadOfAfter: true })).rejects.toThrow("stale f-1");
    expect(await itemsNamed("f-")).toEqual([{ id: "f-1", n: 3 }]);
    expect(await logOf("f-1")).toBe(1);
  });

  it("fails cleanly when the replay of its checks fails as it opens, and can be rolled back", async () => {
    await database.sql.query("INSERT INTO lazy_items (id, n) VALUES ('g-1', 1)");
    const lazy = new LazyTransaction(client, [itemCheck("g-1", 9)]);
    await lazy.defer("INSERT INTO lazy_log (item) VALUES ($1)", ["g-1"]);
    // The first read opens the transaction; the stale check fails it (on PGlite, during the replay).
    const failure = await lazy.query("SELECT 1").then(
      () => null,
      (error: unknown) => error,
    );
    expect(String(failure)).toContain("stale g-1");
    // Rolling back must not leave a rejection nobody handles (vitest fails the run on one).
    await lazy.rollback(failure);
    await expect(lazy.commit()).rejects.toThrow(/already committed or rolled back/);
    expect(await logOf("g-1")).toBe(0);
  });

  it("keeps a one-statement commit when a read after it fails, and commits once", async () => {
    const lazy = new LazyTransaction(client, []);
    await lazy.defer("INSERT INTO lazy_log (item) VALUES ($1)", ["h-1"]);
    const committed = await lazy.commit([
      { text: "SELECT 1 / 0 AS broken", params: [] },
      { text: "SELECT count(*)::int AS n FROM lazy_log WHERE item = $1", params: ["h-1"] },
    ]);
    expect(committed.after).toEqual([null, [{ n: 1 }]]);
    await expect(lazy.commit()).rejects.toThrow(/already committed or rolled back/);
    expect(await logOf("h-1")).toBe(1);
  });

  it("uses a statement's combined form only when combining", async () => {
    const combinedForm = { text: "INSERT INTO lazy_log (item) VALUES ($1 || '-combined')", params: ["e-1"] };
    const combined = new LazyTransaction(client, []);
    await combined.defer("INSERT INTO lazy_log (item) VALUES ($1)", ["e-1"], combinedForm);
    await combined.commit();
    const inTransaction = new LazyTransaction(client, []);
    await inTransaction.defer("INSERT INTO lazy_log (item) VALUES ($1)", ["e-2"], combinedForm);
    await inTransaction.query("SELECT 1");
    await inTransaction.commit();
    expect(await logOf("e-1-combined")).toBe(1);
    expect(await logOf("e-1")).toBe(0);
    expect(await logOf("e-2")).toBe(1);
  });
});
