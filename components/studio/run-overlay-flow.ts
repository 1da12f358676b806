// Lays the playground run overlay (lib/studio/run-overlay) onto the React Flow elements: agent nodes
// get their badge data, running children's subagent edges animate in the running colour. Pure; an
// empty overlay hands back the very same arrays.
import type { Edge } from "@xyflow/react";
import type { RunOverlay } from "@/lib/studio/run-overlay";
import type { StudioFlowNode } from "./flow-elements";

export const RUNNING_EDGE_COLOR = "var(--status-running)";

export function withRunOverlay<FlowEdge extends Edge>(
  nodes: StudioFlowNode[],
  edges: FlowEdge[],
  overlay: RunOverlay,
): { nodes: StudioFlowNode[]; edges: FlowEdge[] } {
  if (overlay.agents.size === 0 && overlay.animatedEdges.size === 0) return { nodes, edges };
  return {
    nodes: nodes.map((node) => {
      const run = overlay.agents.get(node.id);
      return run ? { ...node, data: { ...node.data, run } } : node;
    }),
    edges: edges.map((edge) =>
      overlay.animatedEdges.has(edge.id)
        ? {
            ...edge,
            animated: true,
            className: `${edge.className ?? ""} studio-edge-running`.trim(),
            style: { ...edge.style, stroke: RUNNING_EDGE_COLOR, strokeDasharray: undefined },
            markerEnd:
              typeof edge.markerEnd === "object"
                ? { ...edge.markerEnd, color: RUNNING_EDGE_COLOR }
                : edge.markerEnd,
          }
        : edge,
    ),
  };
}
