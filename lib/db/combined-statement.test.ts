import { describe, expect, it } from "vitest";
import { combineStatements, parseStatement } from "./combined-statement";

const check = {
  text: "SELECT tandem_expect((SELECT xmin::text FROM threads WHERE id = $1) = $2, 'stale')",
  params: ["t", "7"],
};

describe("combineStatements", () => {
  it("makes one statement whose checks are read first and whose parameters are renumbered", () => {
    const combined = combineStatements(
      [check],
      [
        { text: "INSERT INTO messages (id, content) VALUES ($1, $2)", params: ["m", "hello"] },
        { text: "UPDATE threads SET status = $2 WHERE id = $1", params: ["t", "idle"] },
      ],
    );
    expect(combined?.params).toEqual(["t", "7", "m", "hello", "t", "idle"]);
    expect(combined?.text).toBe(
      [
        "WITH p0 AS MATERIALIZED (SELECT tandem_expect((SELECT xmin::text FROM threads WHERE id = $1) = $2, 'stale')),",
        "p1 AS (INSERT INTO messages (id, content) VALUES ($3, $4)),",
        "p2 AS (UPDATE threads SET status = $6 WHERE id = $5)",
        "SELECT (SELECT count(*) FROM p0)",
      ].join("\n"),
    );
  });

  it("hoists a statement's own WITH queries under unique names, leaving literals and columns alone", () => {
    const events = {
      text: `WITH inserted AS (INSERT INTO events (data) VALUES ($2) RETURNING 1)
             SELECT pg_notify($1, 'inserted $1') FROM (SELECT count(*) FROM inserted) AS done`,
      params: ["channel", "{}"],
    };
    const message = {
      text: "WITH reserved AS (SELECT $1::int AS base) INSERT INTO messages (seq, inserted_at) SELECT reserved.base, 1 FROM reserved",
      params: [3],
    };
    const combined = combineStatements([], [message, events]);
    expect(combined?.params).toEqual([3, "channel", "{}"]);
    const text = combined?.text ?? "";
    expect(text).toContain("p0_reserved AS (SELECT $1::int AS base)");
    expect(text).toContain("SELECT p0_reserved.base, 1 FROM p0_reserved");
    expect(text).toContain("(seq, inserted_at)");
    expect(text).toContain("p1_inserted AS (INSERT INTO events (data) VALUES ($3) RETURNING 1)");
    expect(text).toContain(
      "SELECT pg_notify($2, 'inserted $1') FROM (SELECT count(*) FROM p1_inserted) AS done",
    );
    // The notifying SELECT is read (so it runs); the INSERT of messages runs unread.
    expect(text.endsWith("SELECT (SELECT count(*) FROM p1)")).toBe(true);
  });

  it("returns the rows of the part marked returnsRows, with the other reads as a filter read first", () => {
    const combined = combineStatements(
      [check],
      [
        { text: "INSERT INTO messages (id) VALUES ($1)", params: ["m"] },
        { text: "UPDATE threads SET n = 1 WHERE id = $1 RETURNING id", params: ["t"], returnsRows: true },
      ],
    );
    expect(combined?.text.endsWith("SELECT * FROM p2 WHERE (SELECT count(*) FROM p0) IS NOT NULL")).toBe(
      true,
    );
    expect(combined?.params).toEqual(["t", "7", "m", "t"]);
    const update = { text: "UPDATE threads SET n = 1 RETURNING id", params: [], returnsRows: true };
    expect(combineStatements([], [update])?.text.endsWith("SELECT * FROM p0")).toBe(true);
    // Only one part can be the result, and it must be a modification with RETURNING.
    expect(
      combineStatements([], [update, { ...update, text: "UPDATE messages SET n = 1 RETURNING id" }]),
    ).toBeNull();
    expect(combineStatements([], [{ text: "SELECT 1", params: [], returnsRows: true }])).toBeNull();
  });

  it("refuses parts that are not independent", () => {
    const insert = { text: "INSERT INTO messages (id) VALUES ($1)", params: ["m"] };
    // Two writers of one table: the second would not see the first's row.
    expect(
      combineStatements([], [insert, { text: "UPDATE messages SET seq = 1 WHERE id = $1", params: ["m"] }]),
    ).toBeNull();
    // A part reading a table another part writes.
    expect(
      combineStatements(
        [],
        [insert, { text: "UPDATE threads SET n = (SELECT count(*) FROM messages)", params: [] }],
      ),
    ).toBeNull();
    // A check may read what a part writes: it runs first.
    expect(combineStatements([check], [{ text: "UPDATE threads SET n = 1", params: [] }])).not.toBeNull();
    // Checks must not write.
    expect(combineStatements([insert], [])).toBeNull();
  });

  it("refuses shapes it does not rewrite", () => {
    for (const text of [
      "SELECT 1 -- a comment",
      "SELECT $$text$$",
      "WITH RECURSIVE r AS (SELECT 1) SELECT * FROM r",
      "WITH a AS MATERIALIZED (SELECT 1) SELECT * FROM a",
      "WITH a AS (WITH b AS (SELECT 1) SELECT * FROM b) SELECT * FROM a",
      "VACUUM events",
      "WITH a AS (SELECT 1 SELECT * FROM a",
      "UPDATE public.threads SET n = 1",
      'INSERT INTO "public"."threads" (n) VALUES (1)',
      "UPDATE threads SET name = E'it\\'s'",
    ])
      expect(combineStatements([], [{ text, params: [] }]), text).toBeNull();
    expect(combineStatements([], [])).toBeNull();
    // Parameters it does not use would shift every later statement's numbers.
    expect(combineStatements([], [{ text: "UPDATE threads SET n = $1", params: [1, 2] }])).toBeNull();
    expect(combineStatements([], [{ text: "UPDATE threads SET n = $1", params: [1] }])).not.toBeNull();
  });

  it("parses a statement's WITH list, its body and the tables it writes", () => {
    expect(
      parseStatement(
        "WITH updated AS (UPDATE threads SET a = ')' WHERE id = $1 RETURNING id) SELECT pg_notify('w', id::text) FROM updated;",
      ),
    ).toEqual({
      ctes: [{ name: "updated", body: "UPDATE threads SET a = ')' WHERE id = $1 RETURNING id" }],
      body: "SELECT pg_notify('w', id::text) FROM updated",
      kind: "select",
      modifies: ["threads"],
    });
  });
});
