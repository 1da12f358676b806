// Deleting a selection of nodes and edges as one document change. Edges are derived from
// references, so deleting an edge removes its reference, and deleting a node also removes the
// references other nodes made to it: what disappears from the canvas disappears from the definitions.
import { deriveEdges, type Graph, type GraphEdge } from "@/lib/graph";
import { disconnect, removeNodes } from "./document-edits";
import type { StudioSelection } from "./selection";

/** The edges a deletion cuts: the selected ones, and those into removed nodes from nodes that stay. */
function edgesToCut(edges: readonly GraphEdge[], selection: StudioSelection): GraphEdge[] {
  const removedNodes = new Set(selection.nodeIds);
  const selectedEdges = new Set(selection.edgeIds);
  return edges.filter(
    (edge) => !removedNodes.has(edge.source) && (selectedEdges.has(edge.id) || removedNodes.has(edge.target)),
  );
}

export function deleteSelection(graph: Graph, selection: StudioSelection): Graph {
  // Tool entries are removed by index: the highest index first keeps the lower ones valid.
  const cut = edgesToCut(deriveEdges(graph), selection).sort(
    (a, b) => (b.toolIndex ?? -1) - (a.toolIndex ?? -1),
  );
  const disconnected = cut.reduce(disconnect, graph);
  const removed = new Set(selection.nodeIds);
  if (!graph.nodes.some((node) => removed.has(node.id))) return disconnected;
  return removeNodes(disconnected, removed);
}
