// Whole-document changes: replace the document with a bundle (a template or applied code), lay it
// out again (ELK, async), and find free space for a new node. The store records each as one undo step.

import {
  autoLayoutGraph,
  decompileBundle,
  decompileBundleLaidOut,
  type Graph,
  type GraphNode,
  type Size,
} from "@/lib/graph";
import type { Bundle } from "@/lib/standard";

export const NODE_FOOTPRINT = { width: 260, height: 180 };
const GAP = 40;

/** A fresh document for `bundle`, placed by the quick synchronous layout (tests, previews). */
export function documentFromBundle(bundle: Bundle): Graph {
  return decompileBundle(bundle);
}

/**
 * A fresh document for `bundle` (templates): every node laid out by ELK, nothing kept from before,
 * packed for `room` (the canvas at the smallest legible zoom, flow units).
 */
export function laidOutDocumentFromBundle(bundle: Bundle, room?: Size): Promise<Graph> {
  return decompileBundleLaidOut(bundle, undefined, room);
}

/** The document for edited definitions: nodes whose kind and name still exist keep id and position, notes stay. */
export function documentFromEditedBundle(previous: Graph, bundle: Bundle): Graph {
  return decompileBundle(bundle, previous);
}

/** Every node laid out again along the derived edges, by ELK, packed for `room` (flow units). */
export function autoLayout(graph: Graph, room?: Size): Promise<Graph> {
  return autoLayoutGraph(graph, room);
}

type Point = { x: number; y: number };

function footprint(node: GraphNode) {
  return {
    width: node.width ?? NODE_FOOTPRINT.width,
    height: node.height ?? NODE_FOOTPRINT.height,
  };
}

function overlaps(graph: Graph, at: Point): boolean {
  return graph.nodes.some((node) => {
    const size = footprint(node);
    return (
      at.x < node.position.x + size.width + GAP &&
      node.position.x < at.x + NODE_FOOTPRINT.width + GAP &&
      at.y < node.position.y + size.height + GAP &&
      node.position.y < at.y + NODE_FOOTPRINT.height + GAP
    );
  });
}

/**
 * Where a new node goes: right of the selected node (moving down until free), or else the first
 * free cell of a grid scanned row by row. Never on top of an existing node.
 */
export function placeNewNode(graph: Graph, nearNodeId?: string | null): Point {
  const near = nearNodeId ? graph.nodes.find((node) => node.id === nearNodeId) : undefined;
  if (near) {
    const x = near.position.x + footprint(near).width + GAP * 2;
    for (let row = 0; row < 200; row++) {
      const at = { x, y: near.position.y + row * (NODE_FOOTPRINT.height / 2) };
      if (!overlaps(graph, at)) return at;
    }
  }
  const columnWidth = NODE_FOOTPRINT.width + GAP;
  const rowHeight = NODE_FOOTPRINT.height + GAP;
  for (let cell = 0; ; cell++) {
    const at = { x: 40 + (cell % 4) * columnWidth, y: 40 + Math.floor(cell / 4) * rowHeight };
    if (!overlaps(graph, at)) return at;
  }
}
