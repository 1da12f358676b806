// The document seen by React Flow: one flow node per graph node and one flow edge per derived edge,
// with error counts, run activity and selection baked in. Pure; the canvas only renders what this returns.
import { type Edge, MarkerType, type Node } from "@xyflow/react";
import type { Graph, GraphEdge, GraphNode } from "@/lib/graph";
import type { DiagnosticCounts } from "@/lib/studio/diagnostic-targets";
import { findNode } from "@/lib/studio/document-edits";
import { INACTIVE, type NodeActivity } from "@/lib/studio/run-activity";
import type { AgentRunOverlay } from "@/lib/studio/run-overlay";
import type { StudioSelection } from "@/lib/studio/selection";

export type StudioNodeData = {
  graphNode: GraphNode;
  errorCount: number;
  activity: NodeActivity;
  /** The playground run's badge (agent nodes in the followed run only; see run-overlay-flow.ts). */
  run?: AgentRunOverlay;
};
export type StudioFlowNode = Node<StudioNodeData, GraphNode["type"]>;

export type MeasuredSizes = ReadonlyMap<string, { width: number; height: number }>;

/**
 * One flow node per graph node. A node whose inputs are all unchanged keeps its flow node from
 * `previous` (the same object), so React Flow re-renders only the nodes that moved or changed: a
 * drag on a 300-node canvas re-renders the dragged nodes, not all 300.
 */
export function toFlowNodes(
  graph: Graph,
  counts: DiagnosticCounts,
  selection: StudioSelection,
  measured: MeasuredSizes,
  activity: ReadonlyMap<string, NodeActivity> = new Map(),
  previous: readonly StudioFlowNode[] = [],
): StudioFlowNode[] {
  const before = new Map(previous.map((flowNode) => [flowNode.id, flowNode]));
  const selected = new Set(selection.nodeIds);
  return graph.nodes.map((graphNode) => {
    const errorCount = counts.byNode.get(graphNode.id) ?? 0;
    const nodeActivity = activity.get(graphNode.id) ?? INACTIVE;
    const isSelected = selected.has(graphNode.id);
    const size = measured.get(graphNode.id);
    const kept = before.get(graphNode.id);
    if (
      kept &&
      kept.data.graphNode === graphNode &&
      kept.data.errorCount === errorCount &&
      kept.data.activity === nodeActivity &&
      kept.selected === isSelected &&
      kept.measured === size
    ) {
      return kept;
    }
    return {
      id: graphNode.id,
      type: graphNode.type,
      position: graphNode.position,
      data: { graphNode, errorCount, activity: nodeActivity },
      selected: isSelected,
      measured: size,
    };
  });
}

const EDGE_COLORS: Record<GraphEdge["kind"], string> = {
  side: "var(--text-muted)",
  tool: "var(--text-muted)",
  subprompt: "var(--text-muted)",
  subagent: "#7950f2",
  handoff: "#1c7ed6",
  model: "#2f9e44",
  include: "var(--text-muted)",
  fallback: "#2f9e44",
};

/** The label shown on an edge: subagents show their mode at a glance. */
export function edgeLabel(edge: GraphEdge, graph: Graph): string {
  if (edge.kind !== "subagent")
    return edge.kind === "side" ? (edge.sourceHandle === "sideB" ? "B" : "A") : edge.kind;
  const entry = subagentEntry(edge, graph);
  const parts = [entry.blocking === false ? "non-blocking" : "blocking"];
  if (entry.resumable && typeof entry.resumable === "object") parts.push("resumable");
  if (entry.immediate) parts.push("immediate");
  return `subagent · ${parts.join(" · ")}`;
}

/** The object form of the tools entry a subagent edge stands for (a bare name reads as `{ name }`). */
export function subagentEntry(edge: GraphEdge, graph: Graph): Record<string, unknown> {
  const source = findNode(graph, edge.source);
  if (!source || source.type === "note" || edge.toolIndex === undefined) return {};
  const tools = source.data.definition.tools;
  const entry = Array.isArray(tools) ? tools[edge.toolIndex] : undefined;
  if (typeof entry === "string") return { name: entry };
  return entry && typeof entry === "object" ? (entry as Record<string, unknown>) : {};
}

export function toFlowEdges(
  graph: Graph,
  edges: GraphEdge[],
  counts: DiagnosticCounts,
  selection: StudioSelection,
): Edge[] {
  return edges.map((edge) => {
    const errors = counts.byEdge.get(edge.id) ?? 0;
    const color = errors > 0 ? "var(--danger)" : EDGE_COLORS[edge.kind];
    const dashed =
      edge.kind === "handoff" ||
      edge.kind === "include" ||
      (edge.kind === "subagent" && subagentEntry(edge, graph).blocking === false);
    const label = edgeLabel(edge, graph);
    return {
      id: edge.id,
      source: edge.source,
      target: edge.target,
      sourceHandle: edge.sourceHandle ?? null,
      label: errors > 0 ? `${label} (${errors} error${errors > 1 ? "s" : ""})` : label,
      selected: selection.edgeIds.includes(edge.id),
      className: `studio-edge-${edge.kind}${errors > 0 ? " studio-edge-error" : ""}`,
      style: {
        stroke: color,
        strokeWidth: edge.kind === "subagent" ? 2.5 : 1.5,
        strokeDasharray: dashed ? "6 4" : undefined,
      },
      labelStyle: { fill: color, fontSize: 11 },
      labelBgStyle: { fill: "var(--surface)" },
      markerEnd: { type: MarkerType.ArrowClosed, color },
      data: { kind: edge.kind },
    };
  });
}
