// The live views' API additions through real HTTP: the threads list's filters and search
// (`GET /api/threads?status=&agent_id=&q=`) and the studio's run overlay
// (`GET /api/projects/:id/activity`), with scripted models slowed down by `delayMs`.
import { describe, expect, it } from "vitest";
import { testServerForFile } from "../support/fixture";
import { observableAssetBundle } from "../support/subagent-bundles";
import { threadHelpers } from "../support/thread-helpers";

const fixture = testServerForFile();
const api = fixture.api;
const { projectWith, startThread, waitFor } = threadHelpers(fixture);

type Listed = {
  id: string;
  agent_id: string;
  status: string;
  title: string | null;
  parent_id: string | null;
};
type ListAnswer = { threads: Listed[]; total: number; hasMore: boolean };

const chatAgent = (name: string) => ({ name, sideA: { prompt: `${name}_chat` } });
const chatPrompt = (name: string, model: string) => ({
  name: `${name}_chat`,
  toolDescription: "Chats",
  prompt: "You are helpful.",
  model,
  includeChat: true,
});

/** Three ai_human agents: two answer at once, `slowpoke` takes 20 s to answer (it stays running). */
function filterBundle() {
  return {
    agents: [chatAgent("assistant"), chatAgent("helper"), chatAgent("slowpoke")],
    prompts: [
      chatPrompt("assistant", "quick"),
      chatPrompt("helper", "quick"),
      chatPrompt("slowpoke", "slow"),
    ],
    models: [
      { name: "quick", provider: "scripted", model: "s", script: [{ text: "ok" }] },
      { name: "slow", provider: "scripted", model: "s", script: [{ text: "finally", delayMs: 20_000 }] },
    ],
    tools: [],
  };
}

async function list(query: string): Promise<ListAnswer> {
  const answer = await api<ListAnswer>("GET", `/api/threads?${query}`);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body;
}

const ids = (answer: ListAnswer) => answer.threads.map((thread) => thread.id).sort();

describe("GET /api/threads filters and search", () => {
  it("filters by status, agent and text, combines them, pages the result and lists the first message", async () => {
    const projectId = await projectWith(filterBundle());
    const otherProject = await projectWith(filterBundle());
    const rock = await startThread(projectId, "assistant", "Find the Blue rock, 100% sure_ish");
    const sky = await startThread(projectId, "helper", "Paint the sky");
    const slow = await startThread(projectId, "slowpoke", "Take your time");
    await startThread(otherProject, "assistant", "Find the blue rock elsewhere");
    await waitFor(rock, ["idle"]);
    await waitFor(sky, ["idle"]);
    await waitFor(slow, ["running"]);
    const inProject = `project_id=${projectId}`;

    expect(ids(await list(`${inProject}&status=idle`))).toEqual([rock, sky].sort());
    expect(ids(await list(`${inProject}&status=running`))).toEqual([slow]);
    expect((await list(`${inProject}&status=idle,running`)).total).toBe(3);
    expect((await list(`${inProject}&status=failed`)).threads).toEqual([]);
    expect(ids(await list(`${inProject}&agent_id=helper`))).toEqual([sky]);
    expect(ids(await list(`${inProject}&agent_id=helper&status=running`))).toEqual([]);

    // Search: the first user message (case-insensitive), the agent name, the thread id.
    const byMessage = await list(`${inProject}&q=blue%20ROCK`);
    expect(ids(byMessage)).toEqual([rock]);
    expect(byMessage.threads[0]!.title).toBe("Find the Blue rock, 100% sure_ish");
    expect(ids(await list(`${inProject}&q=slowp`))).toEqual([slow]);
    expect(ids(await list(`${inProject}&q=${sky.slice(0, 13)}`))).toEqual([sky]);
    expect(ids(await list(`q=blue%20rock`))).toHaveLength(2); // across projects without project_id
    // LIKE wildcards are literal: "%" matches only the message that has one, "_" likewise.
    expect(ids(await list(`${inProject}&q=${encodeURIComponent("100%")}`))).toEqual([rock]);
    expect(ids(await list(`${inProject}&q=${encodeURIComponent("%")}`))).toEqual([rock]);
    expect(ids(await list(`${inProject}&q=${encodeURIComponent("e_i")}`))).toEqual([rock]);
    expect(ids(await list(`${inProject}&q=${encodeURIComponent("t_e")}`))).toEqual([]);

    const first = await list(`${inProject}&status=idle,running&limit=2`);
    expect(first).toMatchObject({ total: 3, hasMore: true });
    const second = await list(`${inProject}&status=idle,running&limit=2&offset=2`);
    expect(second).toMatchObject({ total: 3, hasMore: false });
    expect([...ids(first), ...ids(second)].sort()).toEqual([rock, sky, slow].sort());

    await api("POST", `/api/threads/${slow}/terminate`);
    expect(ids(await list(`${inProject}&status=terminated`))).toEqual([slow]);
  });

  it("filters children with roots_only and agent_id", async () => {
    const projectId = await projectWith(observableAssetBundle(0));
    const root = await startThread(projectId, "orchestrator", "a rock");
    const deadline = Date.now() + 20_000;
    let children: ListAnswer = { threads: [], total: 0, hasMore: false };
    while (Date.now() < deadline && children.total === 0) {
      children = await list(`project_id=${projectId}&agent_id=asset_subagent`);
    }
    expect(children.threads).toHaveLength(1);
    expect(children.threads[0]).toMatchObject({ parent_id: root, title: "a rock" });
    expect((await list(`project_id=${projectId}&agent_id=asset_subagent&roots_only=true`)).total).toBe(0);
    expect(ids(await list(`project_id=${projectId}&roots_only=true`))).toEqual([root]);
    expect((await list(`project_id=${projectId}&roots_only=false`)).total).toBe(2);
  });

  it("answers 400 naming the parameter for a bad filter value, and keeps empty values as not given", async () => {
    const bad = async (query: string) => {
      const answer = await api<{ error: string; code: string }>("GET", `/api/threads?${query}`);
      expect(answer.status, query).toBe(400);
      return answer.body.error;
    };
    expect(await bad("status=running,sleeping")).toBe(
      'Invalid request: status: unknown status "sleeping"; use a comma-separated list of idle, queued, running, waiting_approval, completed, failed, stopped, terminated',
    );
    expect(await bad("roots_only=maybe")).toContain("roots_only");
    expect(await bad("limit=0")).toContain("limit");
    expect(await bad("offset=x")).toContain("offset");
    expect(await bad(`q=${"x".repeat(201)}`)).toContain("q: must be at most 200 characters");
    expect((await api("GET", "/api/threads?status=&agent_id=&q=&limit=")).status).toBe(200);
  });
});

type Activity = {
  project_id: string;
  agents: {
    agent_id: string;
    counts: Record<string, number>;
    active_prompts: { prompt: string; running: number }[];
  }[];
  at: number;
};

async function activityOf(projectId: string): Promise<Activity> {
  const answer = await api<Activity>("GET", `/api/projects/${projectId}/activity`);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body;
}

/** Polls the activity until `check` holds, collecting what each poll said about the subagent. */
async function activityUntil(
  projectId: string,
  check: (activity: Activity) => boolean,
  timeoutMs = 20_000,
): Promise<Activity> {
  const deadline = Date.now() + timeoutMs;
  let last: Activity | undefined;
  while (Date.now() < deadline) {
    last = await activityOf(projectId);
    if (check(last)) return last;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`activity never matched; last: ${JSON.stringify(last)}`);
}

const agentIn = (activity: Activity, name: string) =>
  activity.agents.find((agent) => agent.agent_id === name);

describe("GET /api/projects/:id/activity", () => {
  it("follows a run: the running child's side prompt, then the reviewer's, then nothing running", async () => {
    const projectId = await projectWith(observableAssetBundle(1500));
    expect(await activityOf(projectId)).toMatchObject({ project_id: projectId, agents: [] });
    await startThread(projectId, "orchestrator", "a rock");

    const working = await activityUntil(
      projectId,
      (activity) => agentIn(activity, "asset_subagent")?.active_prompts[0]?.prompt === "asset_worker",
    );
    expect(agentIn(working, "asset_subagent")).toMatchObject({
      counts: { running: 1 },
      active_prompts: [{ prompt: "asset_worker", running: 1 }],
    });
    const reviewing = await activityUntil(
      projectId,
      (activity) => agentIn(activity, "asset_subagent")?.active_prompts[0]?.prompt === "asset_reviewer",
    );
    expect(agentIn(reviewing, "asset_subagent")?.active_prompts).toEqual([
      { prompt: "asset_reviewer", running: 1 },
    ]);

    const settled = await activityUntil(
      projectId,
      (activity) =>
        agentIn(activity, "asset_subagent")?.counts.completed === 1 &&
        agentIn(activity, "orchestrator")?.counts.idle === 1,
    );
    expect(settled.agents.map((agent) => agent.agent_id)).toEqual(["asset_subagent", "orchestrator"]);
    for (const agent of settled.agents) {
      expect([agent.counts.running, agent.counts.queued]).toEqual([0, 0]);
      expect(agent.active_prompts).toEqual([]);
    }
  });

  it("answers 404 for an unknown project", async () => {
    expect((await api("GET", "/api/projects/8f0c7f7e-0000-4000-8000-000000000000/activity")).status).toBe(
      404,
    );
    expect((await api("GET", "/api/projects/not-a-project/activity")).status).toBe(404);
  });
});
