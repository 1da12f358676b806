// Wake-ups without the poll. With TANDEM_POLL_MS at ten minutes, every thread that becomes runnable
// must be claimed through NOTIFY alone: a parent whose children keep reporting (their inbox rows
// reference the parent's row while they commit), a thread that parks while input arrives, runnable
// threads left waiting while the process was full (TANDEM_CONCURRENCY=3). A missed wake-up leaves
// the run waiting for the poll, and the test past its deadline.
import { describe, expect, it } from "vitest";
import { testServerForFile } from "../fixture";
import { assetBundle } from "../subagent-bundles";
import { type ApiMessage, threadHelpers } from "../thread-helpers";

const fixture = testServerForFile({ TANDEM_POLL_MS: "600000", TANDEM_CONCURRENCY: "3" });
const { projectWith, startThread, waitFor, messagesOf } = threadHelpers(fixture);

function reportsOf(messages: ApiMessage[]): ApiMessage[] {
  return messages.filter((message) => message.silent && message.content?.startsWith("Subagent (reference:"));
}

async function waitUntil(what: string, check: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe("wake-ups with the poll off", () => {
  it("delivers every report of a fan-out wider than the process and ends the parent's turns", async () => {
    const fanOut = 24;
    const projectId = await projectWith(
      assetBundle({
        config: { blocking: false },
        orchestratorScript: [
          {
            toolCalls: Array.from({ length: fanOut }, (_, index) => ({
              name: "asset_subagent",
              args: { message: `job ${index}` },
            })),
          },
          ...Array.from({ length: fanOut + 1 }, () => ({ text: "noted" })),
        ],
      }),
    );
    const parentId = await startThread(projectId, "orchestrator", "many jobs");
    await waitUntil(
      "every report",
      async () => reportsOf(await messagesOf(parentId, true)).length === fanOut,
    );
    const parent = await waitFor(parentId, ["idle"]);
    expect(parent.status).toBe("idle");
    const perChild = new Map<string, number>();
    for (const report of reportsOf(await messagesOf(parentId, true))) {
      const childId = (report as ApiMessage & { subagent_id: string }).subagent_id;
      perChild.set(childId, (perChild.get(childId) ?? 0) + 1);
    }
    expect([...perChild.values()]).toEqual(Array(fanOut).fill(1));
  });

  it("answers a message that arrived while the thread was running", async () => {
    const projectId = await projectWith({
      agents: [{ name: "assistant", sideA: { prompt: "chat" } }],
      prompts: [
        { name: "chat", toolDescription: "c", prompt: "Be brief.", model: "demo", includeChat: true },
      ],
      models: [
        {
          name: "demo",
          provider: "scripted",
          model: "s",
          script: [{ text: "first answer", delayMs: 400 }, { text: "second answer" }],
        },
      ],
    });
    const threadId = await startThread(projectId, "assistant", "first question");
    await waitFor(threadId, ["running"]);
    const posted = await fixture.api("POST", `/api/threads/${threadId}/messages`, {
      content: "second question",
    });
    expect(posted.status).toBe(202);
    await waitUntil("both answers", async () =>
      (await messagesOf(threadId)).some((message) => message.content === "second answer"),
    );
    const transcript = (await messagesOf(threadId)).map((message) => message.content);
    expect(transcript).toEqual(["first question", "first answer", "second question", "second answer"]);
  });
});
