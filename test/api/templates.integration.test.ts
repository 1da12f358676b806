// Studio templates run out of the box, and keep running as demos: each one, saved as a project and
// started with a message, finishes its run with scripted models and no provider, and its subagents
// all complete; the chat holds a streamed multi-turn conversation; the named workers are two
// different named children; and messaging a resumable child afterwards ends in a few messages.
import { describe, expect, it } from "vitest";
import { chatTemplate, namedWorkersTemplate, STUDIO_TEMPLATES } from "@/lib/studio/templates";
import { SCRIPT_EXHAUSTED_TEXT } from "@/runtime/models/scripted";
import { testServerForFile } from "../support/fixture";
import { connectSse } from "../support/sse";
import { threadHelpers } from "../support/thread-helpers";

const fixture = testServerForFile();
const api = fixture.api;
const { projectWith, startThread, waitFor, messagesOf } = threadHelpers(fixture);

type TreeNode = {
  id: string;
  name: string | null;
  agent_id: string;
  status: string;
  resumable: boolean;
  children: TreeNode[];
};

const flatten = (node: TreeNode): TreeNode[] => [node, ...node.children.flatMap(flatten)];
const AT_REST = ["idle", "completed"];

/** Waits until every thread of the tree is idle or completed; returns the tree's nodes. */
async function treeAtRest(rootId: string, timeoutMs = 30_000): Promise<TreeNode[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const tree = await api<{ root: TreeNode }>("GET", `/api/threads/${rootId}/tree`);
    const nodes = flatten(tree.body.root);
    if (nodes.every((node) => AT_REST.includes(node.status)) || Date.now() > deadline) return nodes;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function send(threadId: string, content: string) {
  const posted = await api("POST", `/api/threads/${threadId}/messages`, { content });
  expect(posted.status, JSON.stringify(posted.body)).toBe(202);
}

const assistantTexts = async (threadId: string) =>
  (await messagesOf(threadId)).filter((m) => m.role === "assistant" && m.content).map((m) => m.content!);

describe("studio templates", () => {
  for (const template of STUDIO_TEMPLATES) {
    it(`"${template.label}" runs to the end with its demo models`, async () => {
      const bundle = template.build();
      const agent = bundle.agents.find((candidate) => (candidate.type ?? "ai_human") === "ai_human");
      expect(agent).toBeDefined();
      const projectId = await projectWith(bundle);
      const threadId = await startThread(projectId, agent!.name, "Please start.");
      await waitFor(threadId, ["idle"], 30_000);
      // Reports of non-blocking children may start more turns: wait until the whole tree is at rest.
      const nodes = await treeAtRest(threadId);
      expect(nodes.map((node) => node.status).filter((status) => !AT_REST.includes(status))).toEqual([]);
      const last = (await messagesOf(threadId)).at(-1);
      expect(last?.role).toBe("assistant");
      expect(last?.content).not.toBe(SCRIPT_EXHAUSTED_TEXT);
      expect((last?.content ?? "").trim()).not.toBe("");
    });
  }

  it("the chat assistant answers three turns with three different streamed replies", async () => {
    const projectId = await projectWith(chatTemplate());
    const threadId = await startThread(projectId, "assistant", "Hello there");
    const events = await connectSse(`${fixture.server.baseUrl}/api/threads/${threadId}/events`);
    try {
      await waitFor(threadId, ["idle"], 20_000);
      for (const [turn, question] of ["How do I start?", "And then?"].entries()) {
        const started = Date.now();
        await send(threadId, question);
        await expect
          .poll(async () => (await assistantTexts(threadId)).length, { timeout: 20_000 })
          .toBe(turn + 2);
        await waitFor(threadId, ["idle"], 20_000);
        // The reply is streamed over its delay, not dropped in at once.
        expect(Date.now() - started).toBeGreaterThanOrEqual(1_000);
      }
      const replies = await assistantTexts(threadId);
      expect(replies).toHaveLength(3);
      expect(new Set(replies).size).toBe(3);
      expect(replies).not.toContain(SCRIPT_EXHAUSTED_TEXT);
      expect(replies[1]).toContain("How do I start?");
      expect(replies[2]).toContain("And then?");
      const chunks = events.frames.filter((frame) => frame.event === "message_chunk");
      expect(chunks.length).toBeGreaterThanOrEqual(3 * 10);
    } finally {
      events.close();
    }
  });

  it("the named workers template creates two different named workers; messaging one ends in a few messages", async () => {
    const projectId = await projectWith(namedWorkersTemplate());
    const started = Date.now();
    const threadId = await startThread(projectId, "team_lead", "a lighthouse keeper");
    await waitFor(threadId, ["idle"], 30_000);
    // Long enough to watch (each worker step streams for almost a second), short enough to wait for.
    expect(Date.now() - started).toBeGreaterThanOrEqual(3_000);
    const nodes = await treeAtRest(threadId);
    const children = nodes.filter((node) => node.id !== threadId);
    expect(children.map((child) => [child.name, child.agent_id, child.status, child.resumable])).toEqual([
      ["ada", "writer", "completed", true],
      ["grace", "critic", "completed", true],
    ]);
    const answer = (await assistantTexts(threadId)).at(-1) ?? "";
    expect(answer).toContain("The writer published and the critic filed a review");

    // Message a resumable child directly, as the live view does: one new session, ended by its
    // sessionStop after a handful of messages (not worker and reviewer trading messages to a limit).
    const writer = children[0]!;
    const before = (await messagesOf(writer.id, true)).length;
    await send(writer.id, "Make it about the sea instead.");
    await expect
      .poll(
        async () =>
          (await api<{ thread: { status: string } }>("GET", `/api/threads/${writer.id}`)).body.thread.status,
        {
          timeout: 20_000,
        },
      )
      .toBe("completed");
    await treeAtRest(threadId);
    const after = await messagesOf(writer.id, true);
    const added = after.slice(before);
    expect(added.length).toBeGreaterThan(1);
    expect(added.length).toBeLessThanOrEqual(10);
    expect(after.map((message) => message.content)).not.toContain(SCRIPT_EXHAUSTED_TEXT);

    // The lead keeps working with the same two workers on a second request (no new instances).
    await send(threadId, "Shorter, please.");
    await expect
      .poll(async () => (await assistantTexts(threadId)).at(-1), { timeout: 30_000 })
      .toContain("Revised and reviewed again");
    const again = await treeAtRest(threadId);
    expect(again.filter((node) => node.id !== threadId).map((node) => node.name)).toEqual(["ada", "grace"]);
    for (const node of again) {
      expect(await assistantTexts(node.id), node.name ?? node.id).not.toContain(SCRIPT_EXHAUSTED_TEXT);
    }
  });
});
