// Time limits (issue 7): a code tool call past TANDEM_TOOL_TIMEOUT_MS answers an error the model
// reads; a run past TANDEM_MAX_RUN_MS is stopped with its reason; a thread nobody claims within
// TANDEM_MAX_QUEUED_MS fails with its reason; a child ended by either reports the failure to its
// parent exactly once. One thread at a time (TANDEM_CONCURRENCY=1) makes threads wait.
import path from "node:path";
import { describe, expect, it } from "vitest";
import { queuedLimitReason, runLimitReason } from "../../runtime/scheduler/settings";
import { testServerForFile } from "../support/fixture";
import { assetBundle, failureText } from "../support/subagent-bundles";
import { type ApiMessage, threadHelpers } from "../support/thread-helpers";

const MAX_RUN_MS = 3_000;
const MAX_QUEUED_MS = 1_000;
const fixture = testServerForFile({
  TANDEM_EXTENSIONS_DIR: path.resolve(__dirname, "../extensions"),
  TANDEM_CONCURRENCY: "1",
  // One thread held at a time: a step waiting on its model leaves its slot (issue 19), and the
  // queued-limit test needs threads that nobody claims while one runs.
  TANDEM_MAX_CLAIMED_THREADS: "1",
  TANDEM_MAX_RUN_MS: String(MAX_RUN_MS),
  TANDEM_MAX_QUEUED_MS: String(MAX_QUEUED_MS),
  TANDEM_TOOL_TIMEOUT_MS: "500",
  // The sweeper runs on the poll: a short one, so a thread past the queued limit is caught well
  // before the slot it waits for frees up (the default 1 s poll made this a race on a slow backend).
  TANDEM_POLL_MS: "200",
});
const { projectWith, startThread, waitFor, messagesOf } = threadHelpers(fixture);

const chatBundle = (script: unknown[], tools: string[] = []) => ({
  agents: [{ name: "assistant", sideA: { prompt: "chat" } }],
  prompts: [
    { name: "chat", toolDescription: "c", prompt: "Be brief.", model: "demo", includeChat: true, tools },
  ],
  models: [{ name: "demo", provider: "scripted", model: "s", script }],
  tools: tools.map((name) => ({ name, description: `Runs ${name}`, kind: "code", module: name })),
});

const childBundle = (orchestratorScript: unknown[], workerDelayMs: number) =>
  assetBundle({
    config: { blocking: false, initUserMessageProperty: "task" },
    orchestratorScript,
    workerScript: [{ text: "Draft: {{input}}", delayMs: workerDelayMs }],
  });

const spawnOne = { toolCalls: [{ name: "asset_subagent", args: { task: "a castle" } }] };

function reportsOf(messages: ApiMessage[]): ApiMessage[] {
  return messages.filter((message) => message.silent && message.content?.startsWith("Subagent (reference:"));
}

async function waitForReports(parentId: string, count: number): Promise<ApiMessage[]> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const reports = reportsOf(await messagesOf(parentId, true));
    if (reports.length >= count) return reports;
    if (Date.now() > deadline) throw new Error(`parent ${parentId} got ${reports.length} reports`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe("time limits", () => {
  it("answers a code tool call that outlives TANDEM_TOOL_TIMEOUT_MS with an error the model reads", async () => {
    const project = await projectWith(
      chatBundle(
        [{ toolCalls: [{ name: "overdue_tool", args: {} }] }, { text: "it was too slow" }],
        ["overdue_tool"],
      ),
    );
    const threadId = await startThread(project, "assistant", "go");
    await waitFor(threadId, ["idle"]);
    const messages = await messagesOf(threadId);
    const result = messages.find((message) => message.role === "tool");
    expect(result?.tool_status).toBe("error");
    expect(result?.content).toContain('Tool "overdue_tool" timed out after 500 ms (TANDEM_TOOL_TIMEOUT_MS).');
    expect(messages.at(-1)?.content).toBe("it was too slow");
  });

  it("stops a run past TANDEM_MAX_RUN_MS with its reason", async () => {
    const project = await projectWith(chatBundle([{ text: "too late", delayMs: 8_000 }]));
    const started = Date.now();
    const threadId = await startThread(project, "assistant", "take your time");
    const thread = await waitFor(threadId, ["stopped"], 10_000);
    expect(Date.now() - started).toBeLessThan(MAX_RUN_MS + 3_000);
    expect(thread.stop_reason).toBe(runLimitReason(MAX_RUN_MS));
    expect((await messagesOf(threadId)).map((message) => message.role)).toEqual(["user"]);
  });

  it("reports a child stopped by the run limit to its parent as a failure, once", async () => {
    const project = await projectWith(childBundle([spawnOne, { text: "started" }, { text: "noted" }], 8_000));
    const parentId = await startThread(project, "orchestrator", "draw");
    const [report] = await waitForReports(parentId, 1);
    const reference = (report as ApiMessage & { subagent_id: string }).subagent_id;
    const child = await waitFor(reference, ["stopped"]);
    expect(child.stop_reason).toBe(runLimitReason(MAX_RUN_MS));
    expect(report?.content).toBe(
      failureText(reference, `The subagent stopped before finishing its task: ${runLimitReason(MAX_RUN_MS)}`),
    );
    await waitFor(parentId, ["idle"]);
    expect(reportsOf(await messagesOf(parentId, true))).toHaveLength(1);
  });

  it("fails threads nobody claims within TANDEM_MAX_QUEUED_MS, and a child's parent hears of it once", async () => {
    // The parent holds the only slot for 2 s after spawning (well under the 3 s run limit): its child and a
    // new thread wait.
    const project = await projectWith(
      childBundle([spawnOne, { text: "started", delayMs: 2_000 }, { text: "noted" }], 0),
    );
    const parentId = await startThread(project, "orchestrator", "draw");
    await new Promise((resolve) => setTimeout(resolve, 300));
    const chat = await projectWith(chatBundle([{ text: "never" }]));
    const waiting = await startThread(chat, "assistant", "anyone there?");

    const root = await waitFor(waiting, ["failed"], 10_000);
    expect(root.failure).toBe(queuedLimitReason(MAX_QUEUED_MS));
    // The input it waited with is kept in its history, and it does not run later for it.
    expect((await messagesOf(waiting)).map((message) => message.content)).toEqual(["anyone there?"]);

    const [report] = await waitForReports(parentId, 1);
    const reference = (report as ApiMessage & { subagent_id: string }).subagent_id;
    const child = await waitFor(reference, ["failed"]);
    expect(child.failure).toBe(queuedLimitReason(MAX_QUEUED_MS));
    expect(report?.content).toBe(failureText(reference, queuedLimitReason(MAX_QUEUED_MS)));
    await waitFor(parentId, ["idle"]);
    expect(reportsOf(await messagesOf(parentId, true))).toHaveLength(1);
    expect((await waitFor(waiting, ["failed"])).status).toBe("failed");
  });
});
