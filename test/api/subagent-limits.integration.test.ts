// Fan-out governance (maximum depth, active children per parent, active threads overall), each
// surfaced to the model as a tool error, and the after_subagent_created hook.
import path from "node:path";
import { describe, expect, it } from "vitest";
import { testServerForFile } from "../support/fixture";
import { assetBundle, detailAgent } from "../support/subagent-bundles";
import { threadHelpers } from "../support/thread-helpers";

const fixture = testServerForFile({
  TANDEM_MAX_SUBAGENT_DEPTH: "1",
  TANDEM_MAX_ACTIVE_CHILDREN: "2",
  TANDEM_EXTENSIONS_DIR: path.resolve(__dirname, "../extensions"),
});
const api = fixture.api;
const { projectWith, startThread, waitFor, messagesOf } = threadHelpers(fixture);

type RegistryEntry = { reference: string; status: string; spawnGroupId?: string };

async function registry(threadId: string): Promise<RegistryEntry[]> {
  return (await api<{ subagents: RegistryEntry[] }>("GET", `/api/threads/${threadId}/subagents`)).body
    .subagents;
}

describe("fan-out governance", () => {
  it("refuses a child beyond the maximum depth with a tool error the child's model reads", async () => {
    const projectId = await projectWith(
      assetBundle({
        config: { blocking: true },
        orchestratorScript: [
          { toolCalls: [{ name: "asset_subagent", args: { message: "a castle" } }] },
          { text: "ok" },
        ],
        workerScript: [
          { toolCalls: [{ name: "detail_subagent", args: { message: "towers" } }] },
          { text: "Without help: {{tool_result}}" },
        ],
        workerTools: [{ name: "detail_subagent", blocking: true }],
        extra: detailAgent([{ text: "details" }]),
      }),
    );
    const parentId = await startThread(projectId, "orchestrator", "build");
    await waitFor(parentId, ["idle"]);
    const [child] = await registry(parentId);
    expect(await registry(child!.reference)).toHaveLength(0);
    const [refused] = (await messagesOf(child!.reference)).filter(
      (message) => message.name === "detail_subagent",
    );
    expect(refused?.tool_status).toBe("error");
    expect(refused?.content).toContain(
      "subagents may nest at most 1 levels deep (TANDEM_MAX_SUBAGENT_DEPTH)",
    );
  });

  it("refuses more active children than allowed per parent; one message's children share a spawn group", async () => {
    const projectId = await projectWith(
      assetBundle({
        config: { blocking: false },
        orchestratorScript: [
          {
            toolCalls: [1, 2, 3].map((index) => ({
              name: "asset_subagent",
              args: { message: `job ${index}` },
            })),
          },
          { text: "started" },
          { text: "noted" },
          { text: "noted" },
        ],
        workerScript: [{ text: "Draft: {{input}}", delayMs: 1500 }],
      }),
    );
    const parentId = await startThread(projectId, "orchestrator", "three jobs");
    await waitFor(parentId, ["idle"]);
    const results = (await messagesOf(parentId)).filter((message) => message.name === "asset_subagent");
    expect(results.map((message) => message.tool_status)).toEqual(["success", "success", "error"]);
    expect(results[2]?.content).toContain("at most 2 may work at once (TANDEM_MAX_ACTIVE_CHILDREN)");
    const entries = await registry(parentId);
    expect(entries).toHaveLength(2);
    expect(entries[0]?.spawnGroupId).toBeTruthy();
    expect(entries[0]?.spawnGroupId).toBe(entries[1]?.spawnGroupId);
  });

  it("runs after_subagent_created with the parent's and the child's state", async () => {
    const bundle = assetBundle({
      config: { blocking: true },
      orchestratorScript: [
        { toolCalls: [{ name: "asset_subagent", args: { message: "x" } }] },
        { text: "ok" },
      ],
    });
    (bundle.agents[0] as Record<string, unknown>).hooks = ["record_child"];
    const projectId = await projectWith(bundle);
    const parentId = await startThread(projectId, "orchestrator", "go");
    await waitFor(parentId, ["idle"]);
    const [child] = await registry(parentId);
    const base = fixture.server.baseUrl;
    const inParent = await fetch(`${base}/api/threads/${parentId}/fs/children/${child!.reference}.txt`);
    expect(await inParent.text()).toBe("asset_subagent");
    const inChild = await fetch(`${base}/api/threads/${child!.reference}/fs/from-parent.txt`);
    expect(await inChild.text()).toBe(parentId);
  });

  it("runs a spawned child's after_thread_created hooks once, before its first step", async () => {
    const bundle = assetBundle({
      config: { blocking: true },
      orchestratorScript: [
        { toolCalls: [{ name: "asset_subagent", args: { message: "x" } }] },
        { text: "ok" },
      ],
    });
    const child = (bundle.agents as Record<string, unknown>[]).find(
      (agent) => agent.name === "asset_subagent",
    );
    if (!child) throw new Error("the asset bundle has no asset_subagent");
    child.hooks = ["greet_thread"];
    const projectId = await projectWith(bundle);
    const parentId = await startThread(projectId, "orchestrator", "go");
    await waitFor(parentId, ["idle"]);
    const [entry] = await registry(parentId);
    const childMessages = await messagesOf(entry!.reference, true);
    const welcomes = childMessages.filter((message) => message.content === "Welcome to asset_subagent!");
    expect(welcomes).toHaveLength(1);
    // Before the worker's first step: the hook's message precedes every model answer.
    const firstStep = childMessages.findIndex((message) => message.side !== null);
    expect(childMessages.indexOf(welcomes[0]!)).toBeLessThan(firstStep);
  });

  it("refuses a child when the server runs its maximum of active threads", async () => {
    await fixture.server.restart({ TANDEM_MAX_ACTIVE_THREADS: "1" });
    const projectId = await projectWith(
      assetBundle({
        config: { blocking: true },
        orchestratorScript: [
          { toolCalls: [{ name: "asset_subagent", args: { message: "x" } }] },
          { text: "ok" },
        ],
      }),
    );
    const parentId = await startThread(projectId, "orchestrator", "go");
    await waitFor(parentId, ["idle"]);
    const [refused] = (await messagesOf(parentId)).filter((message) => message.name === "asset_subagent");
    expect(refused?.tool_status).toBe("error");
    expect(refused?.content).toContain("its limit (TANDEM_MAX_ACTIVE_THREADS)");
    expect(await registry(parentId)).toHaveLength(0);
  });
});
