// Subagents (spec §7) through the HTTP API with scripted models: the four invocation modes, the
// initial mapping, child → parent reports, the registry, resumable instances, attachments both ways,
// terminate, and usage rolled up the tree.
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { ThreadTreeNode, Usage } from "../../lib/contracts/thread";
import { testServerForFile } from "../support/fixture";
import { connectSse } from "../support/sse";
import {
  assetBundle,
  assetFanOutBundle,
  detailAgent,
  failureText,
  resultText,
} from "../support/subagent-bundles";
import { type ApiMessage, threadHelpers } from "../support/thread-helpers";

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

type TreeNode = ThreadTreeNode;

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
      created_at: number;
      updated_at: number;
      finished_at?: number | null;
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

/** The parent's first registered child, once there is one. */
const firstChild = (parentId: string) =>
  waitUntil(async () => (await registry(parentId))[0] ?? null, "the child to be registered");

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

    // The root's stream replays the whole tree: one llm_request and one step_completed per model
    // step of every thread, the child's thread events, and registry events on the parent.
    const stream = await connectSse(`${fixture.server.baseUrl}/api/threads/${parentId}/events`, {
      "Last-Event-ID": "0",
    });
    const parentIdle = (frame: { event: string; data: string }) =>
      frame.event === "thread" &&
      JSON.parse(frame.data).id === parentId &&
      JSON.parse(frame.data).status === "idle";
    await stream.waitFor(parentIdle);
    stream.close();
    const telemetry = stream.frames
      .filter((frame) => frame.event === "telemetry")
      .map((frame) => JSON.parse(frame.data) as { thread_id: string; type: string });
    const count = (threadId: string, type: string) =>
      telemetry.filter((event) => event.thread_id === threadId && event.type === type).length;
    expect([count(parentId, "llm_request"), count(parentId, "step_completed")]).toEqual([2, 2]);
    expect([count(childId, "llm_request"), count(childId, "step_completed")]).toEqual([2, 2]);
    const registryEvents = stream.frames.filter((frame) => frame.event === "registry");
    expect(registryEvents.length).toBeGreaterThanOrEqual(2);
    // The reviewer's sessionStatus call showed in the parent's registry before the child ended.
    const statuses = registryEvents.map(
      (frame) => (JSON.parse(frame.data) as { children: RegistryEntry[] }).children[0]?.status,
    );
    expect(statuses).toContain("reviewing");
    expect(statuses.indexOf("reviewing")).toBeLessThan(statuses.lastIndexOf("completed"));
    expect(JSON.parse(registryEvents.at(-1)!.data)).toMatchObject({
      thread_id: parentId,
      partial: false,
      children: [{ reference: childId, status: "completed" }],
    });
    expect(
      stream.frames.some((frame) => frame.event === "thread" && JSON.parse(frame.data).id === childId),
    ).toBe(true);
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
    const entry = await firstChild(parentId);
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

describe("resumable subagents", () => {
  it("creates named instances, messages them again, enforces maxInstances and a non-empty name, and shows the registry to the model", async () => {
    const projectId = await projectWith(
      assetBundle({
        config: { blocking: true, resumable: { receives_messages: "side_a", maxInstances: 2 } },
        orchestratorScript: [
          { toolCalls: [{ name: "subagent_create", args: { name: "alpha", message: "one" } }] },
          { toolCalls: [{ name: "subagent_create", args: { name: "beta", message: "two" } }] },
          {
            toolCalls: [
              { name: "subagent_create", args: { name: "gamma", message: "three" } },
              { name: "subagent_create", args: { name: "  ", message: "four" } },
            ],
          },
          { toolCalls: [{ name: "subagent_message", args: { name: "alpha", message: "again" } }] },
          { toolCalls: [{ name: "subagent_message", args: { name: "beta", message: "more" } }] },
          { text: "all done" },
        ],
        workerScript: [{ text: "Draft: {{input}}" }, { text: "Redraft: {{input}}" }],
        reviewerScript: [
          { toolCalls: [{ name: "approve_asset", args: { summary: "Approved {{input}}" } }] },
          { toolCalls: [{ name: "approve_asset", args: { summary: "Approved again {{input}}" } }] },
        ],
      }),
    );
    const parentId = await startThread(projectId, "orchestrator", "make things");
    await waitFor(parentId, ["idle"]);
    const entries = await registry(parentId);
    expect(entries.map((entry) => [entry.name, entry.resumable, entry.status])).toEqual([
      ["alpha", true, "completed"],
      ["beta", true, "completed"],
    ]);
    const [alpha, beta] = entries as [RegistryEntry, RegistryEntry];
    const creates = toolResults(await messagesOf(parentId), "subagent_create");
    expect(creates.map((message) => message.content)).toEqual([
      resultText(alpha.reference, "Approved Draft: one"),
      resultText(beta.reference, "Approved Draft: two"),
      expect.stringContaining("the limit is 2 (maxInstances)"),
      expect.stringContaining('requires a non-empty "name"'),
    ]);
    expect(creates[2]?.content).toContain("subagent_message");
    expect(creates[2]?.tool_status).toBe("error");
    const sent = toolResults(await messagesOf(parentId), "subagent_message");
    expect(sent.map((message) => message.content)).toEqual([
      resultText(alpha.reference, "Approved again Redraft: again"),
      resultText(beta.reference, "Approved again Redraft: more"),
    ]);
    // The same child thread served both invocations.
    const alphaInputs = (await messagesOf(alpha.reference)).filter((message) => message.side === null);
    expect(alphaInputs.map((message) => message.content)).toEqual(["one", "again"]);
    // Once children exist, the orchestrator's context lists them.
    const requests = await modelRequests(parentId);
    const systemOf = (index: number) => String(requests[index]?.messages[0]?.content);
    expect(systemOf(0)).not.toContain("Subagents you have started");
    expect(systemOf(1)).toContain("Subagents you have started (1):");
    expect(systemOf(1)).toContain(`alpha (reference: ${alpha.reference}`);
    expect(requests[0]?.tools.map((tool) => tool.name)).toEqual(["subagent_create", "subagent_message"]);
  });

  it("under explicit parent communication queues no report; notifyParent and setStatus reach the parent", async () => {
    const projectId = await projectWith(
      assetBundle({
        config: {
          blocking: false,
          resumable: { receives_messages: "side_a", parentCommunication: "explicit" },
        },
        orchestratorScript: [
          { toolCalls: [{ name: "subagent_create", args: { name: "scout", message: "look around" } }] },
          { text: "ok" },
          { text: "heard: {{input}}" },
        ],
        workerScript: [
          { toolCalls: [{ name: "notify_parent", args: { note: "halfway there", status: "50% done" } }] },
          { text: "Draft: {{input}}" },
        ],
        workerTools: ["notify_parent"],
        extra: {
          tools: [
            {
              name: "notify_parent",
              description: "Notify the parent.",
              kind: "code",
              module: "notify_parent",
            },
          ],
        },
      }),
    );
    const parentId = await startThread(projectId, "orchestrator", "scout it");
    await waitUntil(
      async () => (await messagesOf(parentId)).some((message) => message.content === "heard: halfway there"),
      "the parent to hear the notification",
    );
    const [scout] = await registry(parentId);
    await waitFor(scout!.reference, ["completed"]);
    await waitFor(parentId, ["idle"]);
    expect((await registry(parentId))[0]).toMatchObject({
      status: "completed",
      parentCommunication: "explicit",
    });
    const silent = (await messagesOf(parentId, true)).filter((message) => message.silent);
    expect(silent.map((message) => message.content)).toEqual(["halfway there"]);
    expect(silent[0]).toMatchObject({ subagent_id: scout!.reference });
    expect(reports(await messagesOf(parentId, true))).toHaveLength(0);
  });
});

describe("optional and immediate branches", () => {
  it("offers an optional branch only when its env flag is true, 1 or yes", async () => {
    const projectId = await projectWith(
      assetBundle({
        config: { blocking: true, optional: "ENABLE_ASSETS" },
        orchestratorScript: [
          { toolCalls: [{ name: "asset_subagent", args: { message: "x" } }] },
          { text: "after" },
        ],
      }),
    );
    const off = await startThread(projectId, "orchestrator", "go", { ENABLE_ASSETS: "no" });
    await waitFor(off, ["idle"]);
    const [refused] = toolResults(await messagesOf(off), "asset_subagent");
    expect(refused?.tool_status).toBe("error");
    expect(refused?.content).toContain("is not available for this prompt");
    expect((await modelRequests(off))[0]?.tools.map((tool) => tool.name)).not.toContain("asset_subagent");
    expect(await registry(off)).toHaveLength(0);

    const on = await startThread(projectId, "orchestrator", "go", { ENABLE_ASSETS: "Yes" });
    await waitFor(on, ["idle"]);
    expect((await modelRequests(on))[0]?.tools.map((tool) => tool.name)).toContain("asset_subagent");
    expect((await registry(on))[0]?.status).toBe("completed");
  });

  it("runs an immediate branch before the first model step, handing scopedEnv to the child and never to a model", async () => {
    const secret = "tok-secret-42";
    const projectId = await projectWith(
      assetBundle({
        config: {
          blocking: false,
          initAgentNameProperty: "label",
          immediate: { scopedEnv: ["ASSET_TOKEN"], nameEnv: "ASSET_NAME" },
        },
        orchestratorScript: [{ text: "Working on it" }, { text: "Report: {{input}}" }],
        workerScript: [
          { toolCalls: [{ name: "read_scoped_env", args: { name: "ASSET_TOKEN" } }] },
          { text: "Token {{tool_result}}" },
        ],
        workerTools: ["read_scoped_env"],
        workerVariables: [{ name: "ASSET_TOKEN", required: true }],
        extra: {
          tools: [
            { name: "read_scoped_env", description: "Check env.", kind: "code", module: "read_scoped_env" },
          ],
        },
      }),
    );
    const parentId = await startThread(projectId, "orchestrator", "make a sword", {
      ASSET_TOKEN: secret,
      ASSET_NAME: "sprite-bot",
    });
    const report = await waitUntil(async () => {
      const found = (await messagesOf(parentId)).find((message) => message.content?.startsWith("Report: "));
      return found ?? null;
    }, "the immediate child's report");
    const [entry] = await registry(parentId);
    expect(entry).toMatchObject({ name: "sprite-bot", status: "completed" });
    expect(report.content).toBe(
      `Report: ${resultText(entry!.reference, "Approved Token present (13 characters)")}`,
    );
    // The runtime's call came before the first model step, which saw it answered.
    const firstRequest = (await modelRequests(parentId))[0]!;
    expect(JSON.stringify(firstRequest.messages)).toContain(`(reference: ${entry!.reference})`);
    const firstMessages = await messagesOf(parentId);
    expect(firstMessages[1]).toMatchObject({ role: "assistant", content: "" });
    const [immediate] = JSON.parse(firstMessages[1]?.tool_calls ?? "[]") as {
      function: { name: string; arguments: string };
    }[];
    expect(immediate?.function.name).toBe("asset_subagent");
    expect(JSON.parse(immediate?.function.arguments ?? "{}")).toEqual({
      message: "make a sword",
      label: "sprite-bot",
    });
    for (const threadId of [parentId, entry!.reference]) {
      const logs = await api("GET", `/api/threads/${threadId}/logs`);
      expect(JSON.stringify(logs.body)).not.toContain(secret);
      expect(JSON.stringify(await messagesOf(threadId, true))).not.toContain(secret);
    }
  });
});

describe("scoped variable bootstrap", () => {
  it("answers subagent_env_required, lists the missing names, refuses incomplete values and boots the child with the original payload", async () => {
    const secret = "zz-bootstrap-secret";
    const projectId = await projectWith(
      assetBundle({
        config: { blocking: false, resumable: { receives_messages: "side_a" } },
        orchestratorScript: [
          { toolCalls: [{ name: "subagent_create", args: { name: "keeper", message: "keep it safe" } }] },
          { text: "asked for the token" },
          { text: "noted" },
          { text: "noted" },
        ],
        workerVariables: [{ name: "API_TOKEN", required: true }],
      }),
    );
    const parentId = await startThread(projectId, "orchestrator", "start the keeper");
    await waitFor(parentId, ["idle"]);
    const [refusal] = toolResults(await messagesOf(parentId), "subagent_create");
    expect(refusal?.tool_status).toBe("error");
    const details = JSON.parse((refusal?.content ?? "").replace(/^Failed to execute tool: /, "")) as {
      error: string;
      request_id: string;
      missing: string[];
    };
    expect(details).toMatchObject({ error: "subagent_env_required", missing: ["API_TOKEN"] });
    expect(await registry(parentId)).toHaveLength(0);

    const base = `${fixture.server.baseUrl}/threads/${parentId}/variables/${details.request_id}`;
    const listed = await fetch(base);
    expect(listed.status).toBe(200);
    expect(await listed.json()).toMatchObject({
      request_id: details.request_id,
      agent: "asset_subagent",
      name: "keeper",
      required: ["API_TOKEN"],
      missing: ["API_TOKEN"],
    });
    const post = (body: unknown) =>
      fetch(base, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    const incomplete = await post({ values: { OTHER: "x" } });
    expect(incomplete.status).toBe(422);
    expect(await incomplete.json()).toMatchObject({ missing: ["API_TOKEN"] });
    expect((await post({ nope: 1 })).status).toBe(400);
    expect(await registry(parentId)).toHaveLength(0);

    const booted = await post({ values: { API_TOKEN: secret } });
    expect(booted.status).toBe(200);
    const { threadId } = (await booted.json()) as { threadId: string };
    const again = await api<{ threadId: string }>(
      "POST",
      `/api/threads/${parentId}/variables/${details.request_id}`,
      { values: { API_TOKEN: secret } },
    );
    expect(again.body.threadId).toBe(threadId);
    await waitFor(threadId, ["completed"]);
    expect((await messagesOf(threadId))[0]?.content).toBe("keep it safe");
    const [entry] = await registry(parentId);
    expect(entry).toMatchObject({ reference: threadId, name: "keeper", resumable: true });
    await waitUntil(
      async () => reports(await messagesOf(parentId, true)).length === 1,
      "the booted child's report",
    );
    for (const id of [parentId, threadId]) {
      expect(JSON.stringify((await api("GET", `/api/threads/${id}/logs`)).body)).not.toContain(secret);
    }
    expect((await api("GET", `/api/threads/${parentId}/variables/not-a-request`)).status).toBe(404);
  });
});

describe("attachments across thread boundaries", () => {
  it("copies the parent's files into the child and the child's returned files back, with local paths", async () => {
    const projectId = await projectWith(
      assetBundle({
        config: { blocking: true, initUserMessageProperty: "task", initAttachmentsProperty: "files" },
        orchestratorScript: [
          {
            toolCalls: [
              { name: "asset_subagent", args: { task: "use the brief", files: ["/docs/brief.txt"] } },
            ],
          },
          { text: "thanks" },
        ],
        workerScript: [
          { toolCalls: [{ name: "write_file", args: { path: "/out/sprite.txt", content: "SPRITE" } }] },
          { text: "drawn" },
        ],
        workerTools: ["write_file"],
        reviewerScript: [
          {
            toolCalls: [
              { name: "approve_asset", args: { summary: "ship it", attachments: ["/out/sprite.txt"] } },
            ],
          },
        ],
        extra: {
          tools: [{ name: "write_file", description: "Write a file.", kind: "builtin", builtin: "fs_write" }],
        },
      }),
    );
    const parentId = await startThread(projectId, "orchestrator");
    const put = await fetch(`${fixture.server.baseUrl}/api/threads/${parentId}/fs/docs/brief.txt`, {
      method: "PUT",
      body: "THE BRIEF",
    });
    expect(put.status).toBeLessThan(300);
    await api("POST", `/api/threads/${parentId}/messages`, { content: "draw" });
    await waitUntil(
      async () => (await messagesOf(parentId)).some((m) => m.content === "thanks"),
      "the parent",
    );
    const [entry] = await registry(parentId);
    const childId = entry!.reference;
    const [first] = await messagesOf(childId);
    expect(first?.attachments.map((file) => file.path)).toEqual(["/attachments/brief.txt"]);
    const copied = await fetch(`${fixture.server.baseUrl}/api/threads/${childId}/fs/attachments/brief.txt`);
    expect(await copied.text()).toBe("THE BRIEF");
    const [result] = toolResults(await messagesOf(parentId), "asset_subagent");
    expect(result?.content).toBe(resultText(childId, "ship it"));
    expect(result?.attachments.map((file) => file.path)).toEqual(["/attachments/sprite.txt"]);
    const back = await fetch(`${fixture.server.baseUrl}/api/threads/${parentId}/fs/attachments/sprite.txt`);
    expect(await back.text()).toBe("SPRITE");
  });
});

describe("terminate and the tree", () => {
  it("terminating a child the parent waits on answers the call with a failure and rejects new work", async () => {
    const projectId = await projectWith(
      assetBundle({
        config: { blocking: true },
        orchestratorScript: [
          { toolCalls: [{ name: "asset_subagent", args: { message: "slow work" } }] },
          { text: "moving on" },
        ],
        workerScript: [{ text: "Draft after a long think", delayMs: 5000 }],
      }),
    );
    const parentId = await startThread(projectId, "orchestrator", "go");
    const entry = await firstChild(parentId);
    const childId = entry!.reference;
    await waitFor(childId, ["running"]);
    expect((await threadOf(childId)).finished_at).toBeNull();
    const beforeTerminate = Date.now() * 1000;
    const terminated = await api("POST", `/api/threads/${childId}/terminate`);
    expect(terminated.status).toBe(200);
    // It was at work: it stopped working at the terminate.
    expect((await threadOf(childId)).finished_at).toBeGreaterThanOrEqual(beforeTerminate);
    await waitFor(parentId, ["idle"]);
    const [result] = toolResults(await messagesOf(parentId), "asset_subagent");
    expect(result?.tool_status).toBe("error");
    expect(result?.content).toBe(
      failureText(childId, "The subagent was terminated before finishing its task."),
    );
    expect((await registry(parentId))[0]?.status).toBe("terminated");
    const refused = await api("POST", `/api/threads/${childId}/messages`, { content: "hello?" });
    expect(refused.status).toBe(423);
  });

  it("runs a three-level tree and terminates the whole subtree from its root", async () => {
    const projectId = await projectWith(
      assetBundle({
        config: { blocking: true },
        orchestratorScript: [
          { toolCalls: [{ name: "asset_subagent", args: { message: "a castle" } }] },
          { text: "castle done" },
        ],
        workerScript: [
          { toolCalls: [{ name: "detail_subagent", args: { message: "towers for {{input}}" } }] },
          { text: "Castle with {{tool_result}}" },
        ],
        workerTools: [{ name: "detail_subagent", blocking: true }],
        extra: detailAgent(),
      }),
    );
    const parentId = await startThread(projectId, "orchestrator", "build");
    await waitFor(parentId, ["idle"]);
    const tree = (await api<{ root: TreeNode }>("GET", `/api/threads/${parentId}/tree`)).body.root;
    const child = tree.children[0]!;
    const grandchild = child.children[0]!;
    expect([tree.depth, child.depth, grandchild.depth]).toEqual([0, 1, 2]);
    expect(grandchild).toMatchObject({
      agent_id: "detail_subagent",
      status: "completed",
      parent_id: child.id,
    });
    expect((await threadOf(child.id)).result).toBe(
      `Approved Castle with ${resultText(grandchild.id, "4 towers")}`,
    );
    expect(tree.subtree_usage.input_tokens).toBe(
      tree.usage.input_tokens + child.usage.input_tokens + grandchild.usage.input_tokens,
    );
    // Lists: the roots of a project only, and the children of one parent.
    const roots = await api<{ threads: { id: string }[]; total: number }>(
      "GET",
      `/api/threads?project_id=${projectId}&roots_only=true`,
    );
    expect(roots.body.threads.map((thread) => thread.id)).toEqual([parentId]);
    expect(roots.body.total).toBe(1);
    const children = await api<{ threads: { id: string }[] }>("GET", `/api/threads?parent_id=${child.id}`);
    expect(children.body.threads.map((thread) => thread.id)).toEqual([grandchild.id]);
    expect((await api("GET", `/api/threads?roots_only=maybe`)).status).toBe(400);
    const done = await api<{ terminated: string[] }>("POST", `/api/threads/${parentId}/terminate`);
    expect(new Set(done.body.terminated)).toEqual(new Set([parentId, child.id, grandchild.id]));
    for (const id of [parentId, child.id, grandchild.id])
      expect((await threadOf(id)).status).toBe("terminated");
  });
});

describe("durations after a stop or terminate of the tree (issue 41)", () => {
  it("a completed child and an idle root keep when they finished; only updated_at moves", async () => {
    const projectId = await projectWith(
      assetBundle({
        config: { blocking: true },
        orchestratorScript: [
          { toolCalls: [{ name: "asset_subagent", args: { message: "a tree" } }] },
          { text: "tree done" },
        ],
      }),
    );
    const rootId = await startThread(projectId, "orchestrator", "go");
    await waitFor(rootId, ["idle"]);
    const childId = (await firstChild(rootId)).reference;
    const child = await threadOf(childId);
    const root = await threadOf(rootId);
    expect(child.status).toBe("completed");
    for (const thread of [child, root]) {
      expect(thread.finished_at).toBeGreaterThan(thread.created_at);
      expect(thread.finished_at).toBeLessThanOrEqual(thread.updated_at);
    }

    await new Promise((resolve) => setTimeout(resolve, 400));
    expect((await api("POST", `/api/threads/${rootId}/stop`)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect((await api("POST", `/api/threads/${rootId}/terminate`)).status).toBe(200);

    const childAfter = await threadOf(childId);
    const rootAfter = await threadOf(rootId);
    expect([childAfter.status, rootAfter.status]).toEqual(["terminated", "terminated"]);
    // The writes that stopped and terminated the settled tree moved updated_at by the pauses…
    expect(childAfter.updated_at - child.updated_at).toBeGreaterThanOrEqual(400_000);
    expect(rootAfter.updated_at - root.updated_at).toBeGreaterThanOrEqual(800_000);
    // …but not when each stopped working: a duration shown stays its own.
    expect(childAfter.finished_at).toBe(child.finished_at);
    expect(rootAfter.finished_at).toBe(root.finished_at);
    // The run's duration in the diff view ends there too.
    const diff = await api<{ threads: { a: { duration_ms: number } } }>(
      "GET",
      `/api/threads/diff?a=${rootId}&b=${rootId}`,
    );
    expect(diff.status).toBe(200);
    expect(diff.body.threads.a.duration_ms).toBe(Math.round((root.finished_at! - root.created_at) / 1000));
  });
});

describe("user stops across the boundary", () => {
  it("a parent stopped while it waits stops the child it waits on, which answers the call; the next message goes on", async () => {
    // Issue 41 (docs/runtime.md "User stop in a tree"): a stop stops the blocking work it waits on.
    const projectId = await projectWith(
      assetBundle({
        config: { blocking: true },
        orchestratorScript: [
          { toolCalls: [{ name: "asset_subagent", args: { message: "slow work" } }] },
          { text: "after the stop: {{input}}" },
        ],
        workerScript: [{ text: "Draft: {{input}}", delayMs: 1500 }],
      }),
    );
    const parentId = await startThread(projectId, "orchestrator", "go");
    const entry = await firstChild(parentId);
    const childId = entry!.reference;
    expect((await api("POST", `/api/threads/${parentId}/stop`)).status).toBe(200);
    expect((await threadOf(childId)).status).toBe("stopped");
    const [answered] = toolResults(await messagesOf(parentId), "asset_subagent");
    expect(answered?.content).toBe(
      failureText(childId, "The subagent stopped before finishing its task: Stopped by user"),
    );
    expect((await registry(parentId))[0]?.status).toBe("stopped");
    // Nothing of the child goes on, and nothing is queued for the parent.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect((await threadOf(childId)).status).toBe("stopped");
    expect((await threadOf(parentId)).status).toBe("stopped");
    await api("POST", `/api/threads/${parentId}/messages`, { content: "continue" });
    await waitUntil(
      async () =>
        (await messagesOf(parentId)).some((message) => message.content === "after the stop: continue"),
      "the parent's next turn",
    );
    const all = await messagesOf(parentId, true);
    expect(reports(all)).toHaveLength(0);
    expect(toolResults(all, "asset_subagent")).toHaveLength(1);
  });

  it("a child stopped by the user reports a failure to its parent, once", async () => {
    const projectId = await projectWith(
      assetBundle({
        config: { blocking: false, resumable: { receives_messages: "side_a" } },
        orchestratorScript: [
          { toolCalls: [{ name: "subagent_create", args: { name: "slowpoke", message: "work" } }] },
          { text: "waiting" },
          { toolCalls: [{ name: "subagent_message", args: { name: "ghost", message: "hi" } }] },
          { text: "noted" },
        ],
        workerScript: [{ text: "Draft", delayMs: 3000 }],
      }),
    );
    const parentId = await startThread(projectId, "orchestrator", "go");
    const entry = await firstChild(parentId);
    await waitFor(parentId, ["idle"]);
    expect((await api("POST", `/api/threads/${entry!.reference}/stop`)).status).toBe(200);
    const expected = failureText(
      entry!.reference,
      "The subagent stopped before finishing its task: Stopped by user",
    );
    await waitUntil(
      async () => reports(await messagesOf(parentId, true)).some((message) => message.content === expected),
      "the failure report",
    );
    await waitFor(parentId, ["idle"]);
    expect(reports(await messagesOf(parentId, true))).toHaveLength(1);
    expect((await registry(parentId))[0]?.status).toBe("stopped");
    // Messaging an instance that does not exist names the ones that do.
    const [unknown] = toolResults(await messagesOf(parentId), "subagent_message");
    expect(unknown?.tool_status).toBe("error");
    expect(unknown?.content).toContain('No subagent instance named "ghost"');
    expect(unknown?.content).toContain(`"slowpoke" (reference: ${entry!.reference})`);
  });
});

describe("immediate branches are recursive", () => {
  it("a child booted immediately runs its own immediate branch before its first model step", async () => {
    const projectId = await projectWith(
      assetBundle({
        config: { blocking: false, immediate: true },
        orchestratorScript: [{ text: "started" }, { text: "got it" }],
        workerScript: [{ text: "Castle with {{tool_result}}" }],
        workerTools: [{ name: "detail_subagent", blocking: true, immediate: true }],
        extra: detailAgent(),
      }),
    );
    const parentId = await startThread(projectId, "orchestrator", "a castle");
    await waitUntil(
      async () => (await messagesOf(parentId)).some((message) => message.content === "got it"),
      "the child's report to reach the parent",
    );
    const tree = (await api<{ root: TreeNode }>("GET", `/api/threads/${parentId}/tree`)).body.root;
    const child = tree.children[0]!;
    const grandchild = child.children[0]!;
    expect([child.agent_id, grandchild.agent_id]).toEqual(["asset_subagent", "detail_subagent"]);
    // The grandchild got the child's task; the child's first model step already saw its result.
    expect((await messagesOf(grandchild.id))[0]?.content).toBe("a castle");
    const childMessages = await messagesOf(child.id);
    expect(childMessages[0]?.content).toBe("a castle");
    expect(childMessages[1]?.tool_calls).toContain("detail_subagent");
    expect(childMessages[2]?.content).toBe(resultText(grandchild.id, "4 towers"));
    expect((await threadOf(child.id)).result).toBe(
      `Approved Castle with ${resultText(grandchild.id, "4 towers")}`,
    );
  });
});

describe("registry events at scale", () => {
  it("sends the whole registry while it is small, then only the changed entries with the total", async () => {
    const fanOut = 25;
    const projectId = await projectWith(assetFanOutBundle(fanOut));
    const parentId = await startThread(projectId, "orchestrator", "many jobs");
    await waitUntil(
      async () => reports(await messagesOf(parentId, true)).length === fanOut,
      "every report",
      40_000,
    );
    await waitFor(parentId, ["idle"]);
    const entries = await registry(parentId);
    expect(entries).toHaveLength(fanOut);
    // One message's children share a spawn group; every one reported exactly once.
    expect(
      new Set(entries.map((entry) => (entry as RegistryEntry & { spawnGroupId?: string }).spawnGroupId)).size,
    ).toBe(1);
    const perChild = new Map<string, number>();
    for (const message of reports(await messagesOf(parentId, true))) {
      const id = (message as ApiMessage & { subagent_id: string }).subagent_id;
      perChild.set(id, (perChild.get(id) ?? 0) + 1);
    }
    expect([...perChild.values()]).toEqual(Array(fanOut).fill(1));
    const stream = await connectSse(`${fixture.server.baseUrl}/api/threads/${parentId}/events`, {
      "Last-Event-ID": "0",
    });
    // Replay until every child's completion has come by (one partial event each).
    const completedIn = (frames: { event: string; data: string }[]) =>
      frames
        .filter((frame) => frame.event === "registry")
        .flatMap((frame) => (JSON.parse(frame.data) as { children: RegistryEntry[] }).children)
        .filter((child) => child.status === "completed").length;
    await stream.waitFor(() => completedIn(stream.frames) >= fanOut);
    stream.close();
    const registryEvents = stream.frames
      .filter((frame) => frame.event === "registry")
      .map(
        (frame) => JSON.parse(frame.data) as { partial: boolean; total: number; children: RegistryEntry[] },
      );
    // The spawn of 24 at once (the 25th call runs on its own) and every change after it are partial.
    expect(registryEvents[0]).toMatchObject({ partial: true, total: fanOut - 1 });
    expect(registryEvents[0]?.children).toHaveLength(fanOut - 1);
    const completed = registryEvents.filter((event) =>
      event.children.some((child) => child.status === "completed"),
    );
    expect(completed).toHaveLength(fanOut);
    for (const event of completed) {
      // A child may finish before the 25th call has spawned its child.
      expect(event.partial).toBe(true);
      expect([fanOut - 1, fanOut]).toContain(event.total);
      expect(event.children).toHaveLength(1);
    }
  });
});
