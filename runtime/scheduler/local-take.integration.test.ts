// How much a process takes at once of what it makes runnable itself (Scheduler.takeLocally): a
// thread waits here for a step slot instead of in the database for a claim. By default, while
// another process runs threads on the same database, for at most one more round of steps
// (TANDEM_CONCURRENCY); alone, on PGlite (one process only) and with TANDEM_LOCAL_TAKE_ROUNDS, more;
// never past TANDEM_MAX_CLAIMED_THREADS. A stopped scheduler takes nothing (the statement then
// leaves the thread to any scheduler and notifies). How processes know of each other:
// runtime/scheduler/peer-schedulers.integration.test.ts.
// The statements and the run of a taken thread: runtime/statement-budget.integration.test.ts.
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Database } from "@/lib/db/database";
import { openTestDatabase, testDatabaseBackends } from "@/test/support/open-database";
import { assetFanOutBundle } from "@/test/support/subagent-bundles";
import { createRuntime, type Runtime } from "../runtime";
import type { LocalTake } from "./scheduler";

describe.each(testDatabaseBackends())("taking threads at once on %s", (backend) => {
  let opened: Database | null = null;
  let runtime: Runtime | null = null;
  let other: Runtime | null = null;

  afterEach(async () => {
    await other?.scheduler.stop();
    other = null;
    await runtime?.scheduler.stop();
    await opened?.close();
    runtime = null;
    opened = null;
  });

  const open = async (settings: Record<string, string>) => {
    opened = await openTestDatabase(backend);
    const saved = Object.fromEntries(Object.keys(settings).map((name) => [name, process.env[name]]));
    Object.assign(process.env, settings);
    try {
      runtime = createRuntime(opened);
    } finally {
      for (const [name, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
    return runtime;
  };
  const takeAll = (scheduler: Runtime["scheduler"]) => {
    const taken: LocalTake[] = [];
    for (let take = scheduler.takeLocally(); take; take = scheduler.takeLocally()) {
      taken.push(take);
      if (taken.length > 1_000) break;
    }
    return taken;
  };
  /** How many threads the scheduler would take at once now (the room is given back). */
  const bound = (scheduler: Runtime["scheduler"]) => {
    const taken = takeAll(scheduler);
    for (const take of taken) take.cancel();
    return taken.length;
  };

  it("takes nothing while stopped", async () => {
    const { scheduler } = await open({});
    expect(scheduler.takeLocally()).toBeNull();
    await scheduler.start();
    expect(scheduler.takeLocally()).not.toBeNull();
    await scheduler.stop();
    expect(scheduler.takeLocally()).toBeNull();
  });

  it("takes two rounds of steps, and room given back is taken again", async () => {
    const { scheduler } = await open({
      TANDEM_CONCURRENCY: "3",
      TANDEM_POLL_MS: "600000",
      TANDEM_LOCAL_TAKE_ROUNDS: "2",
    });
    await scheduler.start();
    const taken = takeAll(scheduler);
    expect(taken).toHaveLength(6);
    taken[0]!.cancel();
    taken[0]!.cancel(); // once only
    const again = scheduler.takeLocally();
    expect(again).not.toBeNull();
    expect(scheduler.takeLocally()).toBeNull();
    for (const take of [...taken.slice(1), again!]) take.cancel();
    expect(takeAll(scheduler)).toHaveLength(6);
  });

  it("takes as many rounds of steps as TANDEM_LOCAL_TAKE_ROUNDS says", async () => {
    const { scheduler } = await open({
      TANDEM_CONCURRENCY: "3",
      TANDEM_POLL_MS: "600000",
      TANDEM_LOCAL_TAKE_ROUNDS: "5",
    });
    await scheduler.start();
    expect(takeAll(scheduler)).toHaveLength(15);
  });

  it("by default takes all it may hold while alone, and two rounds while another process runs threads", async () => {
    const settings = { TANDEM_CONCURRENCY: "3", TANDEM_MAX_CLAIMED_THREADS: "40", TANDEM_POLL_MS: "600000" };
    const { scheduler } = await open(settings);
    await scheduler.start();
    expect(bound(scheduler)).toBe(40);
    if (backend === "pglite") return; // one process only: there is nobody to share with
    // A second process on the database (a second runtime here: its own scheduler and lease owner).
    const saved = { ...process.env };
    Object.assign(process.env, settings);
    try {
      other = createRuntime(opened!);
    } finally {
      process.env = saved;
    }
    await other.scheduler.start();
    // Each hears of the other: the second from the first's answer to its announcement.
    await vi.waitFor(() => expect(bound(scheduler)).toBe(6), { timeout: 5_000, interval: 20 });
    await vi.waitFor(() => expect(bound(other!.scheduler)).toBe(6), { timeout: 5_000, interval: 20 });
    // Stopping, the second says it leaves: the first is alone again at once, not after the three
    // missed heartbeats (6 s) that would tell it otherwise. 3 s leaves room for a loaded machine's
    // NOTIFY round trip (1 s failed at a load of 9 on two cores) and stays under those 6 s.
    await other.scheduler.stop();
    await vi.waitFor(() => expect(bound(scheduler)).toBe(40), { timeout: 3_000, interval: 20 });
  });

  it("never holds more threads than TANDEM_MAX_CLAIMED_THREADS", async () => {
    const { scheduler } = await open({
      TANDEM_CONCURRENCY: "4",
      TANDEM_MAX_CLAIMED_THREADS: "5",
      TANDEM_POLL_MS: "600000",
    });
    await scheduler.start();
    expect(takeAll(scheduler)).toHaveLength(5);
  });

  // Which statement gave each child its lease: its insert (taken at once) or a later update (a
  // claim). A trigger in this test's database records it.
  const auditLeases = async (database: Database) => {
    await database.sql.exec(`
      CREATE TABLE lease_audit (thread_id uuid NOT NULL, parent_id uuid, given_by text NOT NULL);
      CREATE FUNCTION audit_lease() RETURNS trigger AS $$
      BEGIN
        IF TG_OP = 'INSERT' AND NEW.lease_owner IS NOT NULL THEN
          INSERT INTO lease_audit VALUES (NEW.id, NEW.parent_id, 'insert');
        ELSIF TG_OP = 'UPDATE' AND OLD.lease_owner IS NULL AND NEW.lease_owner IS NOT NULL THEN
          INSERT INTO lease_audit VALUES (NEW.id, NEW.parent_id, 'update');
        END IF;
        RETURN NEW;
      END $$ LANGUAGE plpgsql;
      CREATE TRIGGER threads_lease_audit AFTER INSERT OR UPDATE OF lease_owner ON threads
        FOR EACH ROW EXECUTE FUNCTION audit_lease();`);
  };
  const fanOut = async (rt: Runtime, database: Database, children: number) => {
    const project = await rt.projects.create({ name: "fan-out", definitions: assetFanOutBundle(children) });
    const { threadId } = await rt.threads.create({
      projectId: project.id,
      agentName: "orchestrator",
      message: "many jobs",
    });
    const deadline = Date.now() + 60_000;
    for (;;) {
      const [row] = await database.sql.query<{ ended: number; status: string }>(
        `SELECT (SELECT count(*)::int FROM threads WHERE parent_id = $1 AND status = 'completed') AS ended,
                (SELECT status FROM threads WHERE id = $1) AS status`,
        [threadId],
      );
      if ((row?.ended === children && row.status === "idle") || Date.now() > deadline) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const rows = await database.sql.query<{ given_by: string; count: number }>(
      "SELECT given_by, count(*)::int AS count FROM lease_audit WHERE parent_id = $1 GROUP BY given_by",
      [threadId],
    );
    const [ended] = await database.sql.query<{ count: number }>(
      "SELECT count(*)::int AS count FROM threads WHERE parent_id = $1 AND status = 'completed'",
      [threadId],
    );
    return {
      completed: Number(ended?.count),
      leasedBy: Object.fromEntries(rows.map((row) => [row.given_by, Number(row.count)])),
    };
  };

  it("leases the children a step spawns in one batch to this process as it inserts them", async () => {
    const rt = await open({ TANDEM_POLL_MS: "600000" });
    await auditLeases(opened!);
    await rt.scheduler.start();
    // Six calls: five spawn as one batch (taken), the last the ordinary way (claimed).
    const { completed, leasedBy } = await fanOut(rt, opened!, 6);
    expect(completed).toBe(6);
    expect(leasedBy).toEqual({ insert: 5, update: 1 });
  });

  it("starts the children of a spawn batch once the step's last call is answered", async () => {
    const rt = await open({ TANDEM_POLL_MS: "600000" });
    await auditLeases(opened!);
    await rt.scheduler.start();
    // Six calls: five spawn as one batch, the last the ordinary way, in a transaction. Started at
    // once, the batch's children would fill the pool while that transaction waits for a connection.
    const { completed } = await fanOut(rt, opened!, 6);
    expect(completed).toBe(6);
    // The batch's children are the five leased as they were inserted. The sixth, spawned by the
    // last call itself, is committed runnable before that call's answer and may start first.
    const [order] = await opened!.sql.query<{
      answered: string;
      first_child_call: string;
      children: number;
      batch: number;
    }>(
      `SELECT (SELECT max(m.created_at) FROM messages m JOIN threads p ON p.id = m.thread_id
               WHERE p.agent_name = 'orchestrator' AND m.role = 'tool')::text AS answered,
              (SELECT min(c.created_at) FROM model_calls c
               JOIN lease_audit a ON a.thread_id = c.thread_id AND a.given_by = 'insert' AND a.parent_id IS NOT NULL)::text
                 AS first_child_call,
              (SELECT count(*)::int FROM threads WHERE parent_id IS NOT NULL) AS children,
              (SELECT count(*)::int FROM lease_audit WHERE given_by = 'insert' AND parent_id IS NOT NULL) AS batch`,
    );
    expect(Number(order?.children)).toBe(6);
    expect(Number(order?.batch)).toBe(5);
    // (Timestamps of millisecond resolution: the same millisecond is after.)
    expect(BigInt(order!.first_child_call)).toBeGreaterThanOrEqual(BigInt(order!.answered));
  });

  it("takes only the children it has room for; the others are claimed", async () => {
    // Two rounds, also on PGlite (whose default is to take everything).
    const rt = await open({
      TANDEM_CONCURRENCY: "1",
      TANDEM_POLL_MS: "600000",
      TANDEM_LOCAL_TAKE_ROUNDS: "2",
    });
    await auditLeases(opened!);
    await rt.scheduler.start();
    // One slot: the parent wants it while it spawns, so one more thread fits (two rounds of one).
    const { completed, leasedBy } = await fanOut(rt, opened!, 6);
    expect(completed).toBe(6);
    expect(leasedBy).toEqual({ insert: 1, update: 5 });
  });
});
