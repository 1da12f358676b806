// The shape of a canvas edge, shared by the line (components/studio/edges.tsx) and its label
// placement (edge-labels.ts), so a label always sits on its line. A forward edge (its target right
// of its source) is React Flow's bezier, unless that curve would pass behind a card (a column split
// in two by a packed layout puts cards between an edge's ends): it is then drawn as a rounded
// orthogonal route through the gaps between the cards (`forwardRoute`). A backward edge, as a
// wrapped layout makes (a callee placed in the next row, left of its caller), would be an S-shaped
// bezier looping across the cards in between; it is drawn as a rounded orthogonal route instead:
// out to the right, back along the gap under its source card (or halfway between its ends, when the
// card is not known), and into the target from its left. Pure.
import type { Box, Point } from "./edge-labels";

/**
 * How far a backward route runs out of its source and into its target before it turns. Short enough
 * that the stub beside the outermost card stays inside fit view's padding (6 % of the pane, about
 * 22 px at the narrowest canvas, against 16 flow units past a 5-unit handle at zoom 0.9).
 */
export const ROUTE_STUB = 16;
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

/** React Flow's bezier (curvature 0.25) from a right-hand source to a left-hand target. */
function controlOffset(distance: number): number {
  return distance >= 0 ? 0.5 * distance : 0.25 * 25 * Math.sqrt(-distance);
}

export function bezierPoint(source: Point, target: Point, t: number): Point {
  const offset = controlOffset(target.x - source.x);
  const c1 = { x: source.x + offset, y: source.y };
  const c2 = { x: target.x - offset, y: target.y };
  const u = 1 - t;
  const a = u * u * u;
  const b = 3 * u * u * t;
  const c = 3 * u * t * t;
  const d = t * t * t;
  return {
    x: a * source.x + b * c1.x + c * c2.x + d * target.x,
    y: a * source.y + b * c1.y + c * c2.y + d * target.y,
  };
}

/** Points along a forward bezier tested against the cards between its ends. */
const BEZIER_SAMPLES = 32;
/**
 * How far a forward route keeps from the cards it passes (the layout leaves 20 px between stacked
 * cards and 24 between split sub-columns: a run down such a gap keeps to its middle).
 */
const PASS_CLEARANCE = 6;
/**
 * Where a forward route's vertical runs go: this far out of its source, this far before its target
 * (the first that is clear: 12 is the middle of the 24 px between split sub-columns).
 */
const CHANNEL_OFFSETS = [12, ROUTE_STUB];
/** A horizontal run tried beside a card goes through the middle of the gap the layout leaves there. */
const GAP_MIDDLE = 10;

const inside = (point: Point, card: Box, margin: number) =>
  point.x > card.x - margin &&
  point.x < card.x + card.width + margin &&
  point.y > card.y - margin &&
  point.y < card.y + card.height + margin;

/** Whether a horizontal or vertical segment comes within `margin` of `card`. */
function segmentHits(from: Point, to: Point, card: Box, margin: number): boolean {
  const left = Math.min(from.x, to.x);
  const right = Math.max(from.x, to.x);
  const top = Math.min(from.y, to.y);
  const bottom = Math.max(from.y, to.y);
  return (
    left < card.x + card.width + margin &&
    right > card.x - margin &&
    top < card.y + card.height + margin &&
    bottom > card.y - margin
  );
}

/**
 * The corners of a forward edge's route when React Flow's bezier from `source` to `target` would
 * pass behind one of `cards` (the cards other than its own two); null when the bezier is clear, or
 * when no route below is (the bezier is drawn then). The route leaves the source to the right, runs
 * vertically in the gap beside it, horizontally at the level of the target or through a gap between
 * the cards in the way, vertically again in the gap before the target, and into the target from its
 * left: of the routes clear of every card, the one with the least vertical travel.
 */
export function forwardRoute(source: Point, target: Point, cards: readonly Box[]): Point[] | null {
  if (target.x - source.x < 2 * ROUTE_STUB) return null;
  const top = Math.min(source.y, target.y);
  const bottom = Math.max(source.y, target.y);
  // Only a card between the ends (and within their vertical span) can be behind the curve.
  const between = cards.filter(
    (card) =>
      card.x < target.x && card.x + card.width > source.x && card.y < bottom && card.y + card.height > top,
  );
  if (between.length === 0) return null;
  let crossed = false;
  for (let sample = 1; sample < BEZIER_SAMPLES && !crossed; sample += 1) {
    const point = bezierPoint(source, target, sample / BEZIER_SAMPLES);
    crossed = between.some((card) => inside(point, card, 0));
  }
  if (!crossed) return null;
  // Horizontal runs to try: level with the target, with the source, and through the middle of the
  // gap above and below every card between the ends.
  const levels = new Set<number>([target.y, source.y]);
  for (const card of cards) {
    if (card.x >= target.x || card.x + card.width <= source.x) continue;
    levels.add(card.y - GAP_MIDDLE);
    levels.add(card.y + card.height + GAP_MIDDLE);
  }
  const travel = (y: number) => Math.abs(y - source.y) + Math.abs(y - target.y);
  const ordered = [...levels].sort(
    (a, b) => travel(a) - travel(b) || Math.abs(a - target.y) - Math.abs(b - target.y),
  );
  const clear = (from: Point, to: Point) =>
    !cards.some((card) => segmentHits(from, to, card, PASS_CLEARANCE));
  for (const y of ordered) {
    for (const out of CHANNEL_OFFSETS) {
      for (const before of CHANNEL_OFFSETS) {
        const left = source.x + out;
        const right = target.x - before;
        if (right <= left) continue;
        const route = [
          source,
          { x: left, y: source.y },
          { x: left, y },
          { x: right, y },
          { x: right, y: target.y },
          target,
        ];
        let ok = true;
        for (let index = 1; index < route.length - 2 && ok; index += 1)
          ok = clear(route[index]!, route[index + 1]!);
        if (ok) return route;
      }
    }
  }
  return null;
}
