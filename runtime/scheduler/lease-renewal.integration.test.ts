// The scheduler's lease renewal (runtime/scheduler/scheduler.ts): threads waiting on a slow model keep
// their leases through many renewals and are never run twice; and on Postgres a row that another
// transaction has locked does not hold up the renewal of the others (a waiting renewal could
// deadlock with a step transaction, and a lost renewal aborted every thread of the process).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@/lib/db/database";
import { instrumentDatabase } from "@/test/support/instrumented-database";
import { slowChatBundle } from "@/test/support/runtime-load";
import { openTestDatabase, testDatabaseBackends } from "../../test/support/open-database";
import { createRuntime, type Runtime } from "../runtime";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function startRuntime(database: Database, leaseMs: number): Runtime {
  const saved = process.env.TANDEM_LEASE_MS;
  process.env.TANDEM_LEASE_MS = String(leaseMs);
  try {
    return createRuntime(database);
  } finally {
    if (saved === undefined) delete process.env.TANDEM_LEASE_MS;
    else process.env.TANDEM_LEASE_MS = saved;
  }
}

async function leaseOf(database: Database, threadId: string) {
  const [row] = await database.sql.query<{ lease_owner: string | null; expires_us: string | null }>(
    `SELECT lease_owner, (extract(epoch FROM lease_expires_at) * 1000000)::bigint::text AS expires_us
       FROM threads WHERE id = $1`,
    [threadId],
  );
  return { owner: row?.lease_owner ?? null, expiresUs: row?.expires_us ? Number(row.expires_us) : null };
}

async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string): Promise<T> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

async function startChats(runtime: Runtime, delayMs: number, count: number): Promise<string[]> {
  const project = await runtime.projects.create({
    name: "renewal",
    definitions: slowChatBundle("done", delayMs),
  });
  const ids: string[] = [];
  for (let index = 0; index < count; index += 1) {
    const { threadId } = await runtime.threads.create({
      projectId: project.id,
      agentName: "assistant",
      message: `hello ${index}`,
    });
    ids.push(threadId);
  }
  return ids;
}

async function modelCallsOf(database: Database, threadId: string): Promise<number> {
  const [row] = await database.sql.query<{ calls: number }>(
    "SELECT count(*)::int AS calls FROM model_calls WHERE thread_id = $1",
    [threadId],
  );
  return Number(row?.calls ?? 0);
}

const idle = (database: Database, threadId: string) =>
  waitFor(
    async () =>
      (
        await database.sql.query<{ status: string }>("SELECT status FROM threads WHERE id = $1", [threadId])
      )[0]?.status,
    (status) => status === "idle",
    `thread ${threadId} idle`,
  );

describe.each(testDatabaseBackends())("lease renewal on %s", (backend) => {
  let database: Database;
  let runtime: Runtime;
  let statements: ReturnType<typeof instrumentDatabase>["statements"];

  beforeAll(async () => {
    database = await openTestDatabase(backend);
    const instrumented = instrumentDatabase(database);
    statements = instrumented.statements;
    runtime = startRuntime(instrumented.database, 300); // renewed every 100 ms
    await runtime.scheduler.start();
  });
  afterAll(async () => {
    await runtime?.scheduler.stop();
    await database?.close();
  });

  it("keeps the leases of threads waiting on a slow model, and runs each reply once", async () => {
    const ids = await startChats(runtime, 1500, 6);
    const first = await waitFor(
      () => leaseOf(database, ids[0] ?? ""),
      (lease) => lease.owner !== null,
      "the first lease",
    );
    // Fifteen renewals' worth of waiting on the model: the lease moves on and stays this process's.
    await sleep(700);
    const later = await leaseOf(database, ids[0] ?? "");
    expect(later.owner).toBe(first.owner);
    expect(later.expiresUs ?? 0).toBeGreaterThan(first.expiresUs ?? 0);
    for (const id of ids) await idle(database, id);
    for (const id of ids) expect(await modelCallsOf(database, id)).toBe(1);
    // The renewals changed only the leases' expiry: each reply still committed on the version its
    // step read (the speculative commit), none was redone under a lock read first.
    const lockReads = [...statements.keys()].filter((text) =>
      /^SELECT id, project_id[\s\S]*FROM threads WHERE id = \$1 FOR NO KEY UPDATE$/.test(text.trim()),
    );
    expect(lockReads).toEqual([]);
  });
});

describe.each(testDatabaseBackends().filter((backend) => backend === "postgres"))(
  "lease renewal next to a locked row on %s",
  (backend) => {
    let database: Database;
    let runtime: Runtime;

    beforeAll(async () => {
      database = await openTestDatabase(backend);
      runtime = startRuntime(database, 1500); // renewed every 500 ms
      await runtime.scheduler.start();
    });
    afterAll(async () => {
      await runtime?.scheduler.stop();
      await database?.close();
    });

    it("renews the other threads while one thread's row is locked, and aborts none", async () => {
      const [locked = "", other = ""] = await startChats(runtime, 4000, 2);
      for (const id of [locked, other]) {
        await waitFor(
          () => leaseOf(database, id),
          (lease) => lease.owner !== null,
          "both leases",
        );
      }
      // Another transaction holds the first thread's row for more than two renewals.
      const held = await database.sql.transaction(async (tx) => {
        await tx.query("SELECT id FROM threads WHERE id = $1 FOR UPDATE", [locked]);
        const before = await leaseOf(database, other);
        await sleep(1400);
        const during = await leaseOf(database, other);
        return { before, during };
      });
      // A renewal that waited for the lock would not have committed the other lease before it.
      expect(held.during.owner).toBe(held.before.owner);
      expect(held.during.expiresUs ?? 0).toBeGreaterThan(held.before.expiresUs ?? 0);
      // Neither run was aborted: each thread's model was called once and both replied.
      for (const id of [locked, other]) await idle(database, id);
      for (const id of [locked, other]) expect(await modelCallsOf(database, id)).toBe(1);
    });
  },
);
