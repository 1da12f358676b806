// Walks the thread lifecycle table on a real database (PGlite, and the Postgres server when
// DATABASE_URL names one): every transition from every status either applies — the new status and
// the columns that belong with it — or refuses and changes nothing.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { THREAD_STATUSES, type ThreadStatus } from "@/lib/contracts/thread";
import type { Database } from "@/lib/db/database";
import { openTestDatabase, testDatabaseBackends } from "../../test/support/open-database";
import { insertTestProject, insertTestThread, newRootThread } from "../../test/support/thread-rows";
import { readEventsAfter } from "./event-log";
import {
  allows,
  apply,
  applyLocked,
  createThread,
  queueInputAndWake,
  spawnThreads,
  startRun,
  TRANSITIONS,
  TransitionRefusedError,
  terminate,
  type UpdateTransition,
  wakeForInput,
  wakeForReport,
} from "./thread-lifecycle";
import { type ThreadRow, threadViewSql, toThreadView } from "./thread-row";
import { findThread } from "./thread-store";

const UPDATES = (Object.keys(TRANSITIONS) as (keyof typeof TRANSITIONS)[]).filter(
  (name): name is UpdateTransition => TRANSITIONS[name].from.length > 0,
);

describe.each(testDatabaseBackends())("the thread lifecycle on %s", (backend) => {
  let database: Database;
  let projectId: string;

  beforeAll(async () => {
    database = await openTestDatabase(backend);
    projectId = await insertTestProject(database.sql);
  });
  afterAll(async () => {
    await database?.close();
  });

  /** A thread in `status`, leased, runnable, not user-stopped (set directly: a test fixture). */
  async function threadIn(status: ThreadStatus, columns: { userStopped?: boolean } = {}): Promise<ThreadRow> {
    const id = await insertTestThread(database.sql, projectId);
    await database.sql.query(
      `UPDATE threads SET status = $2, runnable = true, user_stopped = $3, lease_owner = 'lessee',
         lease_expires_at = now() + interval '1 minute', updated_at = 1,
         stop_reason = CASE WHEN $3 THEN 'Stopped by user' END WHERE id = $1`,
      [id, status, columns.userStopped ?? false],
    );
    // Settled since µs 5 (a write of finished_at alone: the trigger watches status changes).
    await database.sql.query(
      "UPDATE threads SET finished_at = CASE WHEN status IN ('queued', 'running', 'waiting_approval') THEN NULL ELSE 5 END WHERE id = $1",
      [id],
    );
    return (await findThread(database.sql, id))!;
  }

  /** Applies `name` through the form that lets the database decide; whether it applied. */
  async function applyBySql(name: UpdateTransition, row: ThreadRow): Promise<boolean> {
    return database.sql.transaction(async (tx) => {
      if (name === "terminate") return (await terminate(tx, row.id, 42)) !== null;
      // wakeForInput checks the locked row first; claiming the row is idle leaves the check to its SQL.
      if (name === "wakeForInput")
        return (await wakeForInput(tx, { ...row, status: "idle" }, { fromHuman: false })) !== null;
      return (await apply(tx, row.id, name)) !== null;
    });
  }

  for (const name of UPDATES) {
    const transition = TRANSITIONS[name];
    for (const from of THREAD_STATUSES) {
      const allowed = allows(name, from);
      it(`${name} from ${from} ${allowed ? `applies → ${transition.to}` : "refuses"}`, async () => {
        const before = await threadIn(from);
        expect(await applyBySql(name, before)).toBe(allowed);
        const after = (await findThread(database.sql, before.id))!;
        if (!allowed) {
          expect(after).toEqual(before);
          return;
        }
        expect(after.status).toBe(transition.to);
        expect(after.updated_at).not.toBe(before.updated_at);
        const fixed = transition.fixed ?? {};
        if (typeof fixed.runnable === "boolean") expect(after.runnable).toBe(fixed.runnable);
        expect(after.lease_owner).toBe(fixed.releaseLease ? null : "lessee");
        expect(after.user_stopped).toBe(fixed.userStopped ?? false);
        expect(after.terminated_at).toBe(name === "terminate" ? 42 : null);
        // finished_at: cleared at work; set by the write that ends work; else as it was (issue 41).
        const working = (status: string) => ["queued", "running", "waiting_approval"].includes(status);
        expect(after.finished_at).toBe(
          working(transition.to) ? null : working(from) ? after.updated_at : before.finished_at,
        );
      });
    }
  }

  it("refuses a pipelined transition from a status it does not leave, before sending anything", async () => {
    for (const name of UPDATES) {
      if (name === "terminate" || name === "wakeForInput") continue;
      for (const from of THREAD_STATUSES.filter((status) => !allows(name, status))) {
        const row = await threadIn(from);
        await expect(
          database.sql.transaction((tx) => applyLocked(tx, row, name, {})),
          `${name} from ${from}`,
        ).rejects.toBeInstanceOf(TransitionRefusedError);
        expect(await findThread(database.sql, row.id)).toEqual(row);
      }
    }
  });

  it("a pipelined transition's row (not read back) has the finished_at the trigger wrote", async () => {
    for (const name of UPDATES) {
      if (name === "terminate" || name === "wakeForInput") continue;
      for (const from of THREAD_STATUSES.filter((status) => allows(name, status))) {
        const row = await threadIn(from);
        const predicted = await database.sql.transaction((tx) => applyLocked(tx, row, name, {}));
        const stored = (await findThread(database.sql, row.id))!;
        expect(predicted.finished_at, `${name} from ${from}`).toBe(stored.finished_at);
      }
    }
  });

  it("checks the from-state in the pipelined UPDATE too (a stale copy of the row changes nothing)", async () => {
    const row = await threadIn("completed");
    // The caller's copy claims `running`; the row is `completed`: park's UPDATE must match nothing.
    await database.sql.transaction(async (tx) => {
      await applyLocked(tx, { ...row, status: "running" }, "park", {});
    });
    expect(await findThread(database.sql, row.id)).toEqual(row);
    const running = await threadIn("running");
    const parked = await database.sql.transaction((tx) => applyLocked(tx, running, "park", {}));
    expect(parked.status).toBe("idle");
    expect(await findThread(database.sql, running.id)).toMatchObject({ status: "idle", lease_owner: null });
  });

  it("wakeForInput keeps a user-stopped thread parked unless a human wrote", async () => {
    const stopped = await threadIn("stopped", { userStopped: true });
    expect(
      await database.sql.transaction((tx) => wakeForInput(tx, stopped, { fromHuman: false })),
    ).toBeNull();
    expect((await findThread(database.sql, stopped.id))!.status).toBe("stopped");
    const woken = await database.sql.transaction((tx) => wakeForInput(tx, stopped, { fromHuman: true }));
    expect(woken?.status).toBe("queued");
  });

  it("wakeForReport queues a parent whose session is over, and only makes a busy one runnable", async () => {
    for (const from of THREAD_STATUSES) {
      const row = await threadIn(from);
      await database.sql.query("UPDATE threads SET runnable = false WHERE id = $1", [row.id]);
      const woken = await database.sql.transaction((tx) => wakeForReport(tx, row.id));
      expect(woken?.applied, from).toBe(allows("wakeForInput", from));
      expect(woken?.row.status, from).toBe(allows("wakeForInput", from) ? "queued" : from);
      expect(woken?.row.runnable, from).toBe(true);
    }
    const userStopped = await threadIn("stopped", { userStopped: true });
    const parked = await database.sql.transaction((tx) => wakeForReport(tx, userStopped.id));
    expect(parked).toMatchObject({ applied: false, row: { status: "stopped" } });
    await database.sql.query("UPDATE threads SET terminated_at = 1 WHERE id = $1", [userStopped.id]);
    expect(await database.sql.transaction((tx) => wakeForReport(tx, userStopped.id))).toBeNull();
  });

  it("queueInputAndWake queues the input and wakes as wakeForInput would, in one statement", async () => {
    const queue = (threadId: string, fromHuman: boolean) =>
      database.sql.transaction((tx) =>
        queueInputAndWake(tx, threadId, {
          id: randomUUID(),
          payload: {
            role: "user",
            content: "hello",
            attachments: [],
            silent: false,
            metadata: {},
            fromHuman,
            messageId: randomUUID(),
          },
          createdAt: 7,
        }),
      );
    const pending = async (threadId: string) =>
      Number(
        (
          await database.sql.query<{ count: number }>(
            "SELECT count(*)::int AS count FROM inbox_items WHERE thread_id = $1 AND consumed_at IS NULL",
            [threadId],
          )
        )[0]?.count,
      );
    for (const from of THREAD_STATUSES) {
      const row = await threadIn(from);
      await database.sql.query("UPDATE threads SET runnable = false WHERE id = $1", [row.id]);
      const queued = await queue(row.id, false);
      expect(queued.kind, from).toBe("queued");
      if (queued.kind !== "queued") continue;
      const after = (await findThread(database.sql, row.id))!;
      expect(after.runnable, from).toBe(true);
      expect(after.status, from).toBe(allows("wakeForInput", from) ? "queued" : from);
      expect(queued.woken?.status ?? null, from).toBe(allows("wakeForInput", from) ? "queued" : null);
      if (queued.woken) expect(after.updated_at, from).toBe(7);
      expect(await pending(row.id), from).toBe(1);
      // The woken thread's event, in the same statement: the thread as it now is.
      const announced = (await readEventsAfter(database.sql, row.root_id, 0)).events.filter(
        (event) => event.type === "thread" && event.thread_id === row.id,
      );
      expect(
        announced.map((event) => event.data),
        from,
      ).toEqual(queued.woken ? [toThreadView(after)] : []);
      expect(queued.item.seq, from).toBeGreaterThan(0);
    }
    // A user-stopped thread takes the input but stays parked unless a human wrote.
    const stopped = await threadIn("stopped", { userStopped: true });
    const byTool = await queue(stopped.id, false);
    expect(byTool).toMatchObject({ kind: "queued", woken: null });
    expect((await findThread(database.sql, stopped.id))!.status).toBe("stopped");
    const byHuman = await queue(stopped.id, true);
    expect(byHuman).toMatchObject({ kind: "queued", woken: { status: "queued" } });
    // A terminated thread takes nothing; a missing one is said to be missing.
    await database.sql.query("UPDATE threads SET terminated_at = 5 WHERE id = $1", [stopped.id]);
    expect(await queue(stopped.id, true)).toEqual({ kind: "terminated", terminatedAt: 5 });
    expect(await pending(stopped.id)).toBe(2);
    expect(await queue(randomUUID(), true)).toEqual({ kind: "missing" });
  });

  it("threadViewSql builds the same view as toThreadView", async () => {
    const plain = await threadIn("idle");
    const rich = await threadIn("completed");
    await database.sql.query(
      `UPDATE threads SET name = 'named', status_text = 'half way', result = 'done', failure = 'oops',
         input_tokens = 12345678901, output_tokens = 7, cost_usd = 0.1 + 0.2, terminated_at = 99,
         forked_from_thread_id = $2, forked_from_message_id = $3, parent_id = $2 WHERE id = $1`,
      [rich.id, randomUUID(), randomUUID()],
    );
    const copy = await threadIn("idle");
    await database.sql.query("UPDATE threads SET forked_from_thread_id = $2 WHERE id = $1", [
      copy.id,
      randomUUID(),
    ]);
    for (const id of [plain.id, rich.id, copy.id]) {
      const [built] = await database.sql.query<{ view: unknown }>(
        `SELECT ${threadViewSql("t")} AS view FROM threads t WHERE t.id = $1`,
        [id],
      );
      const view = typeof built?.view === "string" ? JSON.parse(built.view) : built?.view;
      expect(view).toEqual(toThreadView((await findThread(database.sql, id))!));
    }
  });

  it("startRun lifts a user stop only when a human wrote", async () => {
    for (const humanWrote of [false, true]) {
      const row = await threadIn("stopped", { userStopped: true });
      await database.sql.transaction((tx) => startRun(tx, row, {}, humanWrote));
      expect(await findThread(database.sql, row.id), `human wrote: ${humanWrote}`).toMatchObject({
        status: "running",
        user_stopped: !humanWrote,
        stop_reason: humanWrote ? null : "Stopped by user",
        runnable: true,
      });
    }
  });

  it("inserts new threads in the statuses of create, createWithInput and spawn", async () => {
    const base = (id: string) => newRootThread(id, projectId);
    const [idle, queued, spawned] = await database.sql.transaction(async (tx) => [
      await createThread(tx, base(randomUUID()), false),
      await createThread(tx, base(randomUUID()), true),
      (await spawnThreads(tx, [base(randomUUID())]))[0]!.row,
    ]);
    expect([idle.status, queued.status, spawned.status]).toEqual([
      TRANSITIONS.create.to,
      TRANSITIONS.createWithInput.to,
      TRANSITIONS.spawn.to,
    ]);
    expect([idle.runnable, queued.runnable, spawned.runnable]).toEqual([false, false, true]);
  });
});
