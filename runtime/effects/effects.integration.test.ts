// Scheduled effects end to end inside one process, on each backend (PGlite always, Postgres too when
// DATABASE_URL names a server): ThreadState.scheduleEffect commits a row, runners claim it with a
// lease and run it once at or after its time; a throwing effect is retried with back-off and ends
// `failed` with its error; a cancelled one never runs; an effect left running by a dead process (its
// lease expiring) runs again; a drain hands running effects back; a scheduled effect outlives the
// runner that was up when it was scheduled. The HTTP routes and a real restart are in
// test/api/effects.integration.test.ts, a SIGKILL mid-effect in test/faults/effects.faults.test.ts.
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@/lib/db/database";
import { openTestDatabase, testDatabaseBackends } from "../../test/support/open-database";
import { loadThreadState } from "../engine/thread-state";
import type { ThreadState } from "../extensions/define";
import { HookRunner } from "../extensions/hook-runner";
import { type ExtensionRegistry, loadExtensions } from "../extensions/registry";
import { createRuntime, type Runtime } from "../runtime";
import { DefinitionsCache } from "../store/definitions";
import { type EffectRow, findEffect } from "../store/effect-store";
import { EffectRunner } from "./effect-runner";
import type { EffectSettings } from "./settings";

const EXTENSIONS = path.resolve(import.meta.dirname, "../../test/extensions");

const bundle = {
  agents: [{ name: "assistant", sideA: { prompt: "chat" } }],
  prompts: [{ name: "chat", toolDescription: "c", prompt: "Be brief.", model: "demo", includeChat: true }],
  models: [
    { name: "demo", provider: "scripted", model: "s", script: [{ text: "answer" }], scriptLoopFrom: 0 },
  ],
  tools: [],
};

describe.each(testDatabaseBackends())("scheduled effects on %s", (backend) => {
  let database: Database;
  let runtime: Runtime;
  let registry: ExtensionRegistry;
  let projectId: string;
  const runners: EffectRunner[] = [];

  beforeAll(async () => {
    // ThreadState.scheduleEffect checks names against the process's registry: point it here.
    process.env.TANDEM_EXTENSIONS_DIR = EXTENSIONS;
    (globalThis as { __tandemExtensions?: unknown }).__tandemExtensions = undefined;
    registry = await loadExtensions(EXTENSIONS);
    database = await openTestDatabase(backend);
    runtime = createRuntime(database);
    projectId = (await runtime.projects.create({ name: "effects", definitions: bundle })).id;
  });
  afterAll(async () => {
    for (const runner of runners) await runner.stop();
    await runtime?.scheduler.stop();
    await database?.close();
  });

  async function newThread(): Promise<{ id: string; state: ThreadState }> {
    const { threadId } = await runtime.threads.create({ projectId, agentName: "assistant" });
    return { id: threadId, state: (await stateFor(threadId))! };
  }

  function stateFor(threadId: string, effect?: { id: string; name: string }) {
    return loadThreadState(
      {
        db: database.sql,
        definitions: new DefinitionsCache(database.sql),
        hooks: new HookRunner(registry),
        terminate: (id) => runtime.threads.terminate(id).then(() => {}),
      },
      threadId,
      effect ? { messageMetadata: { scheduledEffect: effect } } : {},
    );
  }

  /** A runner like the runtime's, with short leases and back-off for the test. */
  async function startRunner(settings: Partial<EffectSettings> = {}): Promise<EffectRunner> {
    const runner = new EffectRunner(
      {
        db: database.sql,
        notifications: database.notifications,
        effects: async () => registry.effects,
        stateFor,
        log: () => {},
      },
      { leaseMs: 600, retryMs: 50, pollMs: 60_000, maxAttempts: 3, ...settings },
    );
    runners.push(runner);
    await runner.start();
    return runner;
  }

  async function effect(threadId: string, id: string): Promise<EffectRow> {
    return (await findEffect(database.sql, threadId, id))!;
  }

  async function until(
    threadId: string,
    id: string,
    statuses: string[],
    timeoutMs = 15_000,
  ): Promise<EffectRow> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const row = await effect(threadId, id);
      if (statuses.includes(row.status)) return row;
      if (Date.now() > deadline) throw new Error(`effect ${id} is ${row.status}, not ${statuses.join("|")}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  async function notes(threadId: string): Promise<{ content: string | null; metadata: unknown }[]> {
    const { messages } = await runtime.threads.messages(threadId, { includeSilent: true });
    return messages
      .filter((message) => message.role === "system")
      .map((message) => ({ content: message.content, metadata: message.metadata }));
  }

  it("commits the row at once and runs the effect once, outside any turn, with its args; its messages name it", async () => {
    const runner = await startRunner();
    const { id: threadId, state } = await newThread();
    const id = await state.scheduleEffect("record_ping", { note: "hello" });
    const done = await until(threadId, id, ["done"]);
    expect(done).toMatchObject({ name: "record_ping", args: { note: "hello" }, attempts: 1, error: null });
    expect(done.started_at!).toBeGreaterThanOrEqual(done.run_at);
    expect(await notes(threadId)).toEqual([
      {
        content: "ping: hello (execution null)",
        metadata: { scheduledEffect: { id, name: "record_ping" } },
      },
    ]);
    // Once: nothing runs it again.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await notes(threadId)).length).toBe(1);
    expect(await state.getScheduledEffects()).toEqual([]);
    await runner.stop();
  });

  it("waits for the delay: pending until its time, then run at or after it", async () => {
    const runner = await startRunner();
    const { id: threadId, state } = await newThread();
    const id = await state.scheduleEffect("record_ping", { note: "later" }, 700);
    const pending = await state.getScheduledEffects("record_ping");
    expect(pending).toEqual([
      expect.objectContaining({
        id,
        name: "record_ping",
        args: { note: "later" },
        status: "scheduled",
        attempts: 0,
      }),
    ]);
    expect(pending[0]!.scheduledAt - pending[0]!.createdAt).toBe(700_000);
    expect(await state.getScheduledEffects("other")).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect((await effect(threadId, id)).status).toBe("scheduled");
    const done = await until(threadId, id, ["done"]);
    expect(done.started_at!).toBeGreaterThanOrEqual(done.run_at);
    // The timer, not the (minute-long) poll, started it: within a second of its time.
    expect(done.started_at! - done.run_at).toBeLessThan(1_000_000);
    await runner.stop();
  });

  it("never runs a cancelled effect, and cancels only what has not started", async () => {
    const runner = await startRunner();
    const { id: threadId, state } = await newThread();
    const id = await state.scheduleEffect("record_ping", { note: "never" }, 300);
    expect(await state.removeScheduledEffect(id)).toBe(true);
    expect(await state.removeScheduledEffect(id)).toBe(false);
    expect(await state.removeScheduledEffect("not-an-id")).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(await effect(threadId, id)).toMatchObject({ status: "cancelled", attempts: 0 });
    expect(await notes(threadId)).toEqual([]);
    // A finished effect cannot be cancelled.
    const ran = await state.scheduleEffect("record_ping", { note: "ran" });
    await until(threadId, ran, ["done"]);
    expect(await state.removeScheduledEffect(ran)).toBe(false);
    expect((await effect(threadId, ran)).status).toBe("done");
    await runner.stop();
  });

  it("refuses an unknown effect name with the spec's message and stores nothing", async () => {
    const { id: threadId, state } = await newThread();
    await expect(state.scheduleEffect("ghost", {})).rejects.toThrow("Effect not found: ghost");
    await expect(state.scheduleEffect("record_ping", {}, -5)).rejects.toThrow("delayMs");
    const rows = await database.sql.query("SELECT id FROM scheduled_effects WHERE thread_id = $1", [
      threadId,
    ]);
    expect(rows).toEqual([]);
  });

  it("retries a throwing effect with back-off until it succeeds, or ends failed with its error", async () => {
    const runner = await startRunner({ maxAttempts: 3, retryMs: 100 });
    const { id: threadId, state } = await newThread();
    const recovers = await state.scheduleEffect("flaky", { failures: 2, key: "recovers" });
    const gives_up = await state.scheduleEffect("flaky", { failures: 10, key: "gives_up" });
    const recovered = await until(threadId, recovers, ["done", "failed"]);
    expect(recovered).toMatchObject({ status: "done", attempts: 3 });
    // Back-off: 100 ms after the first failure, 200 ms after the second.
    expect(recovered.started_at! - recovered.created_at).toBeGreaterThanOrEqual(300_000);
    const failed = await until(threadId, gives_up, ["done", "failed"]);
    expect(failed).toMatchObject({ status: "failed", attempts: 3, error: "mail server down (run 3)" });
    expect((await notes(threadId)).map((note) => note.content)).toEqual(["flaky succeeded on run 3"]);
    // Invalid arguments fail at once: a retry cannot fix them.
    const invalid = await state.scheduleEffect("record_ping", { note: 5 });
    expect(await until(threadId, invalid, ["done", "failed"])).toMatchObject({
      status: "failed",
      attempts: 1,
      error: expect.stringContaining("Effect argument validation failed: [note]"),
    });
    await runner.stop();
  });

  it("runs again an effect whose process died mid-run (its lease expired), and gives up after the attempts", async () => {
    const { id: threadId, state } = await newThread();
    const id = await state.scheduleEffect("record_ping", { note: "resumed" }, 0);
    const lost = await state.scheduleEffect("record_ping", { note: "lost" }, 0);
    // What a process that claimed them and was SIGKILLed leaves behind: running, a lease about to expire.
    await database.sql.query(
      `UPDATE scheduled_effects SET status = 'running', attempts = CASE WHEN id = $2 THEN 1 ELSE 3 END,
         lease_owner = 'dead-process', lease_expires_at = now() + interval '400 milliseconds'
       WHERE thread_id = $1`,
      [threadId, id],
    );
    const runner = await startRunner({ maxAttempts: 3 });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await effect(threadId, id)).status).toBe("running");
    expect(await until(threadId, id, ["done"])).toMatchObject({ attempts: 2 });
    expect(await until(threadId, lost, ["failed"])).toMatchObject({
      attempts: 4,
      error: expect.stringContaining("Gave up after 3 attempts"),
    });
    expect((await notes(threadId)).map((note) => note.content)).toEqual(["ping: resumed (execution null)"]);
    await runner.stop();
  });

  it("keeps a scheduled effect across runners: one stops before it is due, the next runs it", async () => {
    const first = await startRunner();
    const { id: threadId, state } = await newThread();
    const id = await state.scheduleEffect("record_ping", { note: "after restart" }, 500);
    await first.stop();
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect((await effect(threadId, id)).status).toBe("scheduled");
    const second = await startRunner();
    expect(await until(threadId, id, ["done"])).toMatchObject({ attempts: 1 });
    await second.stop();
  });

  it("hands a running effect back on a drain, without counting the interrupted attempt", async () => {
    const first = await startRunner();
    const { id: threadId, state } = await newThread();
    const id = await state.scheduleEffect("slow_effect", { ms: 1_500, key: "drained" });
    await until(threadId, id, ["running"]);
    expect(await first.drain(100)).toEqual({ finished: 0, handedBack: 1 });
    expect(await effect(threadId, id)).toMatchObject({ status: "scheduled", attempts: 0 });
    const second = await startRunner();
    expect(await until(threadId, id, ["done"])).toMatchObject({ attempts: 1 });
    await second.stop();
  });

  it("shares effects between runners: each due effect runs exactly once", async () => {
    // Leases long enough not to expire on a loaded machine: here no process dies, so nothing may run twice.
    const a = await startRunner({ concurrency: 4, leaseMs: 10_000 });
    const b = await startRunner({ concurrency: 4, leaseMs: 10_000 });
    const { id: threadId, state } = await newThread();
    const ids = await Promise.all(
      Array.from({ length: 30 }, (_, index) =>
        state.scheduleEffect("record_ping", { note: `n${index}` }, 50),
      ),
    );
    for (const id of ids) expect((await until(threadId, id, ["done"])).attempts).toBe(1);
    const contents = (await notes(threadId)).map((note) => note.content);
    expect(contents.length).toBe(30);
    expect(new Set(contents).size).toBe(30);
    await a.stop();
    await b.stop();
  });

  it("cancels the effects of a terminated thread when they come due, and refuses new ones", async () => {
    const runner = await startRunner();
    const { id: threadId, state } = await newThread();
    const id = await state.scheduleEffect("record_ping", { note: "too late" }, 300);
    await runtime.threads.terminate(threadId);
    expect(await until(threadId, id, ["cancelled", "done"])).toMatchObject({
      status: "cancelled",
      error: "The thread was terminated before the effect ran.",
    });
    await expect((await stateFor(threadId))!.scheduleEffect("record_ping", { note: "x" })).rejects.toThrow(
      "terminated",
    );
    expect(await notes(threadId)).toEqual([]);
    await runner.stop();
  });
});
