// A replayed thread's drain plan (runtime/engine/step/replay-gate.ts) when the report it waits for
// lands while the plan is read: the plan reads the waiting input, then whether the child whose report
// is missing still works. A child that ends in between (its report commits with its end) is not
// working by then, and its report is there after all: the plan must take it, not give up on the
// recording and drain whatever waits. Deterministic: the database client lets the child end right
// before the plan's check of it.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@/lib/db/database";
import type { SqlExecutor } from "@/lib/db/sql-client";
import { openTestDatabase, testDatabaseBackends } from "@/test/support/open-database";
import { insertTestProject, insertTestThread } from "@/test/support/thread-rows";
import { type InboxMessagePayload, insertInboxItem } from "../../store/inbox";
import { findThread } from "../../store/thread-store";
import { replayDrainPlan } from "./replay-gate";

describe.each(testDatabaseBackends())("a replay's drain plan on %s", (backend) => {
  let database: Database;

  beforeAll(async () => {
    database = await openTestDatabase(backend);
  });
  afterAll(async () => {
    await database?.close();
  });

  const message = (content: string, subagent?: string): InboxMessagePayload => ({
    role: "user",
    content,
    attachments: [],
    silent: subagent !== undefined,
    metadata: subagent ? { subagent_id: subagent } : {},
    fromHuman: subagent === undefined,
    messageId: randomUUID(),
  });

  /** An input already drained, at `at` (items drained together share it). */
  async function drained(threadId: string, payload: InboxMessagePayload, at: number): Promise<void> {
    const item = await insertInboxItem(database.sql, threadId, payload);
    await database.sql.query("UPDATE inbox_items SET consumed_at = $2 WHERE id = $1", [item!.id, at]);
  }

  /**
   * A source root that drained its first message, then the report of its child `early` alone (the
   * recording), and its replay: first message drained, its follower children `early` and `late`
   * running, and `late`'s report waiting.
   */
  async function replayWaitingForEarly() {
    const projectId = await insertTestProject(database.sql);
    const sourceId = await insertTestThread(database.sql, projectId);
    const [sourceEarly, sourceLate] = [randomUUID(), randomUUID()];
    await drained(sourceId, message("fan out"), 100);
    await drained(sourceId, message("early's report", sourceEarly), 200);
    await drained(sourceId, message("late's report", sourceLate), 300);

    const replayId = await insertTestThread(database.sql, projectId);
    const [early, late] = [
      await insertTestThread(database.sql, projectId),
      await insertTestThread(database.sql, projectId),
    ];
    const replays: [string, string][] = [
      [replayId, sourceId],
      [early, sourceEarly],
      [late, sourceLate],
    ];
    for (const [threadId, source] of replays)
      await database.sql.query(
        "INSERT INTO thread_replays (thread_id, root_id, source_thread_id, created_at) VALUES ($1, $2, $3, 0)",
        [threadId, replayId, source],
      );
    await database.sql.query(
      "UPDATE threads SET status = 'running', runnable = true WHERE id = ANY($1::uuid[])",
      [[early, late]],
    );
    await drained(replayId, message("fan out"), 150);
    const lateReport = await insertInboxItem(database.sql, replayId, message("late's report", late));
    const row = await findThread(database.sql, replayId);
    if (!row || !lateReport) throw new Error("no replay");
    return { row: { ...row, execution: { ...row.execution, replayOf: sourceId } }, early, lateReport };
  }

  /** `db`, where `early` ends with its report just before the plan checks whether it still works. */
  function endingBeforeTheCheck(
    early: string,
    replayId: string,
  ): { db: SqlExecutor; reportId: () => string } {
    let reportId = "";
    const db = new Proxy(database.sql, {
      get(target, property, receiver) {
        if (property !== "query") return Reflect.get(target, property, receiver);
        return async (text: string, params?: unknown[]) => {
          if (!reportId && text.includes("AND (runnable OR status IN")) {
            const report = await insertInboxItem(target, replayId, message("early's report", early));
            reportId = report!.id;
            await target.query("UPDATE threads SET status = 'completed', runnable = false WHERE id = $1", [
              early,
            ]);
          }
          return target.query(text, params as never);
        };
      },
    });
    return { db, reportId: () => reportId };
  }

  it("takes the report of a child that ended while the plan was read", async () => {
    const { row, early } = await replayWaitingForEarly();
    const { db, reportId } = endingBeforeTheCheck(early, row.id);
    const plan = await replayDrainPlan(db, row);
    expect(reportId()).not.toBe("");
    expect(plan).toEqual({ kind: "take", ids: [reportId()] });
  });

  it("waits while the child works, and drains as usual once it ended without its report", async () => {
    const { row, early } = await replayWaitingForEarly();
    expect(await replayDrainPlan(database.sql, row)).toEqual({ kind: "wait" });
    await database.sql.query("UPDATE threads SET status = 'completed', runnable = false WHERE id = $1", [
      early,
    ]);
    expect(await replayDrainPlan(database.sql, row)).toEqual({ kind: "all" });
  });
});
