// Wake-ups without the poll. With TANDEM_POLL_MS at ten minutes, every thread that becomes runnable
// must be claimed through NOTIFY alone: a parent whose children keep reporting (their inbox rows
// reference the parent's row while they commit), a thread that parks while input arrives, runnable
// threads left waiting while the process was full (TANDEM_CONCURRENCY=3). A missed wake-up leaves
// the run waiting for the poll, and the test past its deadline.
import postgres from "postgres";
import { describe, expect, it } from "vitest";
import { testBackend } from "../support/database";
import { testServerForFile } from "../support/fixture";
import { assetFanOutBundle } from "../support/subagent-bundles";
import { type ApiMessage, threadHelpers } from "../support/thread-helpers";

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
    const projectId = await projectWith(assetFanOutBundle(fanOut));
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

  // A full process claims again when a step leaves its slot for a model call (issue 19): with three
  // slots and the poll off, nine threads waiting on a slow model are all claimed through that wake-up
  // alone, their calls in flight together, long before any call ends.
  it("claims more threads when steps leave their slots for model calls", async () => {
    const projectId = await projectWith({
      agents: [{ name: "assistant", sideA: { prompt: "chat" } }],
      prompts: [
        { name: "chat", toolDescription: "c", prompt: "Be brief.", model: "demo", includeChat: true },
      ],
      models: [
        { name: "demo", provider: "scripted", model: "s", script: [{ text: "late", delayMs: 5_000 }] },
      ],
    });
    const threads = await Promise.all(
      Array.from({ length: 9 }, (_, index) => startThread(projectId, "assistant", `q${index}`)),
    );
    await waitUntil(
      "nine model calls in flight",
      async () => {
        const health = await fixture.api<{ load: { model_calls: { in_flight: number } } }>(
          "GET",
          "/api/health",
        );
        return health.body.load.model_calls.in_flight === 9;
      },
      4_000,
    );
    for (const threadId of threads) await waitFor(threadId, ["idle"]);
  });

  // A child committing its report into its parent's inbox holds FOR KEY SHARE on the parent's row
  // (the inbox row's foreign key) until it commits. A claim that locked FOR UPDATE SKIP LOCKED skipped
  // the runnable parent meanwhile, and with the poll off nothing claimed it again.
  if (testBackend() === "postgres")
    it("claims a runnable thread while another transaction holds FOR KEY SHARE on its row", async () => {
      const projectId = await projectWith({
        agents: [{ name: "assistant", sideA: { prompt: "chat" } }],
        prompts: [
          { name: "chat", toolDescription: "c", prompt: "Be brief.", model: "demo", includeChat: true },
        ],
        models: [{ name: "demo", provider: "scripted", model: "s", script: [{ text: "answered" }] }],
        tools: [],
      });
      const threadId = await startThread(projectId, "assistant");
      await waitFor(threadId, ["idle"]);
      const sql = postgres(fixture.databaseUrl as string, { max: 1, onnotice: () => {} });
      try {
        await sql.begin(async (tx) => {
          await tx`SELECT 1 FROM threads WHERE id = ${threadId} FOR KEY SHARE`;
          const posted = await fixture.api("POST", `/api/threads/${threadId}/messages`, {
            content: "question",
          });
          expect(posted.status).toBe(202);
          // Answered while the key-share lock is still held (the poll is off: only the NOTIFY claims).
          await waitUntil(
            "the answer",
            async () => (await messagesOf(threadId)).some((message) => message.content === "answered"),
            10_000,
          );
        });
      } finally {
        await sql.end();
      }
    });
});
