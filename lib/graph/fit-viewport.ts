// Where "fit view" puts the canvas, and how much room the auto layout may use. Fit view prefers
// legible text (FIT_VIEW_MIN_ZOOM) and zooms out further only as far as showing every card takes
// (fitCanvasViewport, down to WHOLE_GRAPH_MIN_ZOOM); when the graph is larger than the pane even there, it
// is not centred (which would cut both ends) but starts at its left and top edges, where the entry
// agent sits, so a reader starts at the beginning and pans towards the end — unless it is many
// times larger than the pane, where its middle shows more. The canvas's own overlays (the zoom
// controls bottom-left, the minimap bottom-right when it shows) are kept off the cards when there is
// a way to (fitCanvasViewport), and a layout's room leaves the controls' column free. Pure.
import { CANVAS_FAR_ZOOM, CARD, cardSize, FIT_VIEW_MIN_ZOOM, RUN_BADGE } from "./card-geometry";
import type { GraphNode } from "./document";

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface Size {
  width: number;
  height: number;
}

export interface FitOptions {
  minZoom: number;
  maxZoom: number;
  /** A fraction of the pane, as React Flow reads a numeric padding: (pane − pane / (1 + padding)) / 2 per side. */
  padding: number;
  /**
   * Screen px kept free above the graph at least (more than the padding on a short pane): badges
   * hang above the top cards, the playground's run badge 28 px (6 px offset, 22 px tall).
   */
  topRoom?: number;
}

export const CANVAS_FIT: FitOptions = {
  minZoom: FIT_VIEW_MIN_ZOOM,
  maxZoom: 1,
  padding: 0.06,
  topRoom: RUN_BADGE.offset + RUN_BADGE.height + 2,
};

/** React Flow's margin between a panel (the controls, the minimap) and the pane's edges, px. */
const PANEL_MARGIN = 15;
/** Free px kept between a card and an overlay. */
const OVERLAY_CLEARANCE = 6;

/** The minimap's size on screen (StudioCanvas), px. */
export const CANVAS_MINIMAP_SIZE: Size = { width: 150, height: 96 };

/** A corner of the pane an overlay takes: px from the pane's side and bottom, clearance included. */
export interface PaneCorner {
  width: number;
  height: number;
}

/** The zoom controls (+, −, fit, lock), bottom-left: four 27 px buttons in a column. */
export const CONTROLS_CORNER: PaneCorner = {
  width: PANEL_MARGIN + 27 + OVERLAY_CLEARANCE,
  height: PANEL_MARGIN + 4 * 27 + OVERLAY_CLEARANCE,
};

/** The minimap, bottom-right, when it shows. */
export const MINIMAP_CORNER: PaneCorner = {
  width: PANEL_MARGIN + CANVAS_MINIMAP_SIZE.width + OVERLAY_CLEARANCE,
  height: PANEL_MARGIN + CANVAS_MINIMAP_SIZE.height + OVERLAY_CLEARANCE,
};

/** How far a card's handles (their pointer area) stick out at its left and right, flow units. */
const HANDLE_OVERHANG = CARD.handleHitArea / 2;

/**
 * The px kept free at the pane's left to keep the cards (their handles included) clear of the zoom
 * controls, and at its right for the minimap (screen px ≥ flow units: fit view never zooms past 1).
 */
export const CONTROLS_COLUMN = CONTROLS_CORNER.width + HANDLE_OVERHANG;
const MINIMAP_COLUMN = MINIMAP_CORNER.width + HANDLE_OVERHANG;

/**
 * The minimap shows from this many nodes, and whenever part of the canvas is out of view (so the
 * reader knows there is more); small canvases that fit do without it.
 */
export const MINIMAP_FROM_NODES = 16;

/** The box around every card (flow units), by the cards' own sizes; null for an empty canvas. */
export function graphBounds(nodes: readonly GraphNode[]): Box | null {
  if (nodes.length === 0) return null;
  let left = Number.POSITIVE_INFINITY;
  let top = Number.POSITIVE_INFINITY;
  let right = Number.NEGATIVE_INFINITY;
  let bottom = Number.NEGATIVE_INFINITY;
  for (const node of nodes) {
    const size = cardSize(node);
    left = Math.min(left, node.position.x);
    top = Math.min(top, node.position.y);
    right = Math.max(right, node.position.x + size.width);
    bottom = Math.max(bottom, node.position.y + size.height);
  }
  return { x: left, y: top, width: right - left, height: bottom - top };
}

/** Whether all of `bounds` is on screen in a pane of `pane` px at viewport (x, y, zoom). */
export function boundsInView(
  bounds: Box,
  pane: Size,
  viewport: { x: number; y: number; zoom: number },
): boolean {
  const left = bounds.x * viewport.zoom + viewport.x;
  const top = bounds.y * viewport.zoom + viewport.y;
  return (
    left >= -0.5 &&
    top >= -0.5 &&
    left + bounds.width * viewport.zoom <= pane.width + 0.5 &&
    top + bounds.height * viewport.zoom <= pane.height + 0.5
  );
}

/** The pixels kept free on each side of a pane of `length` (React Flow's numeric padding). */
export function fitPadding(length: number, padding: number): number {
  return Math.floor((length - length / (1 + padding)) * 0.5);
}

export interface FitViewport {
  x: number;
  y: number;
  zoom: number;
  /** Whether all of `bounds` is inside the pane at this zoom. */
  fits: boolean;
}

/** How many rooms long a graph may be on an axis and still be shown from its start, not its middle. */
export const START_ANCHORED_OVERFLOW = 2;

/**
 * The viewport that shows `bounds` in a pane of `pane` pixels: centred at the largest zoom within
 * the limits when it fits; otherwise at the smallest zoom, aligned to the start (left/top) on each
 * axis that overflows by up to START_ANCHORED_OVERFLOW rooms, centred on an axis that fits or that
 * overflows by more. The top room (options.topRoom) is kept unless only without it the graph fits.
 */
export function fitViewport(
  bounds: Box,
  pane: Size,
  options: FitOptions = CANVAS_FIT,
  reserve: Reserve = NO_RESERVE,
): FitViewport {
  const withTopRoom = fitWithin(bounds, pane, options, reserve);
  // The top room gives way when only without it does the whole graph fit: all of the graph matters
  // more than room for badges.
  if (withTopRoom.fits || !options.topRoom) return withTopRoom;
  const withoutTopRoom = fitWithin(bounds, pane, { ...options, topRoom: 0 }, reserve);
  return withoutTopRoom.fits ? withoutTopRoom : withTopRoom;
}

/** Px kept free at the pane's left, right and bottom (at least the padding), for an overlay. */
export interface Reserve {
  left: number;
  right: number;
  bottom: number;
}

const NO_RESERVE: Reserve = { left: 0, right: 0, bottom: 0 };

function fitWithin(bounds: Box, pane: Size, options: FitOptions, reserve: Reserve): FitViewport {
  const padX = fitPadding(pane.width, options.padding);
  const padLeft = Math.max(padX, reserve.left);
  const padRight = Math.max(padX, reserve.right);
  const vertical = verticalPadding(pane.height, options);
  const padTop = vertical.top;
  const padBottom = Math.max(vertical.bottom, reserve.bottom);
  const room = {
    width: Math.max(1, pane.width - padLeft - padRight),
    height: Math.max(1, pane.height - padTop - padBottom),
  };
  const wanted = Math.min(room.width / Math.max(1, bounds.width), room.height / Math.max(1, bounds.height));
  const zoom = Math.min(options.maxZoom, Math.max(options.minZoom, wanted));
  // A graph up to START_ANCHORED_OVERFLOW times the room starts at its edge; a much larger one is
  // mostly out of view either way, and its middle (where most of it is) says more than a corner.
  // Centred means on the room's centre (the pane's, but for the top room).
  const place = (start: number, length: number, roomLength: number, pad: number) =>
    length * zoom <= roomLength + 0.5 || length * zoom > START_ANCHORED_OVERFLOW * roomLength
      ? pad + roomLength / 2 - (start + length / 2) * zoom
      : pad - start * zoom;
  const fitsX = bounds.width * zoom <= room.width + 0.5;
  const fitsY = bounds.height * zoom <= room.height + 0.5;
  return {
    x: place(bounds.x, bounds.width, room.width, padLeft),
    y: place(bounds.y, bounds.height, room.height, padTop),
    zoom,
    fits: fitsX && fitsY,
  };
}

/** The px kept free above and below the graph in a pane `height` px tall. */
function verticalPadding(height: number, options: FitOptions): { top: number; bottom: number } {
  const bottom = fitPadding(height, options.padding);
  return { top: Math.max(bottom, options.topRoom ?? 0), bottom };
}

/**
 * The flow-unit box a layout may fill and still be shown whole by fit view in `pane`, clear of the
 * zoom controls (a layout wraps its rows back to the left, where they are): the controls' column is
 * kept free.
 */
export function layoutRoomFor(pane: Size, options: FitOptions = CANVAS_FIT): Size {
  const { top, bottom } = verticalPadding(pane.height, options);
  const padX = fitPadding(pane.width, options.padding);
  return {
    width: (pane.width - padX - Math.max(padX, CONTROLS_COLUMN)) / options.minZoom,
    height: (pane.height - top - bottom) / options.minZoom,
  };
}

/** Each card's box (flow units), its handles (which stick out at the sides) included. */
export function cardBoxes(nodes: readonly GraphNode[]): Box[] {
  const handle = HANDLE_OVERHANG;
  return nodes.map((node) => {
    const size = cardSize(node);
    return {
      x: node.position.x - handle,
      y: node.position.y,
      width: size.width + 2 * handle,
      height: size.height,
    };
  });
}

function intersects(a: Box, b: Box): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

/** The screen boxes (pane px) the overlays take: the controls, and the minimap when it shows. */
export function overlayBoxes(pane: Size, minimap: boolean): Box[] {
  const corner = (side: "left" | "right", { width, height }: PaneCorner): Box => ({
    x: side === "left" ? 0 : pane.width - width,
    y: pane.height - height,
    width,
    height,
  });
  return minimap
    ? [corner("left", CONTROLS_CORNER), corner("right", MINIMAP_CORNER)]
    : [corner("left", CONTROLS_CORNER)];
}

/** Whether any of `cards` (flow units) lies under an overlay at `viewport`. */
export function cardsUnderOverlays(
  cards: readonly Box[],
  overlays: readonly Box[],
  viewport: { x: number; y: number; zoom: number },
): boolean {
  return cards.some((card) => {
    const onScreen = {
      x: card.x * viewport.zoom + viewport.x,
      y: card.y * viewport.zoom + viewport.y,
      width: card.width * viewport.zoom,
      height: card.height * viewport.zoom,
    };
    return overlays.some((overlay) => intersects(onScreen, overlay));
  });
}

export interface CanvasFit extends FitViewport {
  /** Whether the minimap shows at this viewport (a large canvas, or part of it out of view). */
  minimap: boolean;
  /** Whether no card lies under the zoom controls or the shown minimap. */
  clear: boolean;
}

/**
 * Fit view for the studio canvas: fitViewport, keeping the cards out from under the zoom controls
 * and (when it shows) the minimap. Tries the plain fit, then keeping the overlays' column (left,
 * right) or row (bottom) free, and takes the first of the best: the whole graph shown and clear of
 * the overlays, else shown whole, else clear; the largest zoom among equals. A graph that cannot be
 * shown whole and clear at the legible zoom (options.minZoom) is zoomed out further, down to
 * WHOLE_GRAPH_MIN_ZOOM, where the cards still carry their text: fit view shows every card. Only a
 * graph too large even there keeps the legible zoom (from its start, the minimap showing the rest).
 */
export function fitCanvasViewport(
  nodes: readonly GraphNode[],
  pane: Size,
  options: FitOptions = CANVAS_FIT,
): CanvasFit | null {
  const legible = bestCanvasFit(nodes, pane, options);
  if (!legible || (legible.fits && legible.clear) || options.minZoom <= WHOLE_GRAPH_MIN_ZOOM) return legible;
  const whole = bestCanvasFit(nodes, pane, { ...options, minZoom: WHOLE_GRAPH_MIN_ZOOM });
  return whole?.fits && whole.clear ? whole : legible;
}

/**
 * The smallest zoom fit view goes to for the whole graph: the far drawing's threshold
 * (CANVAS_FAR_ZOOM, lib/graph/card-geometry), above which every card still shows its text.
 */
export const WHOLE_GRAPH_MIN_ZOOM = CANVAS_FAR_ZOOM;

function bestCanvasFit(nodes: readonly GraphNode[], pane: Size, options: FitOptions): CanvasFit | null {
  const bounds = graphBounds(nodes);
  if (!bounds) return null;
  const cards = cardBoxes(nodes);
  const bottom = Math.max(CONTROLS_CORNER.height, MINIMAP_CORNER.height);
  const reserves: Reserve[] = [];
  for (const count of [0, 1, 2, 3]) {
    for (const left of [0, CONTROLS_COLUMN]) {
      for (const right of [0, MINIMAP_COLUMN]) {
        for (const low of [0, bottom]) {
          if (Number(left > 0) + Number(right > 0) + Number(low > 0) === count) {
            reserves.push({ left, right, bottom: low });
          }
        }
      }
    }
  }
  let best: CanvasFit | null = null;
  const rank = (fit: CanvasFit) => [
    Number(fit.fits && fit.clear),
    Number(fit.fits),
    Number(fit.clear),
    fit.zoom,
  ];
  for (const reserve of reserves) {
    const view = fitViewport(bounds, pane, options, reserve);
    const minimap = nodes.length > MINIMAP_FROM_NODES || !view.fits;
    const clear = !cardsUnderOverlays(cards, overlayBoxes(pane, minimap), view);
    const fit = { ...view, minimap, clear };
    if (!best) {
      best = fit;
      continue;
    }
    const [a, b] = [rank(fit), rank(best)];
    const index = a.findIndex((value, at) => Math.abs(value - (b[at] ?? 0)) > 1e-9);
    if (index >= 0 && (a[index] ?? 0) > (b[index] ?? 0)) best = fit;
  }
  return best;
}

/**
 * The studio canvas pane at 1280×800 and 1440×900 with the default panels (palette — a rail at
 * 1280 —, inspector, bottom panel): the smaller of the two on each axis, the room a layout computed
 * without a browser (on the server) aims for, so it fits at both (and at 1920×1080).
 */
export const DEFAULT_CANVAS_PANE: Size = { width: 950, height: 476 };
