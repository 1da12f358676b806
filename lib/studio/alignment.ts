// Align and distribute selected nodes: the boxes' new top-left corners for "align left / centre /
// right / top / middle / bottom" (two or more nodes) and "distribute horizontally / vertically"
// (three or more: the outer nodes stay, the gaps between neighbours become equal). Pure.
import type { Graph } from "@/lib/graph";
import { moveNodes } from "./document-edits";
import type { Point, Rect } from "./placement";

export type Alignment = "left" | "centre" | "right" | "top" | "middle" | "bottom";
export type DistributionAxis = "horizontal" | "vertical";

export interface NodeBox extends Rect {
  id: string;
}

export const MIN_TO_ALIGN = 2;
export const MIN_TO_DISTRIBUTE = 3;

/** New positions of the boxes that move; empty when fewer than two boxes are given. */
export function alignBoxes(boxes: readonly NodeBox[], alignment: Alignment): Map<string, Point> {
  const moved = new Map<string, Point>();
  if (boxes.length < MIN_TO_ALIGN) return moved;
  const left = Math.min(...boxes.map((box) => box.x));
  const right = Math.max(...boxes.map((box) => box.x + box.width));
  const top = Math.min(...boxes.map((box) => box.y));
  const bottom = Math.max(...boxes.map((box) => box.y + box.height));
  for (const box of boxes) {
    const at: Point = { x: box.x, y: box.y };
    switch (alignment) {
      case "left":
        at.x = left;
        break;
      case "centre":
        at.x = (left + right) / 2 - box.width / 2;
        break;
      case "right":
        at.x = right - box.width;
        break;
      case "top":
        at.y = top;
        break;
      case "middle":
        at.y = (top + bottom) / 2 - box.height / 2;
        break;
      case "bottom":
        at.y = bottom - box.height;
        break;
    }
    at.x = Math.round(at.x);
    at.y = Math.round(at.y);
    if (at.x !== box.x || at.y !== box.y) moved.set(box.id, at);
  }
  return moved;
}

/**
 * New positions that make the gaps between neighbours (ordered along `axis`) equal, keeping the
 * first and the last box where they are; empty when fewer than three boxes are given.
 */
export function distributeBoxes(boxes: readonly NodeBox[], axis: DistributionAxis): Map<string, Point> {
  const moved = new Map<string, Point>();
  if (boxes.length < MIN_TO_DISTRIBUTE) return moved;
  const start = (box: NodeBox) => (axis === "horizontal" ? box.x : box.y);
  const length = (box: NodeBox) => (axis === "horizontal" ? box.width : box.height);
  const ordered = [...boxes].sort((a, b) => start(a) - start(b) || a.id.localeCompare(b.id));
  const first = ordered[0] as NodeBox;
  const last = ordered.at(-1) as NodeBox;
  const span = start(last) + length(last) - start(first);
  const occupied = ordered.reduce((sum, box) => sum + length(box), 0);
  const gap = (span - occupied) / (ordered.length - 1);
  let cursor = start(first);
  for (const box of ordered) {
    const position = Math.round(cursor);
    if (position !== start(box)) {
      moved.set(box.id, axis === "horizontal" ? { x: position, y: box.y } : { x: box.x, y: position });
    }
    cursor += length(box) + gap;
  }
  return moved;
}

export type Arrangement =
  | { kind: "align"; alignment: Alignment }
  | { kind: "distribute"; axis: DistributionAxis };

/** The document with the boxes' nodes arranged; the same document when nothing moves (no undo step). */
export function arrangeNodes(graph: Graph, boxes: readonly NodeBox[], arrangement: Arrangement): Graph {
  const moved =
    arrangement.kind === "align"
      ? alignBoxes(boxes, arrangement.alignment)
      : distributeBoxes(boxes, arrangement.axis);
  return moved.size ? moveNodes(graph, moved) : graph;
}
