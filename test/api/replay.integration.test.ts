// Replay (issue 21, API.md "Replay, fork and diff") over real HTTP on the built server and the suite's
// database (PGlite, or Postgres when DATABASE_URL names one): a replay of a three-level tree with two
// human turns reproduces every message of every thread with no model call made (every call answered
// from the recording); after the child's prompt is edited, a replay against the latest version
// diverges exactly at the child's first call (reported in the status and as a `divergence` event),
// while a replay against the source's version still matches; bad requests get 400/404/422.
import { describe, expect, it } from "vitest";
import type { ReplayStatus } from "@/lib/contracts/replay";
import { testServerForFile } from "../support/fixture";
import { connectSse } from "../support/sse";
import { assetBundle, assetFanOutBundle, detailAgent } from "../support/subagent-bundles";
import { threadHelpers } from "../support/thread-helpers";

const fixture = testServerForFile();
const api = fixture.api;
const { projectWith, startThread, waitFor, messagesOf } = threadHelpers(fixture);

interface TreeNode {
  id: string;
  agent_id: string;
  depth: number;
  children: TreeNode[];
}

type Diff = { first_divergence: number | null; steps: { same: boolean; path: number[] }[] };

function castleBundle(workerPrompt = "You draw assets.") {
  const bundle = assetBundle({
    config: { blocking: true },
    orchestratorScript: [
      { toolCalls: [{ name: "asset_subagent", args: { message: "a castle" } }] },
      { text: "castle done: {{tool_result}}" },
      { text: "second turn: {{input}}" },
    ],
    workerScript: [
      { toolCalls: [{ name: "detail_subagent", args: { message: "towers for {{input}}" } }] },
      { text: "Castle with {{tool_result}}" },
    ],
    workerTools: [{ name: "detail_subagent", blocking: true }],
    extra: detailAgent(),
  });
  return {
    ...bundle,
    prompts: (bundle.prompts as { name: string }[]).map((prompt) =>
      prompt.name === "asset_worker" ? { ...prompt, prompt: workerPrompt } : prompt,
    ),
  };
}

async function treeOf(rootId: string): Promise<TreeNode> {
  const response = await api<{ root: TreeNode }>("GET", `/api/threads/${rootId}/tree`);
  expect(response.status).toBe(200);
  return response.body.root;
}

function flatten(node: TreeNode): TreeNode[] {
  return [node, ...node.children.flatMap(flatten)];
}

async function replayFinished(threadId: string): Promise<ReplayStatus> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const status = await api<ReplayStatus>("GET", `/api/threads/${threadId}/replay`);
    expect(status.status, JSON.stringify(status.body)).toBe(200);
    if (status.body.state === "finished") return status.body;
    if (Date.now() > deadline) throw new Error(`replay not finished: ${JSON.stringify(status.body)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function modelCallCount(rootId: string): Promise<number> {
  let total = 0;
  for (const node of flatten(await treeOf(rootId))) {
    const logs = await api<{ model_calls?: unknown[]; modelCalls?: unknown[] }>(
      "GET",
      `/api/threads/${node.id}/logs`,
    );
    total += (logs.body.model_calls ?? logs.body.modelCalls ?? []).length;
  }
  return total;
}

/** A source run: "build" (the tree runs), then a second human turn. */
async function recordedRun(projectId: string): Promise<string> {
  const sourceId = await startThread(projectId, "orchestrator", "build");
  await waitFor(sourceId, ["idle"]);
  expect((await api("POST", `/api/threads/${sourceId}/messages`, { content: "again" })).status).toBe(202);
  await waitFor(sourceId, ["idle"]);
  const messages = await messagesOf(sourceId);
  expect(messages.at(-1)?.content).toBe("second turn: again");
  return sourceId;
}

describe("replay", () => {
  it("reproduces every message of a three-level tree from the recording, calling no model", async () => {
    const projectId = await projectWith(castleBundle());
    const sourceId = await recordedRun(projectId);
    const sourceTree = await treeOf(sourceId);
    expect(flatten(sourceTree).map((node) => node.depth)).toEqual([0, 1, 2]);
    const recordedCalls = await modelCallCount(sourceId);
    expect(recordedCalls).toBeGreaterThanOrEqual(6);

    const started = await api<{ threadId: string; replay_of: string; inputs: number; from_version: string }>(
      "POST",
      `/api/threads/${sourceId}/replay`,
    );
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    expect(started.body).toMatchObject({ replay_of: sourceId, inputs: 2, from_version: "latest" });
    const replayId = started.body.threadId;
    const status = await replayFinished(replayId);
    expect(status).toMatchObject({
      thread_id: replayId,
      replay_of: sourceId,
      inputs_total: 2,
      inputs_posted: 2,
      divergences: [],
      threads: 3,
    });
    // Every call answered from the recording: none went to a model.
    expect(status.calls).toEqual({ replayed: recordedCalls, live: 0 });

    // Thread by thread, message by message: the same (ids aside), checked two ways.
    const replayTree = await treeOf(replayId);
    expect(flatten(replayTree).map((node) => [node.depth, node.agent_id])).toEqual(
      flatten(sourceTree).map((node) => [node.depth, node.agent_id]),
    );
    const idMap = new Map(
      flatten(sourceTree).map((node, index) => [node.id, flatten(replayTree)[index]!.id]),
    );
    const shape = (content: string | null) =>
      [...idMap].reduce((text, [from, to]) => text?.replaceAll(from, to) ?? null, content);
    for (const [index, node] of flatten(sourceTree).entries()) {
      const source = await messagesOf(node.id);
      const replayed = await messagesOf(flatten(replayTree)[index]!.id);
      expect(
        replayed.map((m) => [m.role, m.side, m.content, m.tool_calls?.length ?? 0, m.tool_status]),
      ).toEqual(
        source.map((m) => [m.role, m.side, shape(m.content), m.tool_calls?.length ?? 0, m.tool_status]),
      );
    }
    const diff = await api<Diff>("GET", `/api/threads/diff?a=${sourceId}&b=${replayId}`);
    expect(diff.body.first_divergence).toBeNull();
    expect(diff.body.steps.some((step) => step.path.length === 2)).toBe(true);
    expect(
      (await api<{ thread: { name: string } }>("GET", `/api/threads/${replayId}`)).body.thread.name,
    ).toBe("Replay of orchestrator");
  });

  it("replays an edited fork from the history it was forked with, matching its recording", async () => {
    const projectId = await projectWith(castleBundle());
    const sourceId = await recordedRun(projectId);
    const again = (await messagesOf(sourceId)).find((message) => message.content === "again")!;
    // Edit and fork: the tree's history before "again" (with the castle children it knows), then "once more".
    const forked = await api<{ threadId: string }>("POST", `/api/threads/${sourceId}/fork`, {
      at_message_id: again.id,
      content: "once more",
      replace: true,
    });
    expect(forked.status, JSON.stringify(forked.body)).toBe(201);
    const forkId = forked.body.threadId;
    await waitFor(forkId, ["idle"]);
    const forkMessages = await messagesOf(forkId);
    expect(forkMessages.findIndex((message) => message.content === "once more")).toBeGreaterThan(0);
    const forkCalls = await modelCallCount(forkId);
    expect(forkCalls).toBeGreaterThanOrEqual(1);

    const started = await api<{ threadId: string; inputs: number }>("POST", `/api/threads/${forkId}/replay`, {
      from_version: "same",
    });
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    expect(started.body.inputs).toBe(1);
    const replayId = started.body.threadId;
    const status = await replayFinished(replayId);
    // The fork's one call is answered from its recording: the replay saw the request the fork made.
    expect(status.divergences).toEqual([]);
    expect(status.calls).toEqual({ replayed: forkCalls, live: 0 });
    // The replay holds the fork's history, then the same answer; the copied children come along.
    const replayed = await messagesOf(replayId);
    expect(replayed.map((m) => [m.role, m.side, m.tool_calls?.length ?? 0])).toEqual(
      forkMessages.map((m) => [m.role, m.side, m.tool_calls?.length ?? 0]),
    );
    // The same text, but for the ids of the copied children (each tree has its own).
    const withoutIds = (text: string | null | undefined) =>
      text?.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, "<id>");
    expect(replayed.map((m) => withoutIds(m.content))).toEqual(
      forkMessages.map((m) => withoutIds(m.content)),
    );
    const forkTree = flatten(await treeOf(forkId)).map((node) => [node.depth, node.agent_id]);
    expect(forkTree.length).toBeGreaterThan(1);
    expect(flatten(await treeOf(replayId)).map((node) => [node.depth, node.agent_id])).toEqual(forkTree);
  });

  it("diverges at the first call whose request changed, and answers from there with the real model", async () => {
    const projectId = await projectWith(castleBundle());
    const sourceId = await recordedRun(projectId);
    const sourceTree = await treeOf(sourceId);
    // The worker's (the child's) prompt is edited: its first request no longer matches.
    expect(
      (await api("PUT", `/api/projects/${projectId}/definitions`, castleBundle("You draw detailed assets.")))
        .status,
    ).toBe(200);

    const started = await api<{ threadId: string }>("POST", `/api/threads/${sourceId}/replay`, {
      from_version: "latest",
    });
    expect(started.status).toBe(201);
    const replayId = started.body.threadId;
    const status = await replayFinished(replayId);
    const child = (await treeOf(replayId)).children[0]!;
    expect(status.divergences).toHaveLength(1);
    expect(status.divergences[0]).toMatchObject({
      thread_id: child.id,
      source_thread_id: sourceTree.children[0]!.id,
      agent_id: "asset_subagent",
      side: "a",
      call_index: 0,
      reason: "request_changed",
      path: "messages[0].content",
      recorded: "You draw assets.",
      replayed: "You draw detailed assets.",
    });
    // From its divergence on, every call of the child went to its (scripted) models: the worker's two
    // and the reviewer's one. The root's and the grandchild's were replayed.
    expect(status.calls.live).toBe(3);
    expect(status.calls.replayed).toBeGreaterThanOrEqual(4);
    // The scripted model answers as recorded, so the run still ends the same.
    expect((await messagesOf(replayId)).at(-1)?.content).toBe("second turn: again");
    // The root's stream carries it (the log is replayed to a late subscriber).
    const stream = await connectSse(`${fixture.server.baseUrl}/api/threads/${replayId}/events`);
    await stream.waitFor((frame) => frame.event === "divergence");
    await new Promise((resolve) => setTimeout(resolve, 300));
    stream.close();
    const divergenceEvents = stream.frames
      .filter((frame) => frame.event === "divergence")
      .map((frame) => JSON.parse(frame.data) as { thread_id: string; divergence: { call_index: number } });
    expect(divergenceEvents).toEqual([
      {
        thread_id: child.id,
        divergence: expect.objectContaining({ call_index: 0, reason: "request_changed" }),
      },
    ]);

    // Against the source's own version nothing diverges.
    const same = await api<{ threadId: string; version: number }>("POST", `/api/threads/${sourceId}/replay`, {
      from_version: "same",
    });
    expect(same.body.version).toBe(1);
    const sameStatus = await replayFinished(same.body.threadId);
    expect(sameStatus.divergences).toEqual([]);
    expect(sameStatus.calls.live).toBe(0);
  });

  it("replays a non-blocking fan-out deterministically: each drain takes the reports the original's took", async () => {
    const fanOut = 12;
    const projectId = await projectWith(
      assetFanOutBundle(fanOut, {
        // Children finish at different times: their reports arrive in an order timing decides.
        workerScript: [{ text: "Draft: {{input}}", delayMs: 40 }],
      }),
    );
    const sourceId = await startThread(projectId, "orchestrator", "fan out");
    const settled = async (rootId: string) => {
      const deadline = Date.now() + 30_000;
      for (;;) {
        // Every child's report drained (several may share a drain, and one reply), the root idle.
        const thread = await api<{ thread: { status: string } }>("GET", `/api/threads/${rootId}`);
        const reports = (await messagesOf(rootId, true)).filter(
          (m) => m.role === "user" && m.silent && (m.content ?? "").startsWith("Subagent (reference:"),
        );
        if (thread.body.thread.status === "idle" && reports.length === fanOut) return;
        if (Date.now() > deadline) throw new Error("the fan-out did not settle");
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    };
    await settled(sourceId);
    const started = await api<{ threadId: string }>("POST", `/api/threads/${sourceId}/replay`, {
      from_version: "same",
    });
    const status = await replayFinished(started.body.threadId);
    expect(status.divergences).toEqual([]);
    expect(status.calls.live).toBe(0);
    expect(status.threads).toBe(fanOut + 1);
    const diff = await api<Diff>("GET", `/api/threads/diff?a=${sourceId}&b=${started.body.threadId}`);
    expect(diff.body.first_divergence).toBeNull();
  });

  it("replays a project's latest finished runs at once, skipping replays and unknown ids", async () => {
    const projectId = await projectWith(castleBundle());
    const first = await recordedRun(projectId);
    const second = await startThread(projectId, "orchestrator", "build");
    await waitFor(second, ["idle"]);
    type Many = {
      replays: { source: { id: string }; threadId: string }[];
      skipped: { thread_id: string; reason: string }[];
    };
    const many = await api<Many>("POST", `/api/projects/${projectId}/replays`, { limit: 5 });
    expect(many.status, JSON.stringify(many.body)).toBe(201);
    expect(many.body.replays.map((replay) => replay.source.id)).toEqual([second, first]);
    for (const replay of many.body.replays)
      expect((await replayFinished(replay.threadId)).divergences).toEqual([]);
    // The replays themselves are not picked the next time; given ids are, and a stranger is skipped.
    const again = await api<Many>("POST", `/api/projects/${projectId}/replays`, { limit: 5 });
    expect(again.body.replays.map((replay) => replay.source.id)).toEqual([second, first]);
    const unknown = "00000000-0000-4000-8000-000000000000";
    const given = await api<Many>("POST", `/api/projects/${projectId}/replays`, {
      thread_ids: [first, unknown],
      from_version: "same",
    });
    expect(given.body.replays.map((replay) => replay.source.id)).toEqual([first]);
    expect(given.body.skipped).toEqual([{ thread_id: unknown, reason: "Not a thread of this project." }]);
    expect((await api("POST", `/api/projects/${unknown}/replays`, {})).status).toBe(404);
    expect((await api("POST", `/api/projects/${projectId}/replays`, { limit: 0 })).status).toBe(400);
  });

  it("keeps a project's latest batch of replays on the server, with each replay's progress to its end", async () => {
    const projectId = await projectWith(castleBundle());
    type Batch = {
      batch: {
        id: string;
        state: string;
        replays: { source: { id: string; agent_id: string }; threadId: string; status: ReplayStatus }[];
        skipped: { thread_id: string; reason: string }[];
      } | null;
    };
    expect((await api<Batch>("GET", `/api/projects/${projectId}/replays`)).body).toEqual({ batch: null });
    const first = await recordedRun(projectId);
    const second = await startThread(projectId, "orchestrator", "build");
    await waitFor(second, ["idle"]);
    const unknown = "00000000-0000-4000-8000-000000000000";
    const started = await api<{ batch_id: string; replays: { threadId: string }[] }>(
      "POST",
      `/api/projects/${projectId}/replays`,
      { thread_ids: [second, first, unknown] },
    );
    expect(started.status).toBe(201);
    const deadline = Date.now() + 30_000;
    let latest = await api<Batch>("GET", `/api/projects/${projectId}/replays`);
    while (latest.body.batch?.state !== "finished" && Date.now() < deadline) {
      expect(latest.status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 100));
      latest = await api<Batch>("GET", `/api/projects/${projectId}/replays`);
    }
    const batch = latest.body.batch!;
    expect(batch.id).toBe(started.body.batch_id);
    expect(batch.state).toBe("finished");
    expect(
      batch.replays.map((replay) => [replay.source.id, replay.source.agent_id, replay.threadId]),
    ).toEqual([
      [second, "orchestrator", started.body.replays[0]!.threadId],
      [first, "orchestrator", started.body.replays[1]!.threadId],
    ]);
    expect(batch.replays.map((replay) => replay.status.state)).toEqual(["finished", "finished"]);
    expect(batch.skipped).toEqual([{ thread_id: unknown, reason: "Not a thread of this project." }]);
    // A single replay of a thread is not a batch: the latest batch stays the same.
    await api("POST", `/api/threads/${first}/replay`, {});
    expect((await api<Batch>("GET", `/api/projects/${projectId}/replays`)).body.batch?.id).toBe(batch.id);
    expect((await api("GET", `/api/projects/${unknown}/replays`)).status).toBe(404);
    expect((await api("GET", "/api/projects/nope/replays")).status).toBe(404);
  });

  it("answers 404 for unknown threads, 422 for a child or a thread without input, 400 for a bad body", async () => {
    const projectId = await projectWith(castleBundle());
    const sourceId = await startThread(projectId, "orchestrator", "build");
    await waitFor(sourceId, ["idle"]);
    const unknown = "00000000-0000-4000-8000-000000000000";
    expect((await api("POST", `/api/threads/${unknown}/replay`)).status).toBe(404);
    expect((await api("POST", "/api/threads/nope/replay")).status).toBe(404);
    expect((await api("GET", `/api/threads/${unknown}/replay`)).status).toBe(404);
    const notReplay = await api<{ code: string }>("GET", `/api/threads/${sourceId}/replay`);
    expect([notReplay.status, notReplay.body.code]).toEqual([404, "replay_not_found"]);
    const child = (await treeOf(sourceId)).children[0]!;
    const ofChild = await api<{ code: string }>("POST", `/api/threads/${child.id}/replay`);
    expect([ofChild.status, ofChild.body.code]).toEqual([422, "replay_needs_root"]);
    const empty = await startThread(projectId, "orchestrator");
    const noInput = await api<{ code: string }>("POST", `/api/threads/${empty}/replay`);
    expect([noInput.status, noInput.body.code]).toEqual([422, "replay_without_input"]);
    for (const body of [{ from_version: "yesterday" }, { from_version: 3 }]) {
      const response = await api<{ error: string }>("POST", `/api/threads/${sourceId}/replay`, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.error).toEqual(expect.any(String));
    }
  });
});
