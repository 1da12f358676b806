// The document seen by React Flow: one flow node per graph node and one flow edge per derived edge,
// with error counts, run activity and selection baked in. Pure; the canvas only renders what this returns.
import { type Edge, MarkerType, type Node } from "@xyflow/react";
import type { Graph, GraphEdge, GraphNode } from "@/lib/graph";
import type { DiagnosticCounts } from "@/lib/studio/diagnostic-targets";
import { findNode } from "@/lib/studio/document-edits";
import { type EdgeMode, type EdgeText, edgeText } from "@/lib/studio/edge-labels";
import { INACTIVE, type NodeActivity } from "@/lib/studio/run-activity";
import type { AgentRunOverlay } from "@/lib/studio/run-overlay";
import type { StudioSelection } from "@/lib/studio/selection";

export type StudioNodeData = {
  graphNode: GraphNode;
  errorCount: number;
  warningCount: number;
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
    const warningCount = counts.warningsByNode.get(graphNode.id) ?? 0;
    const nodeActivity = activity.get(graphNode.id) ?? INACTIVE;
    const isSelected = selected.has(graphNode.id);
    const size = measured.get(graphNode.id);
    const kept = before.get(graphNode.id);
    if (
      kept &&
      kept.data.graphNode === graphNode &&
      kept.data.errorCount === errorCount &&
      kept.data.warningCount === warningCount &&
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
      data: { graphNode, errorCount, warningCount, activity: nodeActivity },
      selected: isSelected,
      measured: size,
    };
  });
}

const EDGE_COLORS: Record<GraphEdge["kind"], string> = {
  side: "var(--edge-plain)",
  tool: "var(--edge-plain)",
  subprompt: "var(--edge-plain)",
  subagent: "var(--edge-subagent)",
  handoff: "var(--edge-handoff)",
  model: "var(--edge-model)",
  include: "var(--edge-plain)",
  fallback: "var(--edge-model)",
};

/** Which labels get the best spots when the canvas is crowded: the modes of subagents first. */
export const EDGE_LABEL_PRIORITY: Record<GraphEdge["kind"], number> = {
  subagent: 0,
  handoff: 1,
  side: 2,
  model: 3,
  subprompt: 4,
  tool: 5,
  include: 6,
  fallback: 7,
};

/** The mode of a subagent edge, read from the tools entry it stands for. */
export function subagentMode(edge: GraphEdge, graph: Graph): EdgeMode {
  const entry = subagentEntry(edge, graph);
  const resumable =
    entry.resumable && typeof entry.resumable === "object"
      ? (entry.resumable as Record<string, unknown>)
      : null;
  return {
    blocking: entry.blocking !== false,
    resumable: resumable !== null,
    maxInstances: typeof resumable?.maxInstances === "number" ? resumable.maxInstances : undefined,
    immediate: Boolean(entry.immediate),
    optional: typeof entry.optional === "string" && entry.optional.length > 0,
  };
}

/** What an edge says: subagents show their mode, sides their letter, the rest their kind. */
export function edgeTexts(edge: GraphEdge, graph: Graph): EdgeText {
  if (edge.kind === "side") return edgeText("side", { side: edge.sourceHandle === "sideB" ? "B" : "A" });
  const text =
    edge.kind === "subagent"
      ? edgeText("subagent", { mode: subagentMode(edge, graph) })
      : edgeText(edge.kind);
  // A tools entry marked requiresApproval says so on its edge (docs/studio.md, "Approvals").
  return edge.toolIndex !== undefined && subagentEntry(edge, graph).requiresApproval === true
    ? { ...text, full: `${text.full} · needs approval` }
    : text;
}

/** The full label of an edge ("subagent · blocking · resumable ×3"). */
export function edgeLabel(edge: GraphEdge, graph: Graph): string {
  return edgeTexts(edge, graph).full;
}

export type StudioEdgeData = {
  kind: GraphEdge["kind"];
  text: EdgeText;
  errors: number;
  warnings: number;
};
export type StudioFlowEdge = Edge<StudioEdgeData, "studio">;

/** The object form of the tools entry a subagent edge stands for (a bare name reads as `{ name }`). */
export function subagentEntry(edge: GraphEdge, graph: Graph): Record<string, unknown> {
  const source = findNode(graph, edge.source);
  if (!source || source.type === "note" || edge.toolIndex === undefined) return {};
  const tools = source.data.definition.tools;
  const entry = Array.isArray(tools) ? tools[edge.toolIndex] : undefined;
  if (typeof entry === "string") return { name: entry };
  return entry && typeof entry === "object" ? (entry as Record<string, unknown>) : {};
}

/**
 * One flow edge per derived edge. Only the selected edges' ids are an input (not the whole
 * selection), so the canvas can keep the edge array while only the node selection changes: a new
 * array makes React Flow rebuild its edge lookups and re-render every edge in view, which on a
 * 300-node canvas was most of the task that picks a card up.
 */
export function toFlowEdges(
  graph: Graph,
  edges: GraphEdge[],
  counts: DiagnosticCounts,
  selectedEdgeIds: readonly string[],
): StudioFlowEdge[] {
  const selected = new Set(selectedEdgeIds);
  return edges.map((edge) => {
    const errors = counts.byEdge.get(edge.id) ?? 0;
    const warnings = counts.warningsByEdge.get(edge.id) ?? 0;
    const color = errors > 0 ? "var(--danger)" : EDGE_COLORS[edge.kind];
    const text = edgeTexts(edge, graph);
    const full =
      errors > 0
        ? `${text.full} (${errors} error${errors > 1 ? "s" : ""})`
        : warnings > 0
          ? `${text.full} (${warnings} warning${warnings > 1 ? "s" : ""})`
          : text.full;
    const dashed =
      edge.kind === "include" ||
      edge.kind === "fallback" ||
      (edge.kind === "subagent" && subagentMode(edge, graph).blocking === false);
    return {
      id: edge.id,
      type: "studio",
      source: edge.source,
      target: edge.target,
      sourceHandle: edge.sourceHandle ?? null,
      selected: selected.has(edge.id),
      ariaLabel: `${full} edge`,
      // What it connects, on the element too (the e2e checks of edges passing behind cards read it).
      // (data-* attributes are valid on any element; React Flow's type lists only named SVG ones.)
      domAttributes: {
        "data-source": edge.source,
        "data-target": edge.target,
      } as StudioFlowEdge["domAttributes"],
      className: `studio-edge-${edge.kind}${errors > 0 ? " studio-edge-error" : ""}`,
      interactionWidth: 16,
      style: {
        stroke: color,
        strokeWidth: edge.kind === "subagent" || edge.kind === "handoff" ? 2.25 : 1.5,
        // Handoffs: a long dash with a dot, unlike any subagent line.
        strokeDasharray: edge.kind === "handoff" ? "10 4 2 4" : dashed ? "6 4" : undefined,
      },
      markerEnd: { type: MarkerType.ArrowClosed, color, width: 16, height: 16 },
      data: { kind: edge.kind, text: { ...text, full }, errors, warnings },
    };
  });
}
