// MessageTotals on a real database (PGlite, and the Postgres server when DATABASE_URL names one): a
// message list's total is counted from where it was counted last, and stays exact through appends,
// silent and nested messages, in-place rewrites (a silent flag flipped, a message deleted) and
// messages appended past what was counted.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@/lib/db/database";
import type { SqlExecutor } from "@/lib/db/sql-client";
import { openTestDatabase, testDatabaseBackends } from "../../test/support/open-database";
import { insertTestProject, insertTestThread } from "../../test/support/thread-rows";
import { deleteMessageWithResults, rewriteMessage } from "./message-edits";
import {
  bumpMessageSeq,
  insertMessages,
  type NewMessage,
  readMessageList,
  readMessages,
} from "./message-store";
import { MessageTotals } from "./message-totals";

describe.each(testDatabaseBackends())("message list totals on %s", (backend) => {
  let database: Database;
  let projectId: string;

  beforeAll(async () => {
    database = await openTestDatabase(backend);
    projectId = await insertTestProject(database.sql);
  });
  afterAll(async () => {
    await database?.close();
  });

  /** The lower bounds the totals asked Postgres to count from (the last argument of each count). */
  function recording(db: SqlExecutor): { db: SqlExecutor; countedFrom: number[] } {
    const countedFrom: number[] = [];
    return {
      countedFrom,
      db: {
        ...db,
        query: (text, params) => {
          if (text.includes("tandem_message_total")) countedFrom.push(Number(params?.[3]));
          return db.query(text, params);
        },
      },
    };
  }

  const FILTERS = [
    { includeSilent: false, maxDepth: 0 },
    { includeSilent: true, maxDepth: 0 },
    { includeSilent: false, maxDepth: 3 },
  ];

  async function counted(threadId: string, filter: (typeof FILTERS)[number]): Promise<number> {
    const conditions = ["thread_id = $1", `depth <= ${filter.maxDepth}`];
    if (!filter.includeSilent) conditions.push("silent = false");
    const [row] = await database.sql.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM messages WHERE ${conditions.join(" AND ")}`,
      [threadId],
    );
    return Number(row?.n);
  }

  async function append(threadId: string, messages: NewMessage[]) {
    return database.sql.transaction((tx) => insertMessages(tx, threadId, messages));
  }

  it("counts only the messages appended since it last counted, and stays exact", async () => {
    const threadId = await insertTestThread(database.sql, projectId);
    const totals = new MessageTotals();
    const { db, countedFrom } = recording(database.sql);
    for (let round = 0; round < 6; round += 1) {
      await append(threadId, [
        { role: "user", side: "b", content: `q${round}` },
        { role: "assistant", side: "a", content: `a${round}`, silent: round % 2 === 0 },
        { role: "user", side: null, content: `sub${round}`, depth: 1 },
      ]);
      for (const filter of FILTERS) {
        const list = await readMessageList(db, threadId, { ...filter, limit: 2 }, totals);
        expect(list?.total).toBe(await counted(threadId, filter));
        expect(list?.messages).toHaveLength(Math.min(2, list?.total ?? 0));
      }
    }
    // The first count of each filter starts from nothing; every later one from the last message_seq.
    expect(countedFrom.slice(0, 3)).toEqual([0, 0, 0]);
    expect(countedFrom.slice(3).every((from) => from > 0)).toBe(true);
  });

  it("reads each page as the plain query does, for every filter, offset and limit", async () => {
    const threadId = await insertTestThread(database.sql, projectId);
    const totals = new MessageTotals();
    await append(
      threadId,
      Array.from({ length: 30 }, (_, index) => ({
        role: "user" as const,
        side: "b" as const,
        content: `m${index}`,
        silent: index % 4 === 1,
        depth: index % 5 === 2 ? 1 + (index % 3) : 0,
      })),
    );
    for (const filter of FILTERS) {
      for (const [offset, limit] of [
        [0, 5],
        [3, 7],
        [20, 50],
        [40, 5],
      ] as const) {
        const plain = await readMessages(database.sql, threadId, { ...filter, offset, limit });
        const list = await readMessageList(database.sql, threadId, { ...filter, offset, limit }, totals);
        // The same messages, field for field (nothing of the count's columns mixed in).
        expect(list).toEqual(plain);
      }
    }
  });

  it("keeps the right total when reads of one list overlap", async () => {
    const threadId = await insertTestThread(database.sql, projectId);
    const totals = new MessageTotals();
    const visible = { includeSilent: false, maxDepth: 0 };
    await append(threadId, [{ role: "user", side: "b", content: "first" }]);
    expect((await readMessageList(database.sql, threadId, visible, totals))?.total).toBe(1);
    for (let round = 1; round <= 3; round += 1) {
      await append(threadId, [
        { role: "user", side: "b", content: `q${round}` },
        { role: "assistant", side: "a", content: `a${round}` },
      ]);
      const expected = await counted(threadId, visible);
      // Both start from the same remembered count before either settles.
      const both = await Promise.all([
        readMessageList(database.sql, threadId, visible, totals),
        readMessageList(database.sql, threadId, visible, totals),
      ]);
      expect(both.map((list) => list?.total)).toEqual([expected, expected]);
      expect((await readMessageList(database.sql, threadId, visible, totals))?.total).toBe(expected);
    }
  });

  it("counts anew after a message is deleted or its silent flag changes", async () => {
    const threadId = await insertTestThread(database.sql, projectId);
    const totals = new MessageTotals();
    const stored = await append(
      threadId,
      Array.from({ length: 8 }, (_, index) => ({
        role: "user" as const,
        side: "b" as const,
        content: `m${index}`,
      })),
    );
    const visible = { includeSilent: false, maxDepth: 0 };
    expect((await readMessageList(database.sql, threadId, visible, totals))?.total).toBe(8);
    await database.sql.transaction(async (tx) => {
      await deleteMessageWithResults(tx, threadId, stored[2]!.id, []);
      await bumpMessageSeq(tx, threadId);
    });
    expect((await readMessageList(database.sql, threadId, visible, totals))?.total).toBe(7);
    await database.sql.transaction(async (tx) => {
      await rewriteMessage(tx, threadId, { ...stored[4]!, silent: true });
      await bumpMessageSeq(tx, threadId);
    });
    expect((await readMessageList(database.sql, threadId, visible, totals))?.total).toBe(6);
    await append(threadId, [{ role: "user", side: "b", content: "after" }]);
    expect((await readMessageList(database.sql, threadId, visible, totals))?.total).toBe(7);
    expect(await counted(threadId, visible)).toBe(7);
  });

  it("does not remember a thread whose messages are numbered past its message_seq", async () => {
    const threadId = await insertTestThread(database.sql, projectId);
    const totals = new MessageTotals();
    await append(threadId, [{ role: "user", side: "b", content: "one" }]);
    // Written as no path writes it: a message above message_seq (the count would otherwise go stale).
    await database.sql.query(
      `INSERT INTO messages (id, thread_id, seq, role, side, content, depth, silent, metadata, attachments, created_at)
       VALUES (gen_random_uuid(), $1, 50, 'user', 'b', 'stray', 0, false, '{}', '[]', 1)`,
      [threadId],
    );
    const visible = { includeSilent: false, maxDepth: 0 };
    expect((await readMessageList(database.sql, threadId, visible, totals))?.total).toBe(2);
    expect(totals.size).toBe(0);
    await append(threadId, [{ role: "user", side: "b", content: "two" }]);
    expect((await readMessageList(database.sql, threadId, visible, totals))?.total).toBe(3);
  });

  it("is null for a thread that does not exist, and forgets the least recently used counts", async () => {
    const totals = new MessageTotals(2);
    const visible = { includeSilent: false, maxDepth: 0 };
    expect(
      await readMessageList(database.sql, "00000000-0000-4000-8000-000000000000", visible, totals),
    ).toBeNull();
    const threads = await Promise.all([1, 2, 3].map(() => insertTestThread(database.sql, projectId)));
    for (const threadId of threads) {
      await append(threadId, [{ role: "user", side: "b", content: "hi" }]);
      expect((await readMessageList(database.sql, threadId, visible, totals))?.total).toBe(1);
    }
    expect(totals.size).toBe(2);
  });
});
