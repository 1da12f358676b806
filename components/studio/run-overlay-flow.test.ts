import { type Edge, MarkerType } from "@xyflow/react";
import { describe, expect, it } from "vitest";
import { INACTIVE } from "@/lib/studio/run-activity";
import { NO_RUN_OVERLAY, type RunOverlay } from "@/lib/studio/run-overlay";
import type { StudioFlowNode } from "./flow-elements";
import { RUNNING_EDGE_COLOR, withRunOverlay } from "./run-overlay-flow";

const node = (id: string): StudioFlowNode => ({
  id,
  type: "agent",
  position: { x: 0, y: 0 },
  data: {
    graphNode: { id, type: "agent", position: { x: 0, y: 0 }, data: { definition: { name: id } } },
    errorCount: 0,
    warningCount: 0,
    activity: INACTIVE,
  },
});
const edge = (id: string): Edge => ({
  id,
  source: "p",
  target: "a",
  className: "studio-edge-subagent",
  style: { stroke: "#7950f2", strokeWidth: 2.5, strokeDasharray: "6 4" },
  markerEnd: { type: MarkerType.ArrowClosed, color: "#7950f2" },
});

describe("withRunOverlay", () => {
  it("hands back the very same arrays when there is nothing to draw", () => {
    const nodes = [node("lead")];
    const edges = [edge("e1")];
    const result = withRunOverlay(nodes, edges, NO_RUN_OVERLAY);
    expect(result.nodes).toBe(nodes);
    expect(result.edges).toBe(edges);
  });

  it("puts the badge on its agent node and animates only the running child's edge", () => {
    const run = {
      live: 1,
      running: 1,
      waiting: 0,
      side: "b" as const,
      sideLabel: "Reviewer",
      steps: 3,
      tokens: 42,
      ended: null,
    };
    const overlay: RunOverlay = { agents: new Map([["child", run]]), animatedEdges: new Set(["e1"]) };
    const nodes = [node("lead"), node("child")];
    const edges = [edge("e1"), edge("e2")];
    const result = withRunOverlay(nodes, edges, overlay);
    expect(result.nodes[0]).toBe(nodes[0]);
    expect(result.nodes[1]!.data.run).toEqual(run);
    expect(result.edges[1]).toBe(edges[1]);
    expect(result.edges[0]).toMatchObject({
      animated: true,
      className: "studio-edge-subagent studio-edge-running",
      style: { stroke: RUNNING_EDGE_COLOR, strokeWidth: 2.5, strokeDasharray: undefined },
      markerEnd: { color: RUNNING_EDGE_COLOR },
    });
  });
});
