// Approvals anywhere in the tree (API.md "Approvals"; docs/runtime.md "Approvals") over real HTTP: a
// call of a tool marked requiresApproval parks its thread (waiting_approval) until a human decides;
// approve runs it (with edited args), deny answers it with the reason; a decision counts once; three
// siblings' approvals resolve independently, each exactly once; and a decision survives a SIGKILL.
import { describe, expect, it } from "vitest";
import { testBackend } from "../support/database";
import { testServerForFile } from "../support/fixture";
import { connectSse, type SseConnection } from "../support/sse";
import { assetBundle } from "../support/subagent-bundles";
import { type ApiMessage, threadHelpers } from "../support/thread-helpers";

// Short leases so a killed server's threads are reclaimed quickly after the restart.
const fixture = testServerForFile({ TANDEM_LEASE_MS: "1500" });
const api = fixture.api;
const { projectWith, startThread, waitFor, messagesOf, modelRequests } = threadHelpers(fixture);

type Approval = {
  id: string;
  thread_id: string;
  tool_call_id: string;
  tool_name: string;
  args: Record<string, unknown>;
  requested_at: number;
  state: string;
  reason: string | null;
};

const WRITE_FILE = {
  name: "write_file",
  kind: "builtin",
  builtin: "fs_write",
  description: "Write a file to this thread's filesystem.",
};
const READ_FILE = {
  name: "read_file",
  kind: "builtin",
  builtin: "fs_read",
  description: "Read a file from this thread's filesystem.",
};

/** One ai_human assistant whose write_file needs approval; read_file does not. */
function assistantBundle(script: unknown[]) {
  return {
    agents: [{ name: "assistant", type: "ai_human", sideA: { prompt: "assistant_chat" } }],
    prompts: [
      {
        name: "assistant_chat",
        toolDescription: "c",
        prompt: "Be brief.",
        model: "demo",
        includeChat: true,
        tools: [{ name: "write_file", requiresApproval: true }, "read_file"],
      },
    ],
    models: [{ name: "demo", provider: "scripted", model: "s", script }],
    tools: [WRITE_FILE, READ_FILE],
  };
}

async function approvalsOf(threadId: string, state?: string): Promise<Approval[]> {
  const response = await api<{ approvals: Approval[] }>(
    "GET",
    `/api/threads/${threadId}/approvals${state ? `?state=${state}` : ""}`,
  );
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.approvals;
}

async function waitForPending(threadId: string, count: number, timeoutMs = 20_000): Promise<Approval[]> {
  const deadline = Date.now() + timeoutMs;
  let last: Approval[] = [];
  while (Date.now() < deadline) {
    last = await approvalsOf(threadId, "pending");
    if (last.length === count) return last;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`expected ${count} pending approvals under ${threadId}; last: ${JSON.stringify(last)}`);
}

const decide = (approvalId: string, body: unknown) =>
  api<{ approval?: Approval; error?: string; code?: string }>("POST", `/api/approvals/${approvalId}`, body);

const toolResults = (messages: ApiMessage[], name: string) =>
  messages.filter((message) => message.role === "tool" && message.name === name);

const approvalFrames = (stream: SseConnection) =>
  stream.frames
    .filter((frame) => frame.event === "approval")
    .map((frame) => JSON.parse(frame.data) as { thread_id: string; approval: Approval });

async function fileText(threadId: string, path: string): Promise<string | null> {
  const response = await fetch(`${fixture.server.baseUrl}/api/threads/${threadId}/fs${path}`);
  if (response.status === 404) return null;
  expect(response.status).toBe(200);
  return response.text();
}

describe("approvals", () => {
  it("parks the thread, lists the call, runs it with the edited args once approved, and counts one decision", async () => {
    const projectId = await projectWith(
      assistantBundle([
        {
          toolCalls: [
            { name: "write_file", args: { path: "/draft.md", content: "first" } },
            { name: "read_file", args: { path: "/draft.md" } },
          ],
        },
        { text: "done: {{tool_result}}" },
      ]),
    );
    const threadId = await startThread(projectId, "assistant");
    const stream = await connectSse(`${fixture.server.baseUrl}/api/threads/${threadId}/events`);
    await api("POST", `/api/threads/${threadId}/messages`, { content: "write it" });
    await waitFor(threadId, ["waiting_approval"]);

    const [pending] = await waitForPending(threadId, 1);
    expect(pending).toMatchObject({
      thread_id: threadId,
      tool_name: "write_file",
      args: { path: "/draft.md", content: "first" },
      state: "pending",
    });
    expect(typeof pending!.tool_call_id).toBe("string");
    expect(pending!.requested_at).toBeGreaterThan(0);
    // The calls after it wait with it: read_file has not run either.
    expect(toolResults(await messagesOf(threadId), "read_file")).toHaveLength(0);
    await stream.waitFor(
      (frame) => frame.event === "approval" && JSON.parse(frame.data).approval.state === "pending",
    );

    // Bad bodies and bad edits change nothing.
    expect((await decide(pending!.id, { decision: "maybe" })).status).toBe(400);
    const badArgs = await decide(pending!.id, {
      decision: "approve",
      args: { path: "/draft.md", content: 5 },
    });
    expect(badArgs.status).toBe(422);
    expect(badArgs.body.error).toContain("content");
    expect((await decide("8f0c7f7e-0000-4000-8000-000000000000", { decision: "approve" })).status).toBe(404);
    expect((await approvalsOf(threadId, "pending")).map((approval) => approval.id)).toEqual([pending!.id]);

    const approved = await decide(pending!.id, {
      decision: "approve",
      args: { path: "/draft.md", content: "edited" },
    });
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expect(approved.body.approval?.state).toBe("approved");
    const again = await decide(pending!.id, { decision: "deny", reason: "too late" });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe("approval_decided");

    await waitFor(threadId, ["idle"]);
    expect(await fileText(threadId, "/draft.md")).toBe("edited");
    const messages = await messagesOf(threadId);
    expect(toolResults(messages, "write_file")).toHaveLength(1);
    expect(toolResults(messages, "write_file")[0]!.tool_status).toBe("success");
    expect(toolResults(messages, "read_file")).toHaveLength(1);
    expect(messages.at(-1)!.content).toBe("done: edited");
    expect(await modelRequests(threadId)).toHaveLength(2);
    expect(await approvalsOf(threadId, "pending")).toEqual([]);
    expect((await approvalsOf(threadId)).map((approval) => approval.state)).toEqual(["approved"]);
    await stream.waitFor(
      (frame) => frame.event === "approval" && JSON.parse(frame.data).approval.state === "approved",
    );
    stream.close();
  });

  it("answers a denied call with an error result carrying the reason, which the model sees", async () => {
    const projectId = await projectWith(
      assistantBundle([
        { toolCalls: [{ name: "write_file", args: { path: "/x.md", content: "x" } }] },
        { text: "understood: {{tool_result}}" },
      ]),
    );
    const threadId = await startThread(projectId, "assistant", "write x");
    const [pending] = await waitForPending(threadId, 1);
    const denied = await decide(pending!.id, { decision: "deny", reason: "not in production" });
    expect(denied.status).toBe(200);
    expect(denied.body.approval?.state).toBe("denied");
    await waitFor(threadId, ["idle"]);

    expect(await fileText(threadId, "/x.md")).toBeNull();
    const results = toolResults(await messagesOf(threadId), "write_file");
    expect(results).toHaveLength(1);
    expect(results[0]!.tool_status).toBe("error");
    expect(results[0]!.content).toContain("not in production");
    const requests = await modelRequests(threadId);
    expect(requests).toHaveLength(2);
    expect(JSON.stringify(requests[1]!.messages)).toContain("not in production");
    expect((await messagesOf(threadId)).at(-1)!.content).toContain("not in production");
    expect((await decide(pending!.id, { decision: "approve" })).status).toBe(409);
  });

  it("GET /api/projects gives each project's runs, latest run and pending approvals at a glance", async () => {
    const projectId = await projectWith(
      assistantBundle([
        { toolCalls: [{ name: "write_file", args: { path: "/g.md", content: "g" } }] },
        { text: "written" },
      ]),
    );
    type Listed = {
      id: string;
      activity: {
        runs: number;
        last_run: { id: string; status: string } | null;
        pending_approvals: number;
      };
    };
    const glance = async () => {
      const list = await api<{ projects: Listed[] }>("GET", "/api/projects");
      expect(list.status).toBe(200);
      return list.body.projects.find((project) => project.id === projectId)!.activity;
    };
    expect(await glance()).toEqual({ runs: 0, last_run: null, pending_approvals: 0 });
    const first = await startThread(projectId, "assistant", "one");
    const second = await startThread(projectId, "assistant", "two");
    await waitForPending(first, 1);
    const [pending] = await waitForPending(second, 1);
    expect(await glance()).toMatchObject({
      runs: 2,
      last_run: { id: second, status: "waiting_approval" },
      pending_approvals: 2,
    });
    expect((await decide(pending!.id, { decision: "approve" })).status).toBe(200);
    await waitFor(second, ["idle"]);
    expect(await glance()).toMatchObject({
      runs: 2,
      last_run: { id: second, status: "idle" },
      pending_approvals: 1,
    });
  });

  it("resolves three pending approvals in three sibling children independently, each exactly once", async () => {
    const projectId = await projectWith(
      assetBundle({
        config: { blocking: false, initUserMessageProperty: "task" },
        orchestratorScript: [
          {
            toolCalls: [1, 2, 3].map((index) => ({
              name: "asset_subagent",
              args: { task: `task ${index}` },
            })),
          },
          { text: "started" },
          { text: "noted" },
          { text: "noted" },
          { text: "noted" },
          { text: "noted" },
        ],
        workerTools: [{ name: "write_file", requiresApproval: true }],
        workerScript: [
          { toolCalls: [{ name: "write_file", args: { path: "/asset.md", content: "{{input}}" } }] },
          { text: "Draft: {{input}}" },
        ],
        extra: { tools: [WRITE_FILE] },
      }),
    );
    const rootId = await startThread(projectId, "orchestrator");
    const stream = await connectSse(`${fixture.server.baseUrl}/api/threads/${rootId}/events`);
    await api("POST", `/api/threads/${rootId}/messages`, { content: "make three" });
    const pending = await waitForPending(rootId, 3);
    const childIds = pending.map((approval) => approval.thread_id);
    expect(new Set(childIds).size).toBe(3);
    expect(childIds).not.toContain(rootId);
    // The root's stream carries every child's approval.
    await stream.waitFor(() => new Set(approvalFrames(stream).map((event) => event.thread_id)).size === 3);
    for (const child of childIds) await waitFor(child, ["waiting_approval"]);

    const byTask = new Map(pending.map((approval) => [String(approval.args.content), approval]));
    const second = byTask.get("task 2")!;
    expect((await decide(second.id, { decision: "approve" })).status).toBe(200);
    await waitFor(second.thread_id, ["completed"]);
    // Only the child that was approved moved on.
    const others = pending.filter((approval) => approval.id !== second.id);
    for (const other of others) {
      expect((await waitFor(other.thread_id, ["waiting_approval"])).status).toBe("waiting_approval");
    }
    expect(await approvalsOf(rootId, "pending")).toHaveLength(2);

    const first = byTask.get("task 1")!;
    const third = byTask.get("task 3")!;
    const [deny, approve] = await Promise.all([
      decide(first.id, { decision: "deny", reason: "wrong palette" }),
      decide(third.id, { decision: "approve", args: { path: "/asset.md", content: "task 3, edited" } }),
    ]);
    expect([deny.status, approve.status]).toEqual([200, 200]);
    for (const child of childIds) await waitFor(child, ["completed"]);

    expect(await fileText(second.thread_id, "/asset.md")).toBe("task 2");
    expect(await fileText(third.thread_id, "/asset.md")).toBe("task 3, edited");
    expect(await fileText(first.thread_id, "/asset.md")).toBeNull();
    for (const child of childIds) {
      const results = toolResults(await messagesOf(child), "write_file");
      expect(results, child).toHaveLength(1);
      expect(results[0]!.tool_status).toBe(child === first.thread_id ? "error" : "success");
    }
    expect(toolResults(await messagesOf(first.thread_id), "write_file")[0]!.content).toContain(
      "wrong palette",
    );
    // Each child reported to the parent exactly once.
    await waitFor(rootId, ["idle"]);
    const reports = (await messagesOf(rootId, true)).filter((message) =>
      (message.content ?? "").startsWith("Subagent (reference:"),
    );
    expect(reports).toHaveLength(3);
    const states = (await approvalsOf(rootId)).map((approval) => approval.state).sort();
    expect(states).toEqual(["approved", "approved", "denied"]);
    // One requested and one decided event per approval on the root's stream.
    const decided = () => approvalFrames(stream).filter((event) => event.approval.state !== "pending");
    await stream.waitFor(() => decided().length >= 3);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const perApproval = (events: { approval: Approval }[]) => events.map((event) => event.approval.id).sort();
    const ids = pending.map((approval) => approval.id).sort();
    expect(perApproval(decided())).toEqual(ids);
    expect(perApproval(approvalFrames(stream).filter((event) => event.approval.state === "pending"))).toEqual(
      ids,
    );
    stream.close();
  });

  it("cancels the pending approvals of a terminated thread", async () => {
    const projectId = await projectWith(
      assistantBundle([{ toolCalls: [{ name: "write_file", args: { path: "/t.md", content: "t" } }] }]),
    );
    const threadId = await startThread(projectId, "assistant", "go");
    const [pending] = await waitForPending(threadId, 1);
    expect((await api("POST", `/api/threads/${threadId}/terminate`)).status).toBe(200);
    expect(await approvalsOf(threadId, "pending")).toEqual([]);
    expect((await approvalsOf(threadId))[0]!.state).toBe("cancelled");
    expect((await decide(pending!.id, { decision: "approve" })).status).toBe(409);
  });
});

// SIGKILL needs a Postgres server: PGlite is not hardened against a hard kill mid-write (README:
// Databases); CI runs this file on both, as the durability tests do.
const crashRecovery = testBackend() === "postgres" ? describe : () => {};

crashRecovery("approvals across a SIGKILL", () => {
  it("a decision made after a restart, and one made just before a kill, each resume their thread exactly once", async () => {
    const script = [
      { toolCalls: [{ name: "write_file", args: { path: "/k.md", content: "{{input}}" } }] },
      // Slow enough that the kill below lands while the resumed thread is mid-step.
      { text: "written: {{tool_result}}", delayMs: 1500 },
    ];
    const projectId = await projectWith(assistantBundle(script));
    const before = await startThread(projectId, "assistant", "before");
    const after = await startThread(projectId, "assistant", "after");
    const [beforeApproval] = await waitForPending(before, 1);
    const [afterApproval] = await waitForPending(after, 1);

    // Decided, then killed at once: the decision is durable and the resume goes through the claim path.
    expect((await decide(beforeApproval!.id, { decision: "approve" })).status).toBe(200);
    await fixture.server.kill();
    await fixture.server.restart();

    expect((await approvalsOf(after, "pending")).map((approval) => approval.id)).toEqual([afterApproval!.id]);
    expect((await decide(afterApproval!.id, { decision: "approve" })).status).toBe(200);
    expect((await decide(afterApproval!.id, { decision: "approve" })).status).toBe(409);
    for (const threadId of [before, after]) {
      await waitFor(threadId, ["idle"], 30_000);
      const messages = await messagesOf(threadId);
      expect(toolResults(messages, "write_file"), threadId).toHaveLength(1);
      expect(
        messages.filter((message) => message.role === "assistant" && message.content?.startsWith("written")),
      ).toHaveLength(1);
    }
    expect(await fileText(before, "/k.md")).toBe("before");
    expect(await fileText(after, "/k.md")).toBe("after");
  });
});
