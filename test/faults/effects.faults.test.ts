// Effects survive a SIGKILL (TANDEM_CRASH_AT) on Postgres: a process killed right after it claimed an
// effect, or after the handler ran but before `done` was recorded, leaves a lease that expires; the
// restarted server runs the effect again and records one success. The second case shows the
// at-least-once delivery of docs/runtime.md ("Effects"): the handler's message is there twice.
import path from "node:path";
import { describe, expect, it } from "vitest";
import { testServerForFile } from "../support/fixture";
import { threadHelpers } from "../support/thread-helpers";

const fixture = testServerForFile({
  TANDEM_EXTENSIONS_DIR: path.resolve(__dirname, "../extensions"),
  // The default lease (renewed every 2 s): a shorter one could lapse on a loaded machine while the
  // restarted server runs the effect, which then counts a third attempt (at-least-once, as designed).
  TANDEM_LEASE_MS: "6000",
});
const api = fixture.api;
const { projectWith, startThread, waitFor } = threadHelpers(fixture);

const bundle = (note: string) => ({
  agents: [{ name: "assistant", sideA: { prompt: "chat" } }],
  prompts: [
    {
      name: "chat",
      toolDescription: "Chats",
      prompt: "You are helpful.",
      model: "demo",
      includeChat: true,
      tools: ["schedule_effect"],
    },
  ],
  models: [
    {
      name: "demo",
      provider: "scripted",
      model: "scripted",
      script: [
        {
          toolCalls: [
            { name: "schedule_effect", args: { name: "record_ping", args: { note }, delayMs: 3_000 } },
          ],
        },
        { text: "ok" },
      ],
    },
  ],
  tools: [{ name: "schedule_effect", description: "Schedules", kind: "code", module: "schedule_effect" }],
});

interface ApiEffect {
  id: string;
  status: string;
  attempts: number;
}

async function settledEffect(threadId: string): Promise<ApiEffect> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const response = await api<{ effects: ApiEffect[] }>("GET", `/api/threads/${threadId}/effects`);
    expect(response.body.effects).toHaveLength(1);
    const effect = response.body.effects[0];
    if (effect && (effect.status === "done" || effect.status === "failed")) return effect;
    if (Date.now() > deadline) throw new Error(`the effect did not finish: ${JSON.stringify(response.body)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function pings(threadId: string, note: string): Promise<number> {
  const response = await api<{ messages: { content: string | null; metadata: Record<string, unknown> }[] }>(
    "GET",
    `/api/threads/${threadId}/messages?includeSilent=true`,
  );
  return response.body.messages.filter((message) => message.content === `ping: ${note} (execution null)`)
    .length;
}

describe("an effect whose process is killed", () => {
  for (const scenario of [
    { crashAt: "effect_started@record_ping", note: "claimed", runs: 1 },
    { crashAt: "before_effect_commit@record_ping", note: "ran", runs: 2 },
  ]) {
    it(`runs again after a restart (${scenario.crashAt})`, async () => {
      await fixture.server.restart({ TANDEM_CRASH_AT: scenario.crashAt });
      const projectId = await projectWith(bundle(scenario.note));
      const threadId = await startThread(projectId, "assistant", "schedule it");
      // The turn ends well before the effect is due: the kill hits the effect, not the thread's step.
      await waitFor(threadId, ["idle"]);
      await fixture.server.exited(30_000);
      expect(fixture.server.output()).toContain("crash point");
      await fixture.server.restart({ TANDEM_CRASH_AT: "" });
      const effect = await settledEffect(threadId);
      expect(effect).toMatchObject({ status: "done", attempts: 2 });
      expect(await pings(threadId, scenario.note)).toBe(scenario.runs);
    });
  }
});
