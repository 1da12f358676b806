import { describe, expect, it } from "vitest";
import { emptyStatusCounts, type ProjectActivity, ProjectActivitySchema } from "@/lib/contracts/activity";
import type { GraphNode } from "@/lib/graph";
import { describeNodeActivity, nodeActivity, sameNodeActivity } from "./run-activity";

const at = { x: 0, y: 0 };
const node = (id: string, type: "agent" | "prompt" | "model" | "tool", name: string): GraphNode =>
  ({ id, type, position: at, data: { definition: { name } } }) as GraphNode;

const nodes: GraphNode[] = [
  node("n-orchestrator", "agent", "orchestrator"),
  node("n-worker", "agent", "worker"),
  node("n-orchestrate", "prompt", "orchestrate"),
  node("n-draft", "prompt", "draft"),
  node("n-review", "prompt", "review"),
  node("n-model", "model", "draft"),
  { id: "n-note", type: "note", position: at, data: { text: "worker" } } as GraphNode,
];

function activity(agents: ProjectActivity["agents"]): ProjectActivity {
  return ProjectActivitySchema.parse({ project_id: "p", agents, at: 1 });
}

const counts = (partial: Partial<ReturnType<typeof emptyStatusCounts>>) => ({
  ...emptyStatusCounts(),
  ...partial,
});

describe("nodeActivity", () => {
  it("lights up agents with live threads and the prompts running threads are on, and nothing else", () => {
    const decorations = nodeActivity(
      nodes,
      activity([
        { agent_id: "orchestrator", counts: counts({ idle: 3, completed: 9 }), active_prompts: [] },
        {
          agent_id: "worker",
          counts: counts({ running: 2, queued: 1, completed: 5 }),
          active_prompts: [{ prompt: "draft", running: 2 }],
        },
      ]),
    );
    expect(Object.fromEntries(decorations)).toEqual({
      "n-worker": { active: true, running: 2, queued: 1 },
      "n-draft": { active: true, running: 2, queued: 0 },
    });
  });

  it("adds up a prompt shared by several agents, and counts queued-only agents as active", () => {
    const decorations = nodeActivity(
      nodes,
      activity([
        { agent_id: "orchestrator", counts: counts({ queued: 1 }), active_prompts: [] },
        {
          agent_id: "worker",
          counts: counts({ running: 1 }),
          active_prompts: [{ prompt: "review", running: 1 }],
        },
        {
          agent_id: "lead",
          counts: counts({ running: 3 }),
          active_prompts: [{ prompt: "review", running: 3 }],
        },
      ]),
    );
    expect(decorations.get("n-orchestrator")).toEqual({ active: true, running: 0, queued: 1 });
    expect(decorations.get("n-review")).toEqual({ active: true, running: 4, queued: 0 });
    expect(decorations.has("n-model")).toBe(false);
    expect(decorations.has("n-note")).toBe(false);
  });

  it("draws nothing before the first answer or once every thread has settled", () => {
    expect(nodeActivity(nodes, null).size).toBe(0);
    const settled = activity([
      { agent_id: "worker", counts: counts({ completed: 7, failed: 1 }), active_prompts: [] },
    ]);
    expect(nodeActivity(nodes, settled).size).toBe(0);
  });

  it("tells equal decorations apart from changed ones, so an unchanged poll keeps the canvas", () => {
    const one = new Map([["a", { active: true, running: 1, queued: 0 }]]);
    expect(sameNodeActivity(one, new Map([["a", { active: true, running: 1, queued: 0 }]]))).toBe(true);
    expect(sameNodeActivity(one, new Map([["a", { active: true, running: 2, queued: 0 }]]))).toBe(false);
    expect(sameNodeActivity(one, new Map([["b", { active: true, running: 1, queued: 0 }]]))).toBe(false);
    expect(sameNodeActivity(one, new Map())).toBe(false);
  });

  it("describes an agent's live count", () => {
    expect(describeNodeActivity({ active: true, running: 2, queued: 0 })).toBe("2 running");
    expect(describeNodeActivity({ active: true, running: 0, queued: 3 })).toBe("0 running · 3 queued");
  });
});
