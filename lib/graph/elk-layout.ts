// The auto layout: ELK's layered algorithm (elkjs) with fixed ports, so an agent's side A and side B
// leave from their own rows and callees sit right of their callers. Building the ELK graph and
// reading positions back are pure; `layoutWithElk` runs ELK (async, no worker needed) and is the
// only impure step. The bundled ELK (~1.6 MB) is loaded on first use, never at page load.
// The layout packs for the room it is given (the canvas pane at the smallest legible zoom): when the
// layers side by side do not fit the room, ELK wraps them into rows, and when that does not fit
// either, its columns are re-packed (pack-layout.ts: rows, tall columns split); the first of these
// that fits wins, else the one fit view shows most of. Agents keep room above them for their run
// badge (BADGE_ROOM_ABOVE_AGENT): ELK sees each agent that much taller at the top.
import type { ELK, ElkExtendedEdge, ElkNode, LayoutOptions } from "elkjs/lib/elk-api";
import type { Bundle } from "@/lib/standard";
import { BADGE_ROOM_ABOVE_AGENT, cardPorts, cardSize, type PortSide } from "./card-geometry";
import { decompileBundle } from "./decompile";
import { definitionName, type Graph, type GraphNode, isDefinitionNode } from "./document";
import { deriveEdges, type GraphEdge } from "./edges";
import { DEFAULT_CANVAS_PANE, graphBounds, layoutRoomFor, type Size } from "./fit-viewport";
import { packLayers } from "./pack-layout";

export const LAYER_GAP = 46;
export const NODE_GAP = 20;

/** Layered, left to right, packed tight: spacing leaves room for a compact edge badge, no more. */
export const ELK_LAYOUT_OPTIONS: LayoutOptions = {
  "elk.algorithm": "layered",
  "elk.direction": "RIGHT",
  "elk.layered.spacing.nodeNodeBetweenLayers": String(LAYER_GAP),
  "elk.spacing.nodeNode": String(NODE_GAP),
  "elk.spacing.edgeNode": "12",
  "elk.spacing.componentComponent": String(LAYER_GAP),
  "elk.layered.nodePlacement.strategy": "NETWORK_SIMPLEX",
  "elk.layered.considerModelOrder.strategy": "NODES_AND_EDGES",
  "elk.layered.crossingMinimization.forceNodeModelOrder": "false",
  "elk.separateConnectedComponents": "true",
  "elk.aspectRatio": "2.2",
};

function portId(nodeId: string, side: PortSide): string {
  return `${nodeId}::${side}`;
}

/**
 * The edges that order the layers. An included prompt (a style guide) is a part of the prompts that
 * include it, not a caller: it sits one column right of them, and its own edges (its model) do not
 * push another column, which keeps the largest template legible at fit view.
 */
export function layeringEdges(edges: readonly GraphEdge[]): GraphEdge[] {
  const included = new Set(edges.filter((edge) => edge.kind === "include").map((edge) => edge.target));
  return edges.filter((edge) => edge.kind === "include" || !included.has(edge.source));
}

/** The space ELK keeps above a card (its box is that much taller): an agent's run badge hangs there. */
export function reservedAbove(node: GraphNode): number {
  return node.type === "agent" ? BADGE_ROOM_ABOVE_AGENT - NODE_GAP : 0;
}

/**
 * The ELK input for `graph`: every node with its card size (an agent's with room above it for its
 * run badge) and fixed ports, every edge port to port.
 */
export function toElkGraph(graph: Graph, edges: readonly GraphEdge[]): ElkNode {
  const ids = new Set(graph.nodes.map((node) => node.id));
  const children: ElkNode[] = graph.nodes.map((node) => ({
    id: node.id,
    width: cardSize(node).width,
    height: cardSize(node).height + reservedAbove(node),
    layoutOptions: { "elk.portConstraints": "FIXED_POS" },
    ports: cardPorts(node).map((port) => ({
      id: portId(node.id, port.id),
      x: port.x,
      y: port.y + reservedAbove(node),
      width: 0,
      height: 0,
      layoutOptions: { "elk.port.side": port.id === "in" ? "WEST" : "EAST" },
    })),
  }));
  const elkEdges: ElkExtendedEdge[] = layeringEdges(edges)
    .filter((edge) => edge.source !== edge.target && ids.has(edge.source) && ids.has(edge.target))
    .map((edge) => ({
      id: edge.id,
      sources: [portId(edge.source, edge.sourceHandle ?? "out")],
      targets: [portId(edge.target, "in")],
    }));
  return { id: "root", layoutOptions: ELK_LAYOUT_OPTIONS, children, edges: elkEdges };
}

/**
 * The graph with every node moved to where ELK put it (below the room reserved above it; rounded,
 * shifted so the top-left card is at 0,0).
 */
export function applyElkPositions(graph: Graph, laidOut: ElkNode): Graph {
  const byId = new Map(graph.nodes.map((node) => [node.id, node]));
  const positions = new Map<string, { x: number; y: number }>();
  for (const child of laidOut.children ?? []) {
    const node = byId.get(child.id);
    const above = node ? reservedAbove(node) : 0;
    positions.set(child.id, { x: child.x ?? 0, y: (child.y ?? 0) + above });
  }
  const xs = [...positions.values()].map((point) => point.x);
  const ys = [...positions.values()].map((point) => point.y);
  const left = xs.length ? Math.min(...xs) : 0;
  const top = ys.length ? Math.min(...ys) : 0;
  const nodes: GraphNode[] = graph.nodes.map((node) => {
    const at = positions.get(node.id);
    return at ? { ...node, position: { x: Math.round(at.x - left), y: Math.round(at.y - top) } } : node;
  });
  return { ...graph, nodes };
}

let elkInstance: Promise<ELK> | undefined;

/** One ELK per process/tab, loaded on first use (the bundled build runs in-thread, in Node and browsers). */
export function loadElk(): Promise<ELK> {
  elkInstance ??= import("elkjs/lib/elk.bundled.js").then(
    ({ default: ElkConstructor }) => new ElkConstructor(),
  );
  return elkInstance;
}

/** The room a layout aims for when no canvas is at hand: the studio's default pane at 1440×900. */
export const DEFAULT_LAYOUT_ROOM: Size = layoutRoomFor(DEFAULT_CANVAS_PANE);

function graphExtent(graph: Graph): Size {
  const bounds = graphBounds(graph.nodes);
  return bounds ? { width: bounds.width, height: bounds.height } : { width: 0, height: 0 };
}

/** The share of `extent` that fit view can show in `room` (1 when it fits whole). */
export function shownShare(extent: Size, room: Size): number {
  return Math.min(1, room.width / Math.max(1, extent.width), room.height / Math.max(1, extent.height));
}

/**
 * ELK's options with its layers wrapped into rows ("MULTI_EDGE": an edge crossing a cut runs back to
 * the start of the next row), aiming for the room's aspect ratio.
 */
export function wrappedLayoutOptions(room: Size): LayoutOptions {
  return {
    ...ELK_LAYOUT_OPTIONS,
    "elk.layered.wrapping.strategy": "MULTI_EDGE",
    "elk.aspectRatio": (room.width / Math.max(1, room.height)).toFixed(2),
  };
}

/**
 * The layout to keep: the plain one when it fits the room; else the first alternative (ELK's wrapped
 * layout, then the re-packed one) that fits; else the alternative fit view shows the largest share
 * of, when that is clearly more (5 %) than the plain one's: a wrap costs readability (its edges run
 * back across the canvas); otherwise fit view shows the plain layout from its entry.
 */
export function chooseLayout(
  plain: Graph,
  alternatives: readonly (Graph | null | undefined)[],
  room: Size,
): Graph {
  const plainShare = shownShare(graphExtent(plain), room);
  if (plainShare >= 1) return plain;
  const candidates = alternatives.filter((graph): graph is Graph => Boolean(graph));
  const shares = candidates.map((graph) => shownShare(graphExtent(graph), room));
  const fitting = shares.findIndex((share) => share >= 1);
  if (fitting >= 0) return candidates[fitting]!;
  let best = -1;
  for (const [index, share] of shares.entries()) if (best < 0 || share > shares[best]!) best = index;
  return best >= 0 && shares[best]! >= plainShare * 1.05 ? candidates[best]! : plain;
}

/** Every node of `graph` laid out again along `edges` by ELK, packed for `room` (flow units). */
export async function layoutWithElk(
  graph: Graph,
  edges: readonly GraphEdge[],
  room: Size = DEFAULT_LAYOUT_ROOM,
): Promise<Graph> {
  if (graph.nodes.length === 0) return graph;
  const elk = await loadElk();
  const plain = applyElkPositions(graph, await elk.layout(toElkGraph(graph, edges)));
  if (shownShare(graphExtent(plain), room) >= 1) return plain;
  const wrapped = applyElkPositions(
    graph,
    await elk.layout({ ...toElkGraph(graph, edges), layoutOptions: wrappedLayoutOptions(room) }),
  );
  if (shownShare(graphExtent(wrapped), room) >= 1) return wrapped;
  return chooseLayout(plain, [wrapped, packLayers(plain, room, { layer: LAYER_GAP, node: NODE_GAP })], room);
}

/** The whole canvas laid out again by ELK along its derived edges ("Auto layout"), packed for `room`. */
export function autoLayoutGraph(graph: Graph, room?: Size): Promise<Graph> {
  return layoutWithElk(graph, deriveEdges(graph), room);
}

/**
 * decompileBundle, then ELK for a canvas made from scratch (templates, imports, definitions sent
 * without a graph). When a previous graph is given, kept nodes stay where the user put them and
 * the few new ones get decompile's synchronous placement.
 */
export async function decompileBundleLaidOut(bundle: Bundle, previous?: Graph, room?: Size): Promise<Graph> {
  const graph = decompileBundle(bundle, previous);
  const kept = new Set(
    (previous?.nodes ?? []).filter(isDefinitionNode).map((node) => `${node.type}:${definitionName(node)}`),
  );
  const anyKept = graph.nodes.some(
    (node) => isDefinitionNode(node) && kept.has(`${node.type}:${definitionName(node)}`),
  );
  return anyKept ? graph : autoLayoutGraph(graph, room);
}
