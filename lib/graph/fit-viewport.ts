// Where "fit view" puts the canvas, and how much room the auto layout may use. Fit view never zooms
// out below legible text (FIT_VIEW_MIN_ZOOM); when the graph is still larger than the pane there, it
// is not centred (which would cut both ends) but starts at its left and top edges, where the entry
// agent sits, so a reader starts at the beginning and pans towards the end — unless it is many
// times larger than the pane, where its middle shows more. Pure.
import { cardSize, FIT_VIEW_MIN_ZOOM } from "./card-geometry";
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

export const CANVAS_FIT: FitOptions = { minZoom: FIT_VIEW_MIN_ZOOM, maxZoom: 1, padding: 0.06, topRoom: 30 };

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
export function fitViewport(bounds: Box, pane: Size, options: FitOptions = CANVAS_FIT): FitViewport {
  const withTopRoom = fitWithin(bounds, pane, options);
  // The top room gives way when only without it does the whole graph fit: all of the graph matters
  // more than room for badges.
  if (withTopRoom.fits || !options.topRoom) return withTopRoom;
  const withoutTopRoom = fitWithin(bounds, pane, { ...options, topRoom: 0 });
  return withoutTopRoom.fits ? withoutTopRoom : withTopRoom;
}

function fitWithin(bounds: Box, pane: Size, options: FitOptions): FitViewport {
  const padX = fitPadding(pane.width, options.padding);
  const { top: padTop, bottom: padBottom } = verticalPadding(pane.height, options);
  const room = {
    width: Math.max(1, pane.width - 2 * padX),
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
    x: place(bounds.x, bounds.width, room.width, padX),
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

/** The flow-unit box a layout may fill and still be shown whole by fit view in `pane`. */
export function layoutRoomFor(pane: Size, options: FitOptions = CANVAS_FIT): Size {
  const { top, bottom } = verticalPadding(pane.height, options);
  return {
    width: (pane.width - 2 * fitPadding(pane.width, options.padding)) / options.minZoom,
    height: (pane.height - top - bottom) / options.minZoom,
  };
}

/**
 * The studio canvas pane at 1440×900 with the default panels (palette, inspector, bottom panel):
 * the room a layout computed without a browser (on the server) aims for.
 */
export const DEFAULT_CANVAS_PANE: Size = { width: 950, height: 576 };
