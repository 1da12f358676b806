// How much a process takes at once of what it makes runnable itself (Scheduler.takeLocally): a
// thread waits here for a step slot instead of in the database for a claim, for at most one more
// round of steps (TANDEM_CONCURRENCY) and never past TANDEM_MAX_CLAIMED_THREADS; a stopped
// scheduler takes nothing (the statement then leaves the thread to any scheduler and notifies).
// The statements and the run of a taken thread: runtime/statement-budget.integration.test.ts.
import { afterEach, describe, expect, it } from "vitest";
import type { Database } from "@/lib/db/database";
import { openTestDatabase, testDatabaseBackends } from "@/test/support/open-database";
import { createRuntime, type Runtime } from "../runtime";
import type { LocalTake } from "./scheduler";

describe.each(testDatabaseBackends())("taking threads at once on %s", (backend) => {
  let opened: Database | null = null;
  let runtime: Runtime | null = null;

  afterEach(async () => {
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

  it("takes nothing while stopped", async () => {
    const { scheduler } = await open({});
    expect(scheduler.takeLocally()).toBeNull();
    await scheduler.start();
    expect(scheduler.takeLocally()).not.toBeNull();
    await scheduler.stop();
    expect(scheduler.takeLocally()).toBeNull();
  });

  it("takes two rounds of steps, and room given back is taken again", async () => {
    const { scheduler } = await open({ TANDEM_CONCURRENCY: "3", TANDEM_POLL_MS: "600000" });
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

  it("never holds more threads than TANDEM_MAX_CLAIMED_THREADS", async () => {
    const { scheduler } = await open({
      TANDEM_CONCURRENCY: "4",
      TANDEM_MAX_CLAIMED_THREADS: "5",
      TANDEM_POLL_MS: "600000",
    });
    await scheduler.start();
    expect(takeAll(scheduler)).toHaveLength(5);
  });
});
