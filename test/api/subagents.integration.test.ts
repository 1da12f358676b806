// Subagents (spec §7) through the HTTP API with scripted models: the four invocation modes, the
// initial mapping, child → parent reports, the registry, resumable instances, attachments both ways,
// terminate, and usage rolled up the tree.
import path from "node:path";
import { describe, expect, it } from "vitest";
import { testServerForFile } from "../fixture";
import { assetBundle, failureText, resultText } from "../subagent-bundles";
import { type ApiMessage, threadHelpers } from "../thread-helpers";

const fixture = testServerForFile({ TANDEM_EXTENSIONS_DIR: path.resolve(__dirname, "../extensions") });
const api = fixture.api;
const { projectWith, startThread, waitFor, messagesOf, modelRequests } = threadHelpers(fixture);

type RegistryEntry = {
  reference: string;
  name: string;
  description: string;
  status: string;
  blocking: boolean;
  resumable: boolean;
  agent: string;
  parentCommunication: string;
};

type Usage = { input_tokens: number; output_tokens: number; cost_usd: number };
type TreeNode = {
  id: string;
  agent_id: string;
  name: string | null;
  status: string;
  blocking: boolean | null;
  resumable: boolean | null;
  parent_id: string | null;
  depth: number;
  usage: Usage;
  subtree_usage: Usage;
  children: TreeNode[];
};

async function registry(threadId: string): Promise<RegistryEntry[]> {
  const response = await api<{ subagents: RegistryEntry[] }>("GET", `/api/threads/${threadId}/subagents`);
  expect(response.status).toBe(200);
  return response.body.subagents;
}

async function threadOf(threadId: string) {
  const response = await api<{
    thread: {
      id: string;
      parent_id: string | null;
      root_id: string;
      depth: number;
      name: string | null;
      status: string;
      result: string | null;
      failure: string | null;
      children: RegistryEntry[];
      usage: Usage;
      subtree_usage: Usage;
    };
  }>("GET", `/api/threads/${threadId}`);
  expect(response.status).toBe(200);
  return response.body.thread;
}

async function waitUntil<T>(
  probe: () => Promise<T | undefined | null | false>,
  what: string,
  timeoutMs = 20_000,
) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const value = await probe();
    if (value) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

const toolResults = (messages: ApiMessage[], name: string) =>
  messages.filter((message) => message.role === "tool" && message.name === name);

const reports = (messages: ApiMessage[]) =>
  messages.filter(
    (message) =>
      message.role === "user" && message.silent && (message.content ?? "").startsWith("Subagent (reference:"),
  );

describe("blocking subagents (spec example: orchestrator and asset_subagent)", () => {
  it("waits for the child, answers the call with its result, and records the hierarchy and usage", async () => {
    const projectId = await projectWith(
      assetBundle({
        config: { blocking: true, initUserMessageProperty: "task", initAgentNameProperty: "label" },
        orchestratorScript: [
          { toolCalls: [{ name: "asset_subagent", args: { task: "a pine tree sprite", label: "trees" } }] },
          { text: "Done. {{tool_result}}" },
        ],
      }),
    );
    const parentId = await startThread(projectId, "orchestrator", "Make me a tree");
    const parent = await waitFor(parentId, ["idle"]);
    expect(parent.status).toBe("idle");

    const [entry] = await registry(parentId);
    expect(entry).toMatchObject({
      name: "trees",
      status: "completed",
      blocking: true,
      resumable: false,
      agent: "asset_subagent",
      parentCommunication: "implicit",
    });
    const childId = entry!.reference;
    const expected = resultText(childId, "Approved Draft: a pine tree sprite");

    const messages = await messagesOf(parentId);
    const [result] = toolResults(messages, "asset_subagent");
    expect(result?.content).toBe(expected);
    expect(result?.tool_status).toBe("success");
    expect(messages.at(-1)?.content).toBe(`Done. ${expected}`);
    // A blocking result is the tool result, never an extra queued report.
    expect(reports(await messagesOf(parentId, true))).toHaveLength(0);

    const child = await threadOf(childId);
    expect(child).toMatchObject({
      parent_id: parentId,
      root_id: parentId,
      depth: 1,
      name: "trees",
      status: "completed",
      result: "Approved Draft: a pine tree sprite",
    });
    // The child got the mapped task as its first message, on side A.
    const childMessages = await messagesOf(childId);
    expect(childMessages[0]).toMatchObject({ role: "user", content: "a pine tree sprite" });
    expect(childMessages.some((message) => message.side === "b" && message.role === "tool")).toBe(true);

    const view = await threadOf(parentId);
    expect(view.children.map((item) => item.reference)).toEqual([childId]);
    expect(view.subtree_usage.input_tokens).toBe(view.usage.input_tokens + child.usage.input_tokens);
    expect(child.usage.input_tokens).toBeGreaterThan(0);

    const tree = await api<{ root: TreeNode }>("GET", `/api/threads/${parentId}/tree`);
    expect(tree.status).toBe(200);
    expect(tree.body.root.children).toHaveLength(1);
    expect(tree.body.root.children[0]).toMatchObject({
      id: childId,
      agent_id: "asset_subagent",
      blocking: true,
      resumable: false,
      parent_id: parentId,
      status: "completed",
    });
    expect(tree.body.root.subtree_usage.output_tokens).toBe(
      tree.body.root.usage.output_tokens + tree.body.root.children[0]!.usage.output_tokens,
    );
  });

  it("answers a blocking call with the child's failure when it reports one", async () => {
    const projectId = await projectWith(
      assetBundle({
        config: { blocking: true, initUserMessageProperty: "task" },
        orchestratorScript: [
          { toolCalls: [{ name: "asset_subagent", args: { task: "a dragon" } }] },
          { text: "Sorry." },
        ],
        workerScript: [{ toolCalls: [{ name: "fail_asset", args: { reason: "no dragons allowed" } }] }],
      }),
    );
    const parentId = await startThread(projectId, "orchestrator", "dragon please");
    await waitFor(parentId, ["idle"]);
    const [entry] = await registry(parentId);
    expect(entry?.status).toBe("failed");
    const [result] = toolResults(await messagesOf(parentId), "asset_subagent");
    expect(result?.tool_status).toBe("error");
    expect(result?.content).toBe(failureText(entry!.reference, "no dragons allowed"));
    expect((await threadOf(entry!.reference)).failure).toBe("no dragons allowed");
  });
});

describe("non-blocking subagents", () => {
  it("returns the reference at once, then queues exactly one silent report that starts a new parent turn", async () => {
    const projectId = await projectWith(
      assetBundle({
        config: { blocking: false, initUserMessageProperty: "task" },
        orchestratorScript: [
          { toolCalls: [{ name: "asset_subagent", args: { task: "a rock" } }] },
          { text: "Started." },
          { text: "Got: {{input}}" },
        ],
        workerScript: [{ text: "Draft: {{input}}", delayMs: 300 }],
      }),
    );
    const parentId = await startThread(projectId, "orchestrator", "rock please");
    const [entry] = await waitUntil(async () => {
      const found = await registry(parentId);
      return found.length > 0 ? found : null;
    }, "the child to be registered");
    const childId = entry!.reference;
    await waitUntil(async () => (await messagesOf(parentId)).some((m) => m.content === "Started."), "turn 1");
    const [started] = toolResults(await messagesOf(parentId), "asset_subagent");
    expect(started?.tool_status).toBe("success");
    expect(started?.content).toContain(`(reference: ${childId})`);

    const expected = resultText(childId, "Approved Draft: a rock");
    await waitUntil(
      async () => (await messagesOf(parentId)).some((message) => message.content === `Got: ${expected}`),
      "the parent's turn on the report",
    );
    const all = await messagesOf(parentId, true);
    const delivered = reports(all);
    expect(delivered).toHaveLength(1);
    expect(delivered[0]).toMatchObject({ content: expected, silent: true, subagent_id: childId });
    // Silent messages stay out of the default listing.
    expect(reports(await messagesOf(parentId))).toHaveLength(0);
    await waitFor(parentId, ["idle"]);
    expect((await registry(parentId))[0]?.status).toBe("completed");
  });
});
