// The synchronous layout, for the few nodes that appear while editing definitions (applied code):
// a simple layered placement along the derived edges — agents left, then their prompts, then tools,
// sub-agents and models. Whole canvases (templates, imports, "Auto layout") are laid out by ELK
// instead (elk-layout.ts). Deterministic, so the same bundle always lays out the same way.
import { BADGE_ROOM_ABOVE_AGENT, CARD, cardSize } from "./card-geometry";
import type { Graph, GraphNode } from "./document";
import type { GraphEdge } from "./edges";

export const LAYOUT_COLUMN_WIDTH = Math.max(...Object.values(CARD.width)) + 56;
export const LAYOUT_ROW_GAP = 24;

/** Rank = length of the longest edge path reaching the node (cycles are cut), so callees sit right of callers. */
function rankNodes(nodes: GraphNode[], edges: GraphEdge[]): Map<string, number> {
  const outgoing = new Map<string, string[]>();
  for (const edge of edges) {
    if (edge.source === edge.target) continue;
    outgoing.set(edge.source, [...(outgoing.get(edge.source) ?? []), edge.target]);
  }
  const rank = new Map<string, number>(nodes.map((node) => [node.id, 0]));
  const limit = nodes.length;
  // Bellman-Ford style relaxation bounded by the node count: terminates on cycles.
  for (let round = 0; round < limit; round++) {
    let changed = false;
    for (const [source, targets] of outgoing) {
      const next = (rank.get(source) ?? 0) + 1;
      for (const target of targets) {
        if (next > (rank.get(target) ?? 0) && next < limit) {
          rank.set(target, next);
          changed = true;
        }
      }
    }
    if (!changed) break;
  }
  return rank;
}

/** Places every node whose id is in `toPlace` (default: all), keeping the others where they are. */
export function layoutGraph(graph: Graph, edges: GraphEdge[], toPlace?: ReadonlySet<string>): Graph {
  const rank = rankNodes(graph.nodes, edges);
  const nextY = new Map<number, number>();
  const nodes = graph.nodes.map((node) => {
    if (toPlace && !toPlace.has(node.id)) return node;
    const column = node.type === "note" ? -1 : (rank.get(node.id) ?? 0);
    const below = nextY.get(column);
    // An agent's run badge hangs above it: more room there than between other cards.
    const y =
      below === undefined ? 0 : below + (node.type === "agent" ? BADGE_ROOM_ABOVE_AGENT - LAYOUT_ROW_GAP : 0);
    nextY.set(column, y + (node.height ?? cardSize(node).height) + LAYOUT_ROW_GAP);
    return { ...node, position: { x: column * LAYOUT_COLUMN_WIDTH, y } };
  });
  return { ...graph, nodes };
}
