// The scheduler's lease renewal (runtime/scheduler/scheduler.ts): threads waiting on a slow model keep
// their leases through many renewals and are never run twice; a lease that will outlast the next
// heartbeat by LEASE_MARGIN_MS is left alone (short runs are never renewed, so their step commits
// never meet a row a renewal moved); and on Postgres a row that another transaction has locked does
// not hold up the renewal of the others (a waiting renewal could deadlock with a step transaction,
// and a lost renewal aborted every thread of the process).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@/lib/db/database";
import { instrumentDatabase } from "@/test/support/instrumented-database";
import { slowChatBundle } from "@/test/support/runtime-load";
import { openTestDatabase, testDatabaseBackends } from "../../test/support/open-database";
import { createRuntime, type Runtime } from "../runtime";
import { LEASE_MARGIN_MS } from "./scheduler";

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

/** A chat whose model answers every call after `delayMs`. */
function repeatedChatBundle(delayMs: number, calls: number) {
  const bundle = slowChatBundle("done", delayMs);
  const [step] = bundle.models[0]!.script;
  return {
    ...bundle,
    models: [{ ...bundle.models[0]!, script: Array.from({ length: calls }, () => step!) }],
  };
}

describe.each(testDatabaseBackends())("lease renewal by the lease's age on %s", (backend) => {
  const LEASE_MS = 6_000; // the default: a heartbeat every 2 s, leases younger than 1.5 s left alone
  let database: Database;
  let runtime: Runtime;

  beforeAll(async () => {
    database = await openTestDatabase(backend);
    runtime = startRuntime(database, LEASE_MS);
    await runtime.scheduler.start();
  });
  afterAll(async () => {
    await runtime?.scheduler.stop();
    await database?.close();
  });

  it("renews a long run's lease and never the leases of runs that end well before they would need it", async () => {
    // A lease is left alone while it will still have the margin left at the next heartbeat.
    const keptForMs = LEASE_MS - LEASE_MS / 3 - LEASE_MARGIN_MS;
    expect(keptForMs).toBe(1_500);
    const project = await runtime.projects.create({
      name: "short runs",
      definitions: repeatedChatBundle(700, 8),
    });
    const [long = ""] = await startChats(runtime, 4_500, 1);
    const longLease = await waitFor(
      () => leaseOf(database, long),
      (lease) => lease.owner !== null,
      "the long run's lease",
    );
    // Short runs one after another for longer than two heartbeats (each about 0.7 s, its lease set
    // by the post that takes the thread); every lease value the thread shows is watched.
    const { threadId: short } = await runtime.threads.create({
      projectId: project.id,
      agentName: "assistant",
      message: "turn 0",
    });
    const seen = new Set<number>();
    const longSeen = new Set<number>([longLease.expiresUs ?? 0]);
    const watchLong = async () => {
      const lease = await leaseOf(database, long);
      if (lease.expiresUs !== null) longSeen.add(lease.expiresUs);
      return lease;
    };
    const turns = 6;
    for (let turn = 0; turn < turns; turn += 1) {
      if (turn > 0) await runtime.threads.postMessage(short, { content: `turn ${turn}` });
      await waitFor(
        async () => {
          const lease = await leaseOf(database, short);
          if (lease.expiresUs !== null) seen.add(lease.expiresUs);
          await watchLong();
          const [row] = await database.sql.query<{ calls: number; status: string }>(
            `SELECT status, (SELECT count(*)::int FROM model_calls WHERE thread_id = $1) AS calls
               FROM threads WHERE id = $1`,
            [short],
          );
          return { status: row?.status, calls: Number(row?.calls ?? 0) };
        },
        (state) => state.status === "idle" && state.calls === turn + 1,
        `turn ${turn} answered`,
      );
    }
    // One lease per run, as its take set it: no heartbeat renewed any of them.
    expect(seen.size).toBe(turns);
    // The long run lived through at least two heartbeats: its lease was renewed, and it stayed this
    // process's until its one reply.
    await waitFor(watchLong, (lease) => lease.owner === null, "the long run's end");
    expect(longSeen.size).toBeGreaterThan(1);
    await idle(database, long);
    expect(await modelCallsOf(database, long)).toBe(1);
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
