// The size of each node card and where its ports sit, shared by the card components (which use
// these numbers as their CSS sizes) and the auto layout (which packs boxes of exactly these sizes),
// so a laid-out canvas never overlaps. Pure.
import type { GraphNode } from "./document";

/** Smallest font on the canvas (CSS px at zoom 1); fit view never zooms out below MIN_TEXT_PX / this. */
export const SMALLEST_CANVAS_FONT_PX = 12;
/** The smallest text anyone should have to read on screen. */
export const MIN_TEXT_PX = 11;
/** Fit view stops here, so the smallest canvas text stays ≥ MIN_TEXT_PX on screen. */
export const FIT_VIEW_MIN_ZOOM = MIN_TEXT_PX / SMALLEST_CANVAS_FONT_PX;
/**
 * Zoomed out below this, the cards' text is under 5 px on screen, which nobody can read: the canvas
 * draws each card as a block of its kind's colour (same size and ports) and leaves the text out,
 * which also keeps panning a zoomed-out 300-node canvas cheap (benchmark 11).
 */
export const CANVAS_FAR_ZOOM = 0.4;

/**
 * The playground's run badge above an agent card (RunOverlayBadge, a NodeToolbar drawn outside the
 * zoomed layer, so in screen px at any zoom): its offset above the card and its height.
 */
export const RUN_BADGE = { offset: 6, height: 22 } as const;
/**
 * The least gap (flow units) a layout leaves above an agent card, so its run badge, at fit view's
 * smallest zoom, hangs in free space (with a few px to spare) instead of over the card above.
 */
export const BADGE_ROOM_ABOVE_AGENT = Math.ceil(
  (RUN_BADGE.offset + RUN_BADGE.height + 3) / FIT_VIEW_MIN_ZOOM,
);

export const CARD = {
  border: 1,
  headerHeight: 32,
  bodyPaddingY: 6,
  rowHeight: 20,
  sideRowHeight: 24,
  rowGap: 4,
  /** The invisible square around each handle that takes the pointer (screen px ≥ 16 at fit view). */
  handleHitArea: 20,
  width: { agent: 240, prompt: 200, tool: 200, model: 200, note: 200 } as Record<GraphNode["type"], number>,
} as const;

const NOTE_CHARS_PER_LINE = 28;
const NOTE_LINE_HEIGHT = 18;
const NOTE_MAX_LINES = 8;

function noteLines(text: string): number {
  const lines = (text || "Empty note")
    .split("\n")
    .reduce((sum, line) => sum + Math.max(1, Math.ceil(line.length / NOTE_CHARS_PER_LINE)), 0);
  return Math.min(NOTE_MAX_LINES, lines);
}

/** Top of the agent's side row `index` (0 = side A) inside the card, and its centre (where its port is). */
export function sideRowCentre(index: 0 | 1): number {
  return (
    CARD.border +
    CARD.headerHeight +
    CARD.bodyPaddingY +
    index * (CARD.sideRowHeight + CARD.rowGap) +
    CARD.sideRowHeight / 2
  );
}

export function cardSize(node: GraphNode): { width: number; height: number } {
  const width = CARD.width[node.type];
  const frame = 2 * CARD.border + CARD.headerHeight + 2 * CARD.bodyPaddingY;
  if (node.type === "agent") return { width, height: frame + 2 * CARD.sideRowHeight + CARD.rowGap };
  if (node.type === "note") {
    return { width, height: 2 * CARD.border + 2 * 8 + noteLines(node.data.text) * NOTE_LINE_HEIGHT };
  }
  return { width, height: frame + CARD.rowHeight };
}

export type PortSide = "in" | "out" | "sideA" | "sideB";

/** Where each port of a card is, relative to its top-left corner. Notes have none. */
export function cardPorts(node: GraphNode): { id: PortSide; x: number; y: number }[] {
  const { width, height } = cardSize(node);
  if (node.type === "note") return [];
  if (node.type === "agent") {
    return [
      { id: "in", x: 0, y: height / 2 },
      { id: "sideA", x: width, y: sideRowCentre(0) },
      { id: "sideB", x: width, y: sideRowCentre(1) },
    ];
  }
  return [
    { id: "in", x: 0, y: height / 2 },
    { id: "out", x: width, y: height / 2 },
  ];
}
