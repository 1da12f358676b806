// Fork and diff (issue 21, API.md "Replay, fork and diff") over real HTTP on the built server and the
// suite's database (PGlite, or Postgres when DATABASE_URL names one): a fork copies history and
// files up to a message and leaves the source byte for byte as it was; a fork with content runs; a
// diff of two identical scripted runs (with a subagent child) has no divergence and one of a changed
// script diverges at the right step; bad requests get 400/404/422.
import { describe, expect, it } from "vitest";
import type { ThreadTreeNode } from "../../lib/contracts/thread";
import { testServerForFile } from "../support/fixture";
import { assetBundle, detailAgent, resultText } from "../support/subagent-bundles";
import { type ApiMessage, threadHelpers } from "../support/thread-helpers";

const fixture = testServerForFile();
const api = fixture.api;
const { projectWith, startThread, waitFor, messagesOf } = threadHelpers(fixture);

const treeOf = async (threadId: string) =>
  (await api<{ root: ThreadTreeNode }>("GET", `/api/threads/${threadId}/tree`)).body.root;

/** The tree's threads, parents before children. */
const flatten = (node: ThreadTreeNode): ThreadTreeNode[] => [node, ...node.children.flatMap(flatten)];

/** Every thread of a tree as the API shows it: the thread, all its messages, logs, registry and files. */
async function treeDump(rootId: string): Promise<string> {
  const threads = flatten(await treeOf(rootId));
  const parts = [];
  for (const thread of threads) {
    parts.push({
      thread: (await api("GET", `/api/threads/${thread.id}`)).body,
      messages: (await api("GET", `/api/threads/${thread.id}/messages?includeSilent=true&depth=10`)).body,
      logs: (await api("GET", `/api/threads/${thread.id}/logs`)).body,
      subagents: (await api("GET", `/api/threads/${thread.id}/subagents`)).body,
      files: (await api("GET", `/api/threads/${thread.id}/fs?path=/`)).body,
    });
  }
  return JSON.stringify(parts);
}

/**
 * A three-level tree (orchestrator → asset_subagent → detail_subagent): the orchestrator creates a
 * resumable, blocking asset_subagent instance at once (an immediate branch), whose worker starts a
 * detail_subagent at once; then the orchestrator's model messages the instance with its input.
 */
const TREE_BUNDLE = assetBundle({
  config: { blocking: true, resumable: { receives_messages: "side_a" }, immediate: true },
  orchestratorScript: [
    { toolCalls: [{ name: "subagent_message", args: { name: "asset_subagent", message: "{{input}}" } }] },
    { text: "relayed: {{tool_result}}" },
  ],
  workerScript: [{ text: "Castle with {{tool_result}}" }, { text: "Redraft: {{input}}" }],
  workerTools: [{ name: "detail_subagent", blocking: true, immediate: true }],
  reviewerScript: [
    { toolCalls: [{ name: "approve_asset", args: { summary: "Approved {{input}}" } }] },
    { toolCalls: [{ name: "approve_asset", args: { summary: "Approved again {{input}}" } }] },
  ],
  extra: detailAgent(),
});

function noteBundle(script: unknown[]) {
  return {
    agents: [{ name: "assistant", sideA: { prompt: "assistant_chat" } }],
    prompts: [
      {
        name: "assistant_chat",
        toolDescription: "Chats",
        prompt: "You are helpful.",
        model: "demo",
        includeChat: true,
        tools: ["write_note", "read_note"],
      },
    ],
    models: [
      { name: "demo", provider: "scripted", model: "scripted", inputPrice: 1, outputPrice: 2, script },
    ],
    tools: [
      { name: "write_note", description: "Writes a note", kind: "builtin", builtin: "fs_write" },
      { name: "read_note", description: "Reads a note", kind: "builtin", builtin: "fs_read" },
    ],
  };
}

const NOTE_SCRIPT = [
  {
    toolCalls: [
      { name: "write_note", args: { path: "/notes.md", content: "remember {{input}}" } },
      { name: "read_note", args: { path: "/notes.md" } },
    ],
  },
  { text: "Noted: {{tool_result}}" },
];

type DiffStep = {
  index: number;
  a: { role: string; content: string | null; thread_id: string } | null;
  b: { role: string; content: string | null; thread_id: string } | null;
  same: boolean;
  path: number[];
};
type Diff = {
  steps: DiffStep[];
  first_divergence: number | null;
  children: { path: number[]; a: { thread_id: string } | null; b: { thread_id: string } | null }[];
  threads: { a: { id: string; model_calls: number }; b: { id: string; model_calls: number } };
};

/** Everything the API says about a thread, its messages (every depth, silent ones too), logs and files. */
async function snapshot(threadId: string): Promise<string> {
  const thread = await api("GET", `/api/threads/${threadId}`);
  const messages = await api("GET", `/api/threads/${threadId}/messages?includeSilent=true&depth=10`);
  const logs = await api("GET", `/api/threads/${threadId}/logs`);
  const listing = await api<{ entries?: { path: string }[] }>("GET", `/api/threads/${threadId}/fs?path=/`);
  const file = await fetch(`${fixture.server.baseUrl}/api/threads/${threadId}/fs/notes.md`);
  const bytes = Buffer.from(await file.arrayBuffer()).toString("base64");
  return JSON.stringify({
    thread: thread.body,
    messages: messages.body,
    logs: logs.body,
    listing: listing.body,
    bytes,
  });
}

async function fileText(threadId: string, path: string): Promise<{ status: number; text: string }> {
  const response = await fetch(`${fixture.server.baseUrl}/api/threads/${threadId}/fs/${path}`);
  return { status: response.status, text: await response.text() };
}

describe("fork", () => {
  it("copies history up to a message and the files, leaves the source untouched, and runs with content", async () => {
    const projectId = await projectWith(noteBundle(NOTE_SCRIPT));
    const sourceId = await startThread(projectId, "assistant", "milk");
    await waitFor(sourceId, ["idle"]);
    const source = await messagesOf(sourceId);
    expect(source.map((m) => m.role)).toEqual(["user", "assistant", "tool", "tool", "assistant"]);
    const before = await snapshot(sourceId);

    // At the assistant message that called two tools: the fork takes both results with it.
    const plain = await api<{ threadId: string; forked_from: { through_message_id: string } }>(
      "POST",
      `/api/threads/${sourceId}/fork`,
      { at_message_id: source[1]!.id },
    );
    expect(plain.status, JSON.stringify(plain.body)).toBe(201);
    expect(plain.body.forked_from.through_message_id).toBe(source[3]!.id);
    const forkId = plain.body.threadId;
    expect(forkId).not.toBe(sourceId);
    const fork = (await api<{ thread: Record<string, unknown> }>("GET", `/api/threads/${forkId}`)).body
      .thread;
    expect(fork).toMatchObject({
      status: "idle",
      project_id: projectId,
      agent_id: "assistant",
      parent_id: null,
      root_id: forkId,
      name: "Fork of assistant",
    });
    const copied = await messagesOf(forkId);
    const shape = (m: ApiMessage) => [
      m.seq,
      m.role,
      m.side,
      m.content,
      m.name,
      m.tool_call_id,
      m.tool_status,
    ];
    expect(copied.map(shape)).toEqual(source.slice(0, 4).map(shape));
    expect(copied.map((m) => m.tool_calls)).toEqual(source.slice(0, 4).map((m) => m.tool_calls));
    for (const [index, message] of copied.entries()) expect(message.id).not.toBe(source[index]!.id);
    expect(await fileText(forkId, "notes.md")).toEqual({ status: 200, text: "remember milk" });

    // The fork's file is its own: changing it leaves the source's as it was.
    const put = await fetch(`${fixture.server.baseUrl}/api/threads/${forkId}/fs/notes.md`, {
      method: "PUT",
      headers: { "content-type": "text/markdown" },
      body: "changed in the fork",
    });
    expect(put.status).toBeLessThan(300);

    // At the first user message, with new content: it runs and answers.
    const edited = await api<{ threadId: string }>("POST", `/api/threads/${sourceId}/fork`, {
      at_message_id: source[0]!.id,
      content: "eggs",
    });
    expect(edited.status, JSON.stringify(edited.body)).toBe(201);
    await waitFor(edited.body.threadId, ["idle"]);
    const answered = await messagesOf(edited.body.threadId);
    expect(answered.map((m) => [m.role, m.content])).toEqual([
      ["user", "milk"],
      ["user", "eggs"],
      ["assistant", ""],
      ["tool", expect.any(String)],
      ["tool", "remember eggs"],
      ["assistant", "Noted: remember eggs"],
    ]);
    expect(await fileText(edited.body.threadId, "notes.md")).toEqual({ status: 200, text: "remember eggs" });

    // Edit and fork (`replace`, a Tandem extension): the new message takes the first one's place.
    const replaced = await api<{ threadId: string }>("POST", `/api/threads/${sourceId}/fork`, {
      at_message_id: source[0]!.id,
      content: "bread",
      replace: true,
    });
    expect(replaced.status, JSON.stringify(replaced.body)).toBe(201);
    await waitFor(replaced.body.threadId, ["idle"]);
    expect((await messagesOf(replaced.body.threadId)).map((m) => m.content)).toEqual([
      "bread",
      "",
      expect.any(String),
      "remember bread",
      "Noted: remember bread",
    ]);

    expect(await snapshot(sourceId)).toBe(before);
    expect(await fileText(sourceId, "notes.md")).toEqual({ status: 200, text: "remember milk" });
  });

  it("answers 404 for an unknown thread or message, 400 for a bad body, 422 for a cut before a result", async () => {
    const projectId = await projectWith(noteBundle(NOTE_SCRIPT));
    const sourceId = await startThread(projectId, "assistant", "tea");
    await waitFor(sourceId, ["idle"]);
    const [first] = await messagesOf(sourceId);
    const otherId = await startThread(projectId, "assistant", "coffee");
    await waitFor(otherId, ["idle"]);
    const [otherFirst] = await messagesOf(otherId);
    const unknown = "00000000-0000-4000-8000-000000000000";

    expect((await api("POST", `/api/threads/${unknown}/fork`, { at_message_id: first!.id })).status).toBe(
      404,
    );
    expect((await api("POST", "/api/threads/not-a-uuid/fork", { at_message_id: first!.id })).status).toBe(
      404,
    );
    const noMessage = await api<{ code: string }>("POST", `/api/threads/${sourceId}/fork`, {
      at_message_id: unknown,
    });
    expect([noMessage.status, noMessage.body.code]).toEqual([404, "message_not_found"]);
    const foreign = await api("POST", `/api/threads/${sourceId}/fork`, { at_message_id: otherFirst!.id });
    expect(foreign.status).toBe(404);
    for (const body of [
      {},
      { at_message_id: 5 },
      { at_message_id: first!.id, content: 3 },
      { at_message_id: first!.id, content: "  " },
    ]) {
      const response = await api<{ error: string }>("POST", `/api/threads/${sourceId}/fork`, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.error).toEqual(expect.any(String));
    }
    const notJson = await fetch(`${fixture.server.baseUrl}/api/threads/${sourceId}/fork`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{",
    });
    expect(notJson.status).toBe(400);

    // A blocking subagent still working: its call has no result, so a fork there would cut it off.
    const slow = await projectWith(
      assetBundle({
        config: { blocking: true, initUserMessageProperty: "task" },
        orchestratorScript: [
          { toolCalls: [{ name: "asset_subagent", args: { task: "a slow rock" } }] },
          { text: "Done." },
        ],
        workerScript: [{ text: "Draft: {{input}}", delayMs: 4_000 }],
      }),
    );
    const parentId = await startThread(slow, "orchestrator", "rock");
    let calling: ApiMessage | undefined;
    for (let attempt = 0; attempt < 200 && !calling; attempt += 1) {
      calling = (await messagesOf(parentId)).find((m) => m.tool_calls !== null);
      if (!calling) await new Promise((resolve) => setTimeout(resolve, 25));
    }
    const open = await api<{ code: string; tool_call_id: string }>("POST", `/api/threads/${parentId}/fork`, {
      at_message_id: calling!.id,
    });
    expect([open.status, open.body.code]).toEqual([422, "fork_point_unanswered"]);
    const [parentFirst] = await messagesOf(parentId);
    expect(
      (await api("POST", `/api/threads/${parentId}/fork`, { at_message_id: parentFirst!.id })).status,
    ).toBe(201);
    await waitFor(parentId, ["idle"], 30_000);
  });
});

describe("fork of a subagent tree", () => {
  it("copies the children the history knows with their subtrees under new ids, and the fork's agent reaches its copies", async () => {
    const projectId = await projectWith(TREE_BUNDLE);
    const sourceId = await startThread(projectId, "orchestrator", "build");
    await waitFor(sourceId, ["idle"], 30_000);
    const sourceTree = await treeOf(sourceId);
    const [child] = sourceTree.children;
    const [grandchild] = child!.children;
    expect([child?.agent_id, grandchild?.agent_id]).toEqual(["asset_subagent", "detail_subagent"]);
    const source = await messagesOf(sourceId, true);
    // user, the runtime's immediate subagent_create and its result, the model's subagent_message and its result, the reply.
    expect(source.map((m) => m.role)).toEqual([
      "user",
      "assistant",
      "tool",
      "assistant",
      "tool",
      "assistant",
    ]);
    expect(source[2]!.content).toBe(
      resultText(child!.id, `Approved Castle with ${resultText(grandchild!.id, "4 towers")}`),
    );
    const before = await treeDump(sourceId);

    // At the result of the immediate create: the child (and its child) are known, the later message is not.
    const started = performance.now();
    const forked = await api<{ threadId: string; copied_threads: number; copied_messages: number }>(
      "POST",
      `/api/threads/${sourceId}/fork`,
      { at_message_id: source[2]!.id },
    );
    const elapsed = performance.now() - started;
    expect(forked.status, JSON.stringify(forked.body)).toBe(201);
    expect(forked.body.copied_threads).toBe(2);
    const forkId = forked.body.threadId;
    const forkTree = await treeOf(forkId);
    const copiedChild = forkTree.children[0]!;
    const copiedGrandchild = copiedChild.children[0]!;
    expect(forkTree.children).toHaveLength(1);
    expect(copiedChild).toMatchObject({
      agent_id: "asset_subagent",
      depth: 1,
      parent_id: forkId,
      status: "completed",
    });
    expect(copiedGrandchild).toMatchObject({
      agent_id: "detail_subagent",
      depth: 2,
      parent_id: copiedChild.id,
    });
    const sourceIds = [sourceId, child!.id, grandchild!.id];
    const copyIds = [forkId, copiedChild.id, copiedGrandchild.id];
    for (const id of copyIds) expect(sourceIds).not.toContain(id);
    for (const id of copyIds.slice(1)) {
      const view = (await api<{ thread: { root_id: string } }>("GET", `/api/threads/${id}`)).body.thread;
      expect(view.root_id).toBe(forkId);
    }

    // Same messages, with the source's ids replaced by the copies' wherever they were written.
    const renew = (text: string | null) =>
      text === null ? null : sourceIds.reduce((out, id, index) => out.replaceAll(id, copyIds[index]!), text);
    const shape = (m: ApiMessage) => [
      m.role,
      m.side,
      m.content,
      m.name,
      m.tool_call_id,
      m.tool_status,
      m.silent,
    ];
    for (const [index, sourceThread] of sourceIds.entries()) {
      if (index === 0) continue;
      const original = await messagesOf(sourceThread, true);
      const copied = await messagesOf(copyIds[index]!, true);
      expect(copied.length).toBeGreaterThan(1);
      expect(copied.map(shape)).toEqual(original.map((m) => shape({ ...m, content: renew(m.content) })));
      expect(copied.map((m) => m.metadata)).toEqual(
        original.map((m) => JSON.parse(renew(JSON.stringify(m.metadata))!)),
      );
      for (const [at, message] of copied.entries()) expect(message.id).not.toBe(original[at]!.id);
    }
    const forkMessages = await messagesOf(forkId, true);
    expect(forkMessages.map((m) => m.content)).toEqual(source.slice(0, 3).map((m) => renew(m.content)));
    expect(forkMessages[2]!.content).toContain(`reference: ${copiedChild.id}`);

    // The fork's registry lists its copies, and the copy's lists its own.
    const registry = async (id: string) =>
      (
        await api<{ subagents: { reference: string; name: string; status: string; resumable: boolean }[] }>(
          "GET",
          `/api/threads/${id}/subagents`,
        )
      ).body.subagents;
    expect(await registry(forkId)).toEqual([
      expect.objectContaining({
        reference: copiedChild.id,
        name: "asset_subagent",
        resumable: true,
        status: "completed",
      }),
    ]);
    expect((await registry(copiedChild.id)).map((entry) => entry.reference)).toEqual([copiedGrandchild.id]);

    // The stored fork link.
    const forkView = (await api<{ thread: Record<string, unknown> }>("GET", `/api/threads/${forkId}`)).body
      .thread;
    expect(forkView.forked_from).toEqual({
      thread_id: sourceId,
      message_id: source[2]!.id,
      thread_name: "orchestrator",
      message_number: 3,
    });
    const childView = (
      await api<{ thread: Record<string, unknown> }>("GET", `/api/threads/${copiedChild.id}`)
    ).body.thread;
    expect(childView.forked_from).toMatchObject({ thread_id: child!.id, message_id: null });
    expect(
      (await api<{ thread: Record<string, unknown> }>("GET", `/api/threads/${sourceId}`)).body.thread
        .forked_from,
    ).toBeNull();
    expect(await treeDump(sourceId)).toBe(before);

    // The fork's agent messages its instance: the copy gets the message, the source's child does not.
    const posted = await api("POST", `/api/threads/${forkId}/messages`, { content: "again" });
    expect(posted.status, JSON.stringify(posted.body)).toBeLessThan(300);
    await waitFor(forkId, ["idle"], 30_000);
    const copyInputs = (await messagesOf(copiedChild.id))
      .filter((m) => m.side === null)
      .map((m) => m.content);
    expect(copyInputs).toEqual(["build", "build", "again"]);
    const replies = (await messagesOf(forkId)).filter((m) => m.role === "assistant" && m.content);
    expect(replies.at(-1)!.content).toContain(`relayed: Subagent (reference: ${copiedChild.id})`);
    expect((await treeOf(forkId)).children.map((node) => node.id)).toEqual([copiedChild.id]);
    expect(await treeDump(sourceId)).toBe(before);

    // At the first message the history knows no child: none is copied.
    const early = await api<{ threadId: string; copied_threads: number }>(
      "POST",
      `/api/threads/${sourceId}/fork`,
      {
        at_message_id: source[0]!.id,
      },
    );
    expect(early.body.copied_threads).toBe(0);
    expect((await treeOf(early.body.threadId)).children).toEqual([]);
    console.info(`fork of a 3-thread tree: ${elapsed.toFixed(0)} ms over HTTP`);
  });

  it("copies a 200-child fan-out in one transaction, and refuses a child still at work", async () => {
    const fanOut = Array.from({ length: 200 }, (_, index) => ({
      name: "asset_subagent",
      args: { message: `tile ${index}` },
    }));
    const projectId = await projectWith(
      assetBundle({
        config: { blocking: false },
        orchestratorScript: [{ toolCalls: fanOut }, { text: "all started" }],
      }),
    );
    const sourceId = await startThread(projectId, "orchestrator", "tiles");
    const deadline = Date.now() + 120_000;
    let done = 0;
    while (Date.now() < deadline) {
      // A poll may meet a reset connection while the server spawns 200 children on a loaded
      // machine; the next one asks again (only the wait tolerates it, not the checks below).
      const tree = await treeOf(sourceId).catch(() => null);
      done = tree ? tree.children.filter((node) => node.status === "completed").length : 0;
      if (tree && done === 200 && ["idle", "completed"].includes(tree.status)) break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(done).toBe(200);
    await waitFor(sourceId, ["idle"], 60_000);
    const source = await messagesOf(sourceId, true);
    const calling = source.find((m) => m.tool_calls !== null)!;
    const started = performance.now();
    const forked = await api<{ threadId: string; copied_threads: number; copied_messages: number }>(
      "POST",
      `/api/threads/${sourceId}/fork`,
      { at_message_id: calling.id },
    );
    const elapsed = performance.now() - started;
    expect(forked.status, JSON.stringify(forked.body)).toBe(201);
    expect(forked.body.copied_threads).toBe(200);
    const copies = (await treeOf(forked.body.threadId)).children;
    expect(copies).toHaveLength(200);
    expect(new Set(copies.map((node) => node.status))).toEqual(new Set(["completed"]));
    console.info(
      `fork of a 200-child tree (${forked.body.copied_messages} messages): ${elapsed.toFixed(0)} ms over HTTP`,
    );

    // A non-blocking child still at work when the fork would copy it: 422, nothing created.
    const slow = await projectWith(
      assetBundle({
        config: { blocking: false },
        orchestratorScript: [
          { toolCalls: [{ name: "asset_subagent", args: { message: "slow" } }] },
          { text: "Started" },
        ],
        workerScript: [{ text: "Draft: {{input}}", delayMs: 4_000 }],
      }),
    );
    const parentId = await startThread(slow, "orchestrator", "go");
    let reply: ApiMessage | undefined;
    for (let attempt = 0; attempt < 200 && !reply; attempt += 1) {
      reply = (await messagesOf(parentId)).find((m) => m.content === "Started");
      if (!reply) await new Promise((resolve) => setTimeout(resolve, 25));
    }
    const threadsBefore = (await api<{ total: number }>("GET", `/api/threads?project_id=${slow}`)).body.total;
    const refused = await api<{ code: string; thread_ids: string[] }>(
      "POST",
      `/api/threads/${parentId}/fork`,
      {
        at_message_id: reply!.id,
      },
    );
    expect([refused.status, refused.body.code]).toEqual([422, "fork_child_active"]);
    expect((await api<{ total: number }>("GET", `/api/threads?project_id=${slow}`)).body.total).toBe(
      threadsBefore,
    );
    await waitFor(parentId, ["idle"], 30_000);
  }, 180_000);
});

describe("diff", () => {
  const orchestrator = (reply: string) =>
    assetBundle({
      config: { blocking: true, initUserMessageProperty: "task" },
      orchestratorScript: [
        { toolCalls: [{ name: "asset_subagent", args: { task: "a pine tree" } }] },
        { text: reply },
      ],
    });

  it("finds no divergence between two identical runs, the changed step of another, and is not read as a thread id", async () => {
    const projectId = await projectWith(orchestrator("Done. {{tool_result}}"));
    const first = await startThread(projectId, "orchestrator", "tree");
    const second = await startThread(projectId, "orchestrator", "tree");
    await waitFor(first, ["idle"]);
    await waitFor(second, ["idle"]);

    const same = await api<Diff>("GET", `/api/threads/diff?a=${first}&b=${second}`);
    expect(same.status, JSON.stringify(same.body)).toBe(200);
    expect(same.body.first_divergence).toBeNull();
    expect(same.body.steps.length).toBeGreaterThan(4);
    expect(same.body.steps.every((step) => step.same && step.a !== null && step.b !== null)).toBe(true);
    expect(same.body.steps.map((step) => step.index)).toEqual(same.body.steps.map((_, index) => index));
    // The child's messages follow the call that spawned it, paired by spawn order.
    expect(same.body.children).toHaveLength(1);
    expect(same.body.steps.some((step) => step.path.length === 1)).toBe(true);
    expect(same.body.threads.a.id).toBe(first);
    expect(same.body.threads.b.model_calls).toBeGreaterThan(1);

    const changedProject = await projectWith(orchestrator("Finished differently."));
    const third = await startThread(changedProject, "orchestrator", "tree");
    await waitFor(third, ["idle"]);
    const changed = await api<Diff>("GET", `/api/threads/diff?a=${first}&b=${third}`);
    const rootSteps = changed.body.steps.filter((step) => step.path.length === 0);
    const last = rootSteps.at(-1)!;
    expect(changed.body.first_divergence).toBe(last.index);
    expect(last.same).toBe(false);
    expect(last.b?.content).toBe("Finished differently.");

    // A fork of the first run at its first message, compared with it: the same up to the fork's end.
    const [opening] = await messagesOf(first);
    const fork = await api<{ threadId: string }>("POST", `/api/threads/${first}/fork`, {
      at_message_id: opening!.id,
    });
    const forkDiff = await api<Diff>("GET", `/api/threads/diff?a=${first}&b=${fork.body.threadId}`);
    expect(forkDiff.body.first_divergence).toBe(1);
    expect(forkDiff.body.steps[0]!.same).toBe(true);
    expect(forkDiff.body.steps[1]).toMatchObject({ same: false, b: null });
  });

  it("answers 400 without both ids and 404 for an unknown thread", async () => {
    const projectId = await projectWith(noteBundle(NOTE_SCRIPT));
    const threadId = await startThread(projectId, "assistant", "x");
    await waitFor(threadId, ["idle"]);
    expect((await api("GET", `/api/threads/diff?a=${threadId}`)).status).toBe(400);
    expect((await api("GET", "/api/threads/diff")).status).toBe(400);
    const missing = await api<{ code: string }>(
      "GET",
      `/api/threads/diff?a=${threadId}&b=00000000-0000-4000-8000-000000000000`,
    );
    expect([missing.status, missing.body.code]).toEqual([404, "thread_not_found"]);
    expect((await api("GET", `/api/threads/diff?a=nope&b=${threadId}`)).status).toBe(404);
    // The dynamic sibling still serves real ids.
    expect((await api("GET", `/api/threads/${threadId}`)).status).toBe(200);
  });
});
