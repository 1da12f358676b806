// Issue 41: stop works on any thread of a tree and stops the blocking work it waits on. The team-lead
// template (a lead blocked on its writer 'ada'): stopping the lead stops 'ada' too (no more tokens),
// the lead's call is answered with ada's "stopped" report, and both stay usable — the next message
// runs the lead, which creates the critic and later messages 'ada' again, who runs. Stopping 'ada'
// alone lets the lead go on with her report. On each backend: PGlite always, Postgres too when
// DATABASE_URL names a server.
import { describe, expect, it } from "vitest";
import type { Bundle } from "@/lib/standard";
import { namedWorkersTemplate } from "@/lib/studio/templates";
import { testDatabaseBackends } from "../../test/support/open-database";
import { useStartedRuntime } from "../../test/support/started-runtime";
import { STOPPED_BY_USER } from "./thread-stop";

/** The template with shorter demo delays: long enough to stop a worker mid-run. */
function quickTemplate(): Bundle {
  const bundle = namedWorkersTemplate();
  return {
    ...bundle,
    models: bundle.models.map((model) => ({
      ...model,
      script: model.script?.map((step) => (step.delayMs ? { ...step, delayMs: 400 } : step)),
    })),
  };
}

describe.each(testDatabaseBackends())("user stop in a tree (%s)", (backend) => {
  const subject = useStartedRuntime(backend);

  async function until<T>(what: string, read: () => Promise<T | null | undefined>): Promise<T> {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const value = await read();
      if (value) return value;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  async function child(rootId: string, name: string) {
    const [row] = await subject.database.sql.query<{ id: string; status: string; input_tokens: string }>(
      "SELECT id, status, input_tokens FROM threads WHERE root_id = $1 AND name = $2",
      [rootId, name],
    );
    return row ? { ...row, input_tokens: Number(row.input_tokens) } : null;
  }

  async function settled(rootId: string): Promise<void> {
    await until(`tree ${rootId} to settle`, async () => {
      const [row] = await subject.database.sql.query<{ busy: number }>(
        `SELECT count(*)::int AS busy FROM threads t WHERE t.root_id = $1
           AND (t.status IN ('queued', 'running', 'waiting_approval')
             OR EXISTS (SELECT 1 FROM inbox_items i WHERE i.thread_id = t.id AND i.consumed_at IS NULL))`,
        [rootId],
      );
      return Number(row?.busy) === 0;
    });
  }

  async function startLead() {
    const project = await subject.runtime.projects.create({ name: "stop", definitions: quickTemplate() });
    const { threadId } = await subject.runtime.threads.create({
      projectId: project.id,
      agentName: "team_lead",
      message: "a poem about tides",
    });
    const ada = await until("ada to run", async () => {
      const row = await child(threadId, "ada");
      return row?.status === "running" ? row : null;
    });
    return { threadId, ada };
  }

  it("stopping the root stops the child it waits on, and both go on with the next message", async () => {
    const { threadId, ada } = await startLead();
    const answer = await subject.runtime.threads.stop(threadId);
    expect(answer.thread.status).toBe("stopped");
    const stoppedAda = await child(threadId, "ada");
    expect(stoppedAda?.status).toBe("stopped");
    expect(answer.stopped).toEqual([ada.id, threadId]);
    // Nothing of hers goes on: her tokens stay where they were.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const later = await child(threadId, "ada");
    expect(later?.status).toBe("stopped");
    expect(later?.input_tokens).toBe(stoppedAda?.input_tokens);

    // The lead's call is answered with ada's report, not a bare stop.
    const messages = (await subject.runtime.threads.messages(threadId, { includeSilent: true })).messages;
    const result = messages.find((message) => message.role === "tool");
    expect(result?.content).toContain(`reference: ${ada.id}`);
    expect(result?.content).toContain("stopped before finishing");
    expect(result?.content).not.toBe(STOPPED_BY_USER);

    // The conversation goes on: the lead creates the critic…
    await subject.runtime.threads.postMessage(threadId, { content: "go on" });
    await settled(threadId);
    expect((await subject.runtime.threads.get(threadId)).status).toBe("idle");
    expect((await child(threadId, "grace"))?.status).toBe("completed");
    // …and messages ada again, who runs (her stop lifted by her parent's message) and publishes.
    await subject.runtime.threads.postMessage(threadId, { content: "revise it" });
    await settled(threadId);
    expect((await subject.runtime.threads.get(threadId)).status).toBe("idle");
    expect((await child(threadId, "ada"))?.status).toBe("completed");
    const last = (await subject.runtime.threads.messages(threadId, { includeSilent: false })).messages.at(-1);
    expect(last?.role).toBe("assistant");
    expect(last?.content).toMatch(/^Revised and reviewed again/);
  }, 90_000);

  it("stopping a running child lets its parent go on with the child's report", async () => {
    const { threadId, ada } = await startLead();
    const answer = await subject.runtime.threads.stop(ada.id);
    expect(answer.thread.status).toBe("stopped");
    expect(answer.stopped).toEqual([ada.id]);
    await settled(threadId);
    expect((await child(threadId, "ada"))?.status).toBe("stopped");
    expect((await subject.runtime.threads.get(threadId)).status).toBe("idle");
    const messages = (await subject.runtime.threads.messages(threadId, { includeSilent: true })).messages;
    expect(messages.find((message) => message.role === "tool")?.content).toContain(
      "stopped before finishing",
    );
  }, 90_000);
});
