// Where a new node lands: inside the part of the canvas the user sees (the centre of the view,
// moved to free space so it never sits on an existing node), or under the pointer when dropped from
// the palette. Pure; positions and rectangles are in flow coordinates.
import type { Graph, GraphNode } from "@/lib/graph";
import { cardSize } from "@/lib/graph";

export interface Point {
  x: number;
  y: number;
}

export interface Rect extends Point {
  width: number;
  height: number;
}

/** The size assumed for a node not measured yet (a new node's card at its narrowest is ~180 × 90). */
export const NEW_NODE_SIZE = { width: 220, height: 110 };
/** Free space kept around a new node. */
const PLACEMENT_GAP = 16;
/** Where the pointer sits on a dropped node: over its header, a little in from the left. */
export const DROP_ANCHOR: Point = { x: 40, y: 16 };
/** Rings of candidate positions tried around the centre before falling back to a cascade. */
const RINGS = 12;

type Size = { width: number; height: number };
export type NodeSizes = (nodeId: string) => Size | undefined;

function boxOf(node: GraphNode, sizes: NodeSizes | undefined): Rect {
  // Not measured yet: the size its card will have (lib/graph/card-geometry).
  const card = cardSize(node);
  const size = sizes?.(node.id) ?? { width: node.width ?? card.width, height: node.height ?? card.height };
  return { ...node.position, ...size };
}

function intersects(a: Rect, b: Rect, gap: number): boolean {
  return (
    a.x < b.x + b.width + gap &&
    b.x < a.x + a.width + gap &&
    a.y < b.y + b.height + gap &&
    b.y < a.y + a.height + gap
  );
}

function inside(box: Rect, view: Rect): boolean {
  return (
    box.x >= view.x &&
    box.y >= view.y &&
    box.x + box.width <= view.x + view.width &&
    box.y + box.height <= view.y + view.height
  );
}

/**
 * The top-left corner for a new node of `size` in `view`: the centre of the view when that is free,
 * else the nearest free spot on rings around it that still lies inside the view. When the view is
 * full, the centre moved diagonally until no node has exactly that position, so it never hides one.
 */
export function placeInView(graph: Graph, view: Rect, sizes?: NodeSizes, size: Size = NEW_NODE_SIZE): Point {
  const boxes = graph.nodes.map((node) => boxOf(node, sizes));
  const centre = {
    x: Math.round(view.x + (view.width - size.width) / 2),
    y: Math.round(view.y + (view.height - size.height) / 2),
  };
  const free = (at: Point) => !boxes.some((box) => intersects({ ...at, ...size }, box, PLACEMENT_GAP));
  if (free(centre)) return centre;
  const stepX = size.width / 2 + PLACEMENT_GAP;
  const stepY = size.height / 2 + PLACEMENT_GAP;
  for (let ring = 1; ring <= RINGS; ring++) {
    const candidates: Point[] = [];
    for (let dx = -ring; dx <= ring; dx++) {
      for (let dy = -ring; dy <= ring; dy++) {
        if (Math.max(Math.abs(dx), Math.abs(dy)) !== ring) continue;
        candidates.push({ x: Math.round(centre.x + dx * stepX), y: Math.round(centre.y + dy * stepY) });
      }
    }
    // Nearest to the centre first, so the node lands as close to the middle of the view as it can.
    candidates.sort((a, b) => distance(a, centre) - distance(b, centre));
    const found = candidates.find((at) => inside({ ...at, ...size }, view) && free(at));
    if (found) return found;
  }
  const taken = new Set(graph.nodes.map((node) => `${node.position.x},${node.position.y}`));
  let at = centre;
  for (let step = 1; taken.has(`${at.x},${at.y}`); step++) {
    at = { x: centre.x + step * 24, y: centre.y + step * 24 };
  }
  return at;
}

function distance(a: Point, b: Point): number {
  return Math.hypot(a.x - b.x, a.y - b.y);
}

/** The top-left corner of a node dropped at `point`: the pointer ends up over the node's header. */
export function dropPosition(point: Point): Point {
  return { x: Math.round(point.x - DROP_ANCHOR.x), y: Math.round(point.y - DROP_ANCHOR.y) };
}
