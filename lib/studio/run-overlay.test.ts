import { describe, expect, it } from "vitest";
import { deriveEdges } from "@/lib/graph";
import { assetExampleBundle, cloneExample } from "@/lib/standard";
import { EventScript, stateFromFrames, T0, threadWire, uuid } from "@/test/support/live-support";
import { documentFromBundle } from "./document-layout";
import {
  badgeState,
  compactTokens,
  describeRunOverlay,
  NO_RUN_OVERLAY,
  runOverlay,
  sameRunOverlay,
} from "./run-overlay";

const graph = documentFromBundle(cloneExample(assetExampleBundle));
const edges = deriveEdges(graph);
const orchestratorNode = graph.nodes.find(
  (node) => node.type === "agent" && node.id.includes("orchestrator"),
)!;
const assetNode = graph.nodes.find((node) => node.type === "agent" && node.id.includes("asset_subagent"))!;
const subagentEdge = edges.find((edge) => edge.kind === "subagent")!;

const root = uuid("root");
const child = uuid("child");
const second = uuid("second");

const usage = (input: number, output: number) => ({
  input_tokens: input,
  output_tokens: output,
  cost_usd: 0,
});

/** The asset example mid-run: the orchestrator waits on its blocking child, whose reviewer side is on step 3. */
function midRun(childStatus = "running") {
  const script = new EventScript();
  script.thread(threadWire({ id: root, agent_id: "orchestrator", status: "running", usage: usage(120, 30) }));
  script.telemetry(root, { type: "step_started", step: 1, side: "a" }, T0 + 10);
  script.thread(
    threadWire({
      id: child,
      agent_id: "asset_subagent",
      parent_id: root,
      root_id: root,
      depth: 1,
      name: "red_potion",
      status: childStatus,
      created_at: T0 + 20,
      usage: usage(400, 100),
    }),
  );
  script.telemetry(child, { type: "step_started", step: 2, side: "a" }, T0 + 30);
  script.telemetry(child, { type: "step_started", step: 3, side: "b" }, T0 + 40);
  return { script, state: stateFromFrames(root, script.frames) };
}

describe("runOverlay", () => {
  it("sanity: the fixture has the nodes and the subagent edge it needs", () => {
    expect(subagentEdge.target).toBe(assetNode.id);
    expect(orchestratorNode.id).not.toBe(assetNode.id);
  });

  it("shows each agent's live threads, latest side, steps and own tokens, and animates the running child's edge", () => {
    const { state } = midRun();
    const overlay = runOverlay(graph, edges, state);
    expect(overlay.agents.get(orchestratorNode.id)).toEqual({
      live: 1,
      running: 1,
      waiting: 0,
      side: "a",
      sideLabel: "Director",
      steps: 1,
      tokens: 150,
      ended: null,
    });
    expect(overlay.agents.get(assetNode.id)).toEqual({
      live: 1,
      running: 1,
      waiting: 0,
      side: "b",
      sideLabel: "Reviewer",
      steps: 3,
      tokens: 500,
      ended: null,
    });
    expect([...overlay.animatedEdges]).toEqual([subagentEdge.id]);
    // Prompts, models and tools get no badge.
    expect(overlay.agents.size).toBe(2);
  });

  it("stops animating the edge once the child is no longer at work, and stops counting ended threads as live", () => {
    const idle = runOverlay(graph, edges, midRun("idle").state);
    expect(idle.animatedEdges.size).toBe(0);
    expect(idle.agents.get(assetNode.id)).toMatchObject({ live: 1, running: 0, steps: 3 });

    const done = runOverlay(graph, edges, midRun("completed").state);
    expect(done.animatedEdges.size).toBe(0);
    expect(done.agents.get(assetNode.id)).toMatchObject({ live: 0, running: 0, steps: 3, tokens: 500 });
  });

  it("says how the ended threads ended in the run tree's word: completed, not done", () => {
    const completed = runOverlay(graph, edges, midRun("completed").state);
    expect(badgeState(completed.agents.get(assetNode.id)!)).toBe("completed");
    const failed = runOverlay(graph, edges, midRun("failed").state);
    expect(badgeState(failed.agents.get(assetNode.id)!)).toBe("failed");
    expect(sameRunOverlay(completed, failed)).toBe(false);
  });

  it("counts a thread parked on an approval as waiting, and its badge says so, not idle", () => {
    const waiting = runOverlay(graph, edges, midRun("waiting_approval").state);
    expect(waiting.agents.get(assetNode.id)).toMatchObject({ live: 1, running: 0, waiting: 1 });
    expect(badgeState(waiting.agents.get(assetNode.id)!)).toBe("1 waiting for approval");
    const idle = runOverlay(graph, edges, midRun("idle").state);
    expect(badgeState(idle.agents.get(assetNode.id)!)).toBe("1 idle");
    expect(sameRunOverlay(waiting, idle)).toBe(false);
  });

  it("adds up several threads of one agent; a running thread's side wins over a later idle one", () => {
    const { script } = midRun("idle");
    script.thread(
      threadWire({
        id: second,
        agent_id: "asset_subagent",
        parent_id: root,
        root_id: root,
        depth: 1,
        name: "blue_shield",
        status: "running",
        created_at: T0 + 50,
        usage: usage(10, 5),
      }),
    );
    script.telemetry(second, { type: "step_started", step: 1, side: "a" }, T0 + 20);
    const overlay = runOverlay(graph, edges, stateFromFrames(root, script.frames));
    expect(overlay.agents.get(assetNode.id)).toEqual({
      live: 2,
      running: 1,
      waiting: 0,
      side: "a",
      sideLabel: "Worker",
      steps: 4,
      tokens: 515,
      ended: null,
    });
    expect([...overlay.animatedEdges]).toEqual([subagentEdge.id]);
  });

  it("does not animate an edge whose prompt the parent's agent does not use", () => {
    // A running child of an agent the canvas does not have (renamed since the run started).
    const script = new EventScript();
    script.thread(threadWire({ id: root, agent_id: "renamed_lead", status: "running" }));
    script.thread(
      threadWire({
        id: child,
        agent_id: "asset_subagent",
        parent_id: root,
        root_id: root,
        depth: 1,
        status: "running",
      }),
    );
    const overlay = runOverlay(graph, edges, stateFromFrames(root, script.frames));
    expect(overlay.animatedEdges.size).toBe(0);
    expect(overlay.agents.has(orchestratorNode.id)).toBe(false);
    expect(overlay.agents.get(assetNode.id)).toMatchObject({ live: 1, running: 1, side: null, steps: 0 });
  });

  it("draws nothing without a run", () => {
    expect(runOverlay(graph, edges, null)).toBe(NO_RUN_OVERLAY);
  });

  it("tells an unchanged overlay from a changed one", () => {
    const { state } = midRun();
    const one = runOverlay(graph, edges, state);
    expect(sameRunOverlay(one, runOverlay(graph, edges, state))).toBe(true);
    expect(sameRunOverlay(one, runOverlay(graph, edges, midRun("idle").state))).toBe(false);
    expect(sameRunOverlay(one, NO_RUN_OVERLAY)).toBe(false);
    const { script } = midRun();
    script.telemetry(child, { type: "step_started", step: 4, side: "a" }, T0 + 60);
    expect(sameRunOverlay(one, runOverlay(graph, edges, stateFromFrames(root, script.frames)))).toBe(false);
  });
});

describe("describing the badge", () => {
  it("spells out every figure", () => {
    expect(
      describeRunOverlay({
        live: 2,
        running: 1,
        waiting: 0,
        side: "b",
        sideLabel: "Reviewer",
        steps: 4,
        tokens: 1234,
        ended: null,
      }),
    ).toBe("2 live threads (1 running) · side B (Reviewer) · 4 steps · 1,234 tokens");
    expect(
      describeRunOverlay({
        live: 2,
        running: 1,
        waiting: 1,
        side: null,
        sideLabel: null,
        steps: 2,
        tokens: 5,
        ended: null,
      }),
    ).toBe("2 live threads (1 running, 1 waiting for approval) · 2 steps · 5 tokens");
    expect(
      describeRunOverlay({
        live: 1,
        running: 0,
        waiting: 0,
        side: null,
        sideLabel: null,
        steps: 1,
        tokens: 1,
        ended: null,
      }),
    ).toBe("1 live thread · 1 step · 1 token");
  });

  it("shortens token counts", () => {
    expect([0, 950, 1000, 1234, 9999, 34_499, 999_999, 1_500_000].map(compactTokens)).toEqual([
      "0",
      "950",
      "1k",
      "1.2k",
      "10k",
      "34k",
      "1M",
      "1.5M",
    ]);
  });
});
