// The small status tables and the scheduling transitions on a real database (PGlite, and the
// Postgres server when DATABASE_URL names one): a transition applies from its from-statuses and
// leaves a row in any other status as it was (a terminated registry entry, a settled invocation);
// wakeThread, parkUntilInput, wakeParent and repairLostWakeups write `runnable` as their table says.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@/lib/db/database";
import { openTestDatabase, testDatabaseBackends } from "../../test/support/open-database";
import { insertTestProject, insertTestThread } from "../../test/support/thread-rows";
import { settleInvocation } from "./invocation-lifecycle";
import { setRegistryStatus } from "./registry-lifecycle";
import { findInvocation, findLinkOfChild, insertInvocation, insertLinks } from "./registry-store";
import { parkUntilInput, repairLostWakeups, wakeParent, wakeThread } from "./thread-scheduling";
import { findThread } from "./thread-store";

describe.each(testDatabaseBackends())("the status tables on %s", (backend) => {
  let database: Database;
  let projectId: string;

  beforeAll(async () => {
    database = await openTestDatabase(backend);
    projectId = await insertTestProject(database.sql);
  });
  afterAll(async () => {
    await database?.close();
  });

  /** A parent and a child linked by a registry entry in `status`. */
  async function linkedChild(status: string): Promise<{ parentId: string; childId: string }> {
    const parentId = await insertTestThread(database.sql, projectId);
    const childId = await insertTestThread(database.sql, projectId);
    await insertLinks(database.sql, [
      {
        child_id: childId,
        parent_id: parentId,
        tool_name: "helper",
        name: "helper",
        title: null,
        description: "",
        blocking: false,
        resumable: true,
        receives_messages: null,
        parent_communication: "implicit",
        spawn_call_id: `call-${randomUUID()}`,
        spawn_group_id: null,
        status,
        created_at: 1,
        updated_at: 1,
      },
    ]);
    return { parentId, childId };
  }

  const registryStatus = async (childId: string) => (await findLinkOfChild(database.sql, childId))?.status;

  it("reports a child's outcome on its registry entry, and never over `terminated`", async () => {
    const working = await linkedChild("Reading the docs");
    const terminated = await linkedChild("terminated");
    await database.sql.transaction(async (tx) => {
      for (const { childId } of [working, terminated])
        await setRegistryStatus(tx, { childId, transition: "report", status: "completed", now: 2 });
    });
    expect(await registryStatus(working.childId)).toBe("completed");
    expect(await registryStatus(terminated.childId)).toBe("terminated");
    await database.sql.transaction((tx) =>
      setRegistryStatus(tx, { childId: working.childId, transition: "deliver", status: "running", now: 3 }),
    );
    expect(await registryStatus(working.childId)).toBe("running");
  });

  it("settles an invocation once: a second settlement changes nothing", async () => {
    const { parentId, childId } = await linkedChild("running");
    const id = randomUUID();
    const callId = `call-${randomUUID()}`;
    await insertInvocation(database.sql, {
      id,
      child_id: childId,
      parent_id: parentId,
      call_id: callId,
      blocking: false,
      created_at: 1,
    });
    await database.sql.transaction((tx) =>
      settleInvocation(tx, id, { status: "completed", result: "done", attachments: [], now: 2 }),
    );
    await database.sql.transaction((tx) =>
      settleInvocation(tx, id, { status: "failed", result: "again", attachments: [], now: 3 }),
    );
    const settled = await findInvocation(database.sql, parentId, callId);
    expect(settled).toMatchObject({ status: "completed", result: "done", finished_at: 2 });
  });

  it("wakes a thread and parks it until input (wakeThread, parkUntilInput)", async () => {
    const id = await insertTestThread(database.sql, projectId);
    await database.sql.transaction((tx) => wakeThread(tx, id));
    expect((await findThread(database.sql, id))?.runnable).toBe(true);
    await database.sql.transaction((tx) => parkUntilInput(tx, id));
    expect((await findThread(database.sql, id))?.runnable).toBe(false);
  });

  it("wakes a parent after a report unless a user stop parks its input (wakeParent)", async () => {
    const parent = await insertTestThread(database.sql, projectId);
    const stopped = await insertTestThread(database.sql, projectId);
    await database.sql.query("UPDATE threads SET user_stopped = true WHERE id = $1", [stopped]);
    await wakeParent(database.sql, parent);
    await wakeParent(database.sql, stopped);
    expect((await findThread(database.sql, parent))?.runnable).toBe(true);
    expect((await findThread(database.sql, stopped))?.runnable).toBe(false);
  });

  it("repairs a lost wake-up: input waiting past the grace makes its thread runnable", async () => {
    const id = await insertTestThread(database.sql, projectId);
    await database.sql.query(
      `INSERT INTO inbox_items (id, thread_id, kind, payload, created_at) VALUES ($1, $2, 'message', '{}'::jsonb, 1)`,
      [randomUUID(), id],
    );
    expect(await repairLostWakeups(database.sql, 0)).toBeGreaterThanOrEqual(1);
    expect((await findThread(database.sql, id))?.runnable).toBe(true);
  });
});
