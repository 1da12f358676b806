// Edge labels on the canvas: what each edge says (a full text, and a compact badge for the edges
// whose mode matters at a glance), and where each label goes so that no label covers a node or
// another label. Placement walks each edge's curve from its middle outwards and takes the first
// free spot; a label with no free spot is not drawn (hover or select the edge to read it). Pure.
import { backwardRoute, bezierPoint, isBackward, pointAlong, ROUTE_STUB } from "./edge-route";

export { bezierPoint };

export type EdgeLabelKind =
  | "side"
  | "tool"
  | "subprompt"
  | "subagent"
  | "handoff"
  | "model"
  | "include"
  | "fallback";

export interface EdgeMode {
  blocking: boolean;
  resumable: boolean;
  maxInstances?: number;
  immediate: boolean;
  optional: boolean;
}

/** A compact badge drawn as an icon (and a count): resumable ×maxInstances, immediate, optional. */
export interface EdgeBadge {
  kind: "resumable" | "immediate" | "optional";
  count?: number;
}

export interface EdgeText {
  /** Always available: tooltip, aria-label, and the label when there is room and zoom enough. */
  full: string;
  /** Shown when crowded or zoomed out (as icons); empty: the line style and colour say enough. */
  badges: EdgeBadge[];
}

function resumableText(mode: EdgeMode): string {
  return mode.maxInstances === undefined ? "resumable" : `resumable ×${mode.maxInstances}`;
}

/** The words of an edge: "subagent · blocking · resumable ×3", "tool", "side A"… */
export function edgeText(kind: EdgeLabelKind, options: { side?: "A" | "B"; mode?: EdgeMode } = {}): EdgeText {
  if (kind === "subagent") {
    const mode = options.mode ?? { blocking: true, resumable: false, immediate: false, optional: false };
    const flags = [
      ...(mode.resumable ? [resumableText(mode)] : []),
      ...(mode.immediate ? ["immediate"] : []),
      ...(mode.optional ? ["optional"] : []),
    ];
    const badges: EdgeBadge[] = [
      ...(mode.resumable ? [{ kind: "resumable" as const, count: mode.maxInstances }] : []),
      ...(mode.immediate ? [{ kind: "immediate" as const }] : []),
      ...(mode.optional ? [{ kind: "optional" as const }] : []),
    ];
    return { full: ["subagent", mode.blocking ? "blocking" : "non-blocking", ...flags].join(" · "), badges };
  }
  if (kind === "side") return { full: `side ${options.side ?? "A"}`, badges: [] };
  if (kind === "subprompt") return { full: "sub-prompt", badges: [] };
  return { full: kind, badges: [] };
}

/** Labels are 12 px text in a padded pill; the width is a generous estimate, used as the box width. */
export const LABEL_FONT_PX = 12;
export const LABEL_HEIGHT = 20;
const CHAR_WIDTH = 6.9;
const LABEL_PADDING_X = 16;

export function labelSize(text: string): { width: number; height: number } {
  return { width: Math.ceil(text.length * CHAR_WIDTH + LABEL_PADDING_X), height: LABEL_HEIGHT };
}

/** Badge pills: a 12 px icon each, its count, 3 px between, 6 px padding each side. */
export const BADGE_ICON_PX = 12;
export function badgesSize(badges: readonly EdgeBadge[]): { width: number; height: number } {
  const content = badges.reduce(
    (sum, badge) =>
      sum + BADGE_ICON_PX + (badge.count === undefined ? 0 : 1 + String(badge.count).length * CHAR_WIDTH),
    0,
  );
  return { width: Math.ceil(content + 3 * Math.max(0, badges.length - 1) + 12), height: LABEL_HEIGHT };
}

export interface Point {
  x: number;
  y: number;
}
export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * The point a fraction `t` of the way along the edge's line: bezier, forward route (`forward`, when
 * the bezier would pass behind a card) or backward route (edge-route.ts, `runY` where a backward
 * edge runs back).
 */
export function edgePoint(
  source: Point,
  target: Point,
  t: number,
  runY?: number,
  forward?: readonly Point[],
): Point {
  if (isBackward(source, target)) return pointAlong(backwardRoute(source, target, runY), t);
  return forward ? pointAlong(forward, t) : bezierPoint(source, target, t);
}

export function boxesIntersect(a: Box, b: Box, margin = 0): boolean {
  return (
    a.x < b.x + b.width + margin &&
    b.x < a.x + a.width + margin &&
    a.y < b.y + b.height + margin &&
    b.y < a.y + a.height + margin
  );
}

export interface LabelRequest {
  id: string;
  source: Point;
  target: Point;
  text: EdgeText;
  /** Lower goes first (gets the best spot). */
  priority: number;
  /** Hovered or selected: always drawn in full, on top, even where crowded. */
  emphasised?: boolean;
  /** Where the line runs back when it is a backward edge (edge-route.ts runBackY). */
  runY?: number;
  /** The route of a forward edge whose bezier would pass behind a card (edge-route.ts forwardRoute). */
  forward?: readonly Point[];
}

export interface LabelPlacement extends Box {
  id: string;
  form: "full" | "compact" | "hidden";
  text: string;
}

/** Positions along the curve to try, from the middle outwards. */
const CANDIDATE_T = [0.5, 0.42, 0.58, 0.34, 0.66, 0.27, 0.73, 0.2, 0.8];
/** Space kept between a label and a node or another label. */
const CLEARANCE = 3;

export interface PlacementOptions {
  /** Zoom at or above which labels try their full text first; below, the compact badge. */
  fullTextZoom: number;
  /** Below this zoom no label is drawn (text would be too small to read). */
  hideBelowZoom: number;
}

export const DEFAULT_PLACEMENT: PlacementOptions = { fullTextZoom: 1, hideBelowZoom: 0.55 };

/**
 * The boxes already taken (cards and placed labels), bucketed in a grid so that a candidate spot is
 * checked against its neighbours only: a 300-node canvas places its 480 labels in a few
 * milliseconds, every frame of a drag, instead of checking every box for every candidate.
 */
export class TakenBoxes {
  private readonly cells = new Map<string, Box[]>();

  constructor(
    boxes: readonly Box[] = [],
    private readonly cellSize = 160,
  ) {
    for (const box of boxes) this.add(box);
  }

  private forCells(box: Box, margin: number, visit: (key: string) => boolean | undefined): boolean {
    const left = Math.floor((box.x - margin) / this.cellSize);
    const right = Math.floor((box.x + box.width + margin) / this.cellSize);
    const top = Math.floor((box.y - margin) / this.cellSize);
    const bottom = Math.floor((box.y + box.height + margin) / this.cellSize);
    for (let column = left; column <= right; column++) {
      for (let row = top; row <= bottom; row++) if (visit(`${column},${row}`)) return true;
    }
    return false;
  }

  add(box: Box): void {
    this.forCells(box, 0, (key) => {
      const cell = this.cells.get(key);
      if (cell) cell.push(box);
      else this.cells.set(key, [box]);
      return undefined;
    });
  }

  /** Whether `box` comes within `margin` of any taken box. */
  hits(box: Box, margin: number): boolean {
    return this.forCells(box, margin, (key) =>
      this.cells.get(key)?.some((other) => boxesIntersect(box, other, margin)),
    );
  }
}

function firstFreeSpot(
  request: LabelRequest,
  size: { width: number; height: number },
  taken: TakenBoxes,
): Box | null {
  // A backward edge's label stays across its route (within a stub of its ends): the route's far
  // left is the target's side, and a label hanging past it would stick out beyond the graph.
  const across = isBackward(request.source, request.target)
    ? { left: request.target.x - 2 * ROUTE_STUB, right: request.source.x + 2 * ROUTE_STUB }
    : null;
  // On the line first; then just above or below it (a short edge has no room on its line that leaves
  // its arrowhead and its source handle uncovered).
  for (const shift of [0, -1, 1]) {
    for (const t of CANDIDATE_T) {
      const point = edgePoint(request.source, request.target, t, request.runY, request.forward);
      const y = point.y - size.height / 2 + shift * (size.height / 2 + LINE_GAP);
      const box = { x: point.x - size.width / 2, y, ...size };
      if (across && (box.x < across.left || box.x + box.width > across.right)) continue;
      if (coversEnd(box, request.target, ARROW_ROOM) || coversEnd(box, request.source, HANDLE_ROOM)) continue;
      if (!taken.hits(box, CLEARANCE)) return box;
    }
  }
  return null;
}

/**
 * Room kept clear around an edge's ends: its arrowhead (16 units long, into the target's handle)
 * and its source handle; a label may sit just above or below them.
 */
const ARROW_ROOM = { across: 16, along: 5 };
const HANDLE_ROOM = { across: 6, along: 5 };
/** Between a label set beside its line and the line: clear of the arrowhead's half-height. */
const LINE_GAP = 6;

function coversEnd(box: Box, end: Point, room: { across: number; along: number }): boolean {
  return (
    end.x > box.x - room.across &&
    end.x < box.x + box.width + room.across &&
    end.y > box.y - room.along &&
    end.y < box.y + box.height + room.along
  );
}

/**
 * Places every label by priority, each taking the first spot along its curve that covers no node
 * and no placed label. Then hovered or selected labels grow to their full text around the same
 * centre (so the pointer stays on them), drawn on top even where crowded; a label they would cover
 * is hidden meanwhile, so no two labels ever overlap (its edge keeps its text as tooltip and name).
 */
export function placeEdgeLabels(
  requests: readonly LabelRequest[],
  nodes: readonly Box[],
  zoom: number,
  options: PlacementOptions = DEFAULT_PLACEMENT,
): LabelPlacement[] {
  const order = [...requests].sort((a, b) => a.priority - b.priority);
  const taken = new TakenBoxes(nodes);
  const placed = new Map<string, LabelPlacement>();
  for (const request of order) {
    const forms: ["full" | "compact", { width: number; height: number }][] = [];
    if (zoom >= options.hideBelowZoom) {
      if (zoom >= options.fullTextZoom) forms.push(["full", labelSize(request.text.full)]);
      if (request.text.badges.length) forms.push(["compact", badgesSize(request.text.badges)]);
    }
    let placement: LabelPlacement | null = null;
    for (const [form, size] of forms) {
      const box = firstFreeSpot(request, size, taken);
      if (box) {
        placement = { id: request.id, form, text: request.text.full, ...box };
        break;
      }
    }
    if (placement) taken.add(placement);
    placed.set(request.id, placement ?? hiddenLabel(request));
  }
  const placements = requests.map((request) => {
    const placement = placed.get(request.id)!;
    if (!request.emphasised || placement.form === "full") return placement;
    // A label that had no room as badges may still find a free spot for its full text.
    const free =
      placement.form === "hidden" ? firstFreeSpot(request, labelSize(request.text.full), taken) : null;
    if (free) return { id: request.id, form: "full" as const, text: request.text.full, ...free };
    const centre =
      placement.form === "hidden"
        ? edgePoint(request.source, request.target, 0.5, request.runY, request.forward)
        : { x: placement.x + placement.width / 2, y: placement.y + placement.height / 2 };
    const size = labelSize(request.text.full);
    return {
      id: request.id,
      form: "full" as const,
      text: request.text.full,
      x: centre.x - size.width / 2,
      y: centre.y - size.height / 2,
      ...size,
    };
  });
  return clearAroundEmphasised(requests, placements);
}

function hiddenLabel(request: LabelRequest): LabelPlacement {
  return { id: request.id, form: "hidden", text: request.text.full, x: 0, y: 0, width: 0, height: 0 };
}

/**
 * Hides every label a hovered or selected label (grown in place) would cover; of two emphasised
 * labels that meet, the first keeps its place.
 */
function clearAroundEmphasised(
  requests: readonly LabelRequest[],
  placements: LabelPlacement[],
): LabelPlacement[] {
  const kept: LabelPlacement[] = [];
  requests.forEach((request, index) => {
    const placement = placements[index]!;
    if (!request.emphasised || placement.form === "hidden") return;
    if (kept.some((other) => boxesIntersect(placement, other))) {
      placements[index] = hiddenLabel(request);
      return;
    }
    kept.push(placement);
  });
  if (kept.length === 0) return placements;
  return placements.map((placement, index) =>
    requests[index]!.emphasised ||
    placement.form === "hidden" ||
    !kept.some((emphasised) => boxesIntersect(placement, emphasised))
      ? placement
      : hiddenLabel(requests[index]!),
  );
}

/** Flow units the drawn-label area snaps to, so panning changes it only every few hundred pixels. */
export const LABEL_AREA_GRID = 256;

/**
 * The part of the canvas (flow coordinates) whose edge labels are drawn: the view plus half a view
 * on every side, snapped outward to LABEL_AREA_GRID. Labels outside it are not in the DOM; the
 * margin means a pan reveals labels that are already there, and the snapping means the area (and
 * the label layer) changes a few times per screen of panning instead of on every frame.
 */
export function labelDrawArea(
  view: { x: number; y: number; zoom: number },
  pane: { width: number; height: number },
  grid = LABEL_AREA_GRID,
): Box {
  const width = pane.width / view.zoom;
  const height = pane.height / view.zoom;
  const left = Math.floor((-view.x / view.zoom - width / 2) / grid) * grid;
  const top = Math.floor((-view.y / view.zoom - height / 2) / grid) * grid;
  const right = Math.ceil((-view.x / view.zoom + width * 1.5) / grid) * grid;
  const bottom = Math.ceil((-view.y / view.zoom + height * 1.5) / grid) * grid;
  return { x: left, y: top, width: right - left, height: bottom - top };
}
