// The shape of a canvas edge, shared by the line (components/studio/edges.tsx) and its label
// placement (edge-labels.ts), so a label always sits on its line. A forward edge (its target right
// of its source) is React Flow's bezier. A backward edge, as a wrapped layout makes (a callee placed
// in the next row, left of its caller), would be an S-shaped bezier looping across the cards in
// between; it is drawn as a rounded orthogonal route instead: out to the right, back along the gap
// under its source card (or halfway between its ends, when the card is not known), and into the
// target from its left. Pure.
import type { Box, Point } from "./edge-labels";

/** How far a backward route runs out of its source and into its target before it turns. */
export const ROUTE_STUB = 20;
const CORNER_RADIUS = 8;
/** Ends closer than this vertically route below both instead of between them. */
const SAME_ROW = 24;
const BELOW_SAME_ROW = 60;

/** Whether the edge runs backwards: its target's left side is left of its source's right side. */
export function isBackward(source: Point, target: Point): boolean {
  return target.x < source.x;
}

/** Half the layout's gap between stacked cards (elk-layout NODE_GAP): the middle of that gap. */
const RUN_BACK_GAP = 10;

/**
 * Where a backward edge from a card whose bottom is at `sourceBottom` runs back: just under it, and
 * further down past any of `cards` (the other cards) that the run from `source` back to `target`
 * would cross — a taller card beside the source, say.
 */
export function runBackY(
  sourceBottom: number,
  source?: Point,
  target?: Point,
  cards: readonly Box[] = [],
): number {
  let y = sourceBottom + RUN_BACK_GAP;
  if (!source || !target) return y;
  const left = target.x - ROUTE_STUB;
  const right = source.x + ROUTE_STUB;
  const across = cards.filter((card) => card.x < right && card.x + card.width > left);
  // Each pass moves below one card the run crossed; a card it now crosses is found by the next.
  for (let pass = 0; pass <= across.length; pass += 1) {
    const crossed = across.find(
      (card) => y > card.y - RUN_BACK_GAP && y < card.y + card.height + RUN_BACK_GAP,
    );
    if (!crossed) break;
    y = crossed.y + crossed.height + RUN_BACK_GAP;
  }
  return y;
}

/**
 * The corners of a backward edge's route, source to target; `runY` is where it runs back (see
 * runBackY), halfway between the ends when not given.
 */
export function backwardRoute(source: Point, target: Point, runY?: number): Point[] {
  const right = source.x + ROUTE_STUB;
  const left = target.x - ROUTE_STUB;
  const middle =
    runY ??
    (Math.abs(target.y - source.y) < SAME_ROW
      ? Math.max(source.y, target.y) + BELOW_SAME_ROW
      : (source.y + target.y) / 2);
  return [
    source,
    { x: right, y: source.y },
    { x: right, y: middle },
    { x: left, y: middle },
    { x: left, y: target.y },
    target,
  ];
}

/** An SVG path through `points` with rounded corners. */
export function roundedPath(points: readonly Point[], radius = CORNER_RADIUS): string {
  const [first, ...rest] = points;
  if (!first) return "";
  let path = `M ${first.x} ${first.y}`;
  for (let index = 0; index < rest.length; index += 1) {
    const corner = rest[index]!;
    const next = rest[index + 1];
    if (!next) {
      path += ` L ${corner.x} ${corner.y}`;
      break;
    }
    const previous = index === 0 ? first : rest[index - 1]!;
    const inLength = Math.hypot(corner.x - previous.x, corner.y - previous.y);
    const outLength = Math.hypot(next.x - corner.x, next.y - corner.y);
    const r = Math.min(radius, inLength / 2, outLength / 2);
    if (r <= 0) {
      path += ` L ${corner.x} ${corner.y}`;
      continue;
    }
    const before = {
      x: corner.x - ((corner.x - previous.x) / inLength) * r,
      y: corner.y - ((corner.y - previous.y) / inLength) * r,
    };
    const after = {
      x: corner.x + ((next.x - corner.x) / outLength) * r,
      y: corner.y + ((next.y - corner.y) / outLength) * r,
    };
    path += ` L ${before.x} ${before.y} Q ${corner.x} ${corner.y} ${after.x} ${after.y}`;
  }
  return path;
}

/** The point a fraction `t` (0 to 1) of the way along a polyline, by length. */
export function pointAlong(points: readonly Point[], t: number): Point {
  const lengths = points.slice(1).map((point, index) => {
    const previous = points[index]!;
    return Math.hypot(point.x - previous.x, point.y - previous.y);
  });
  const total = lengths.reduce((sum, length) => sum + length, 0);
  let remaining = Math.min(1, Math.max(0, t)) * total;
  for (const [index, length] of lengths.entries()) {
    if (remaining <= length && length > 0) {
      const from = points[index]!;
      const to = points[index + 1]!;
      return {
        x: from.x + ((to.x - from.x) * remaining) / length,
        y: from.y + ((to.y - from.y) * remaining) / length,
      };
    }
    remaining -= length;
  }
  return points[points.length - 1] ?? { x: 0, y: 0 };
}
