import { describe, expect, it } from "vitest";
import { FIT_VIEW_MIN_ZOOM } from "./card-geometry";
import type { GraphNode } from "./document";
import {
  boundsInView,
  CANVAS_FIT,
  CONTROLS_COLUMN,
  cardBoxes,
  cardsUnderOverlays,
  fitCanvasViewport,
  fitPadding,
  fitViewport,
  graphBounds,
  layoutRoomFor,
  MINIMAP_FROM_NODES,
  overlayBoxes,
  WHOLE_GRAPH_MIN_ZOOM,
} from "./fit-viewport";

const pane = { width: 1000, height: 600 };
/** The vertical room's top and bottom: the top room (30 px) is more than the padding (16 px) here. */
const padTop = CANVAS_FIT.topRoom ?? 0;
const padBottom = fitPadding(pane.height, CANVAS_FIT.padding);
const roomMiddle = (padTop + pane.height - padBottom) / 2;

describe("fitViewport", () => {
  it("centres a graph that fits, never zooming in past 100 %", () => {
    const bounds = { x: 100, y: 50, width: 400, height: 200 };
    const view = fitViewport(bounds, pane);
    expect(view.zoom).toBe(1);
    expect(view.fits).toBe(true);
    // The box's centre lands on the pane's centre across, on the room's (below the top room) down.
    expect(padTop).toBeGreaterThan(padBottom);
    expect(view.x + (bounds.x + bounds.width / 2) * view.zoom).toBeCloseTo(pane.width / 2);
    expect(view.y + (bounds.y + bounds.height / 2) * view.zoom).toBeCloseTo(roomMiddle);
    expect(boundsInView(bounds, pane, view)).toBe(true);
  });

  it("zooms out to fit a graph inside the padding, as React Flow's numeric padding reads", () => {
    const bounds = { x: 0, y: 0, width: 1000, height: 300 };
    const view = fitViewport(bounds, pane);
    const room = pane.width - 2 * fitPadding(pane.width, CANVAS_FIT.padding);
    expect(view.zoom).toBeCloseTo(room / bounds.width);
    expect(view.zoom).toBeGreaterThan(FIT_VIEW_MIN_ZOOM);
    expect(view.fits).toBe(true);
    expect(boundsInView(bounds, pane, view)).toBe(true);
  });

  it("stops at the legible zoom and starts a too-wide graph at its left edge, centred vertically", () => {
    const bounds = { x: -40, y: 10, width: 1500, height: 300 };
    const view = fitViewport(bounds, pane);
    expect(view.zoom).toBe(FIT_VIEW_MIN_ZOOM);
    expect(view.fits).toBe(false);
    // The left edge sits at the padding; the vertical centre on the room's centre.
    expect(view.x + bounds.x * view.zoom).toBeCloseTo(fitPadding(pane.width, CANVAS_FIT.padding));
    expect(view.y + (bounds.y + bounds.height / 2) * view.zoom).toBeCloseTo(roomMiddle);
    expect(boundsInView(bounds, pane, view)).toBe(false);
  });

  it("starts a too-tall graph at its top edge, below the top room", () => {
    const bounds = { x: 0, y: 100, width: 300, height: 900 };
    const view = fitViewport(bounds, pane);
    expect(view.y + bounds.y * view.zoom).toBeCloseTo(padTop);
    expect(view.x + (bounds.x + bounds.width / 2) * view.zoom).toBeCloseTo(pane.width / 2);
  });
});

describe("fitViewport's room above the graph", () => {
  it("gives way when only without it the whole graph fits", () => {
    const room = layoutRoomFor(pane);
    // Taller than the room with the top room, short enough for the room without it.
    const bounds = { x: 0, y: 0, width: 200, height: room.height + 10 };
    expect(fitViewport(bounds, pane, { ...CANVAS_FIT, topRoom: 0 }).fits).toBe(true);
    const view = fitViewport(bounds, pane);
    expect(view.fits).toBe(true);
    expect(view.y + bounds.y * view.zoom).toBeLessThan(padTop);
    expect(boundsInView(bounds, pane, view)).toBe(true);
  });
});

describe("fitViewport of a graph many panes large", () => {
  it("shows its middle, where most of it is, and starts a modest overflow at its edge", () => {
    const bounds = { x: 0, y: 0, width: 8000, height: 700 };
    const view = fitViewport(bounds, pane);
    expect(view.zoom).toBe(FIT_VIEW_MIN_ZOOM);
    expect(view.x + (bounds.x + bounds.width / 2) * view.zoom).toBeCloseTo(pane.width / 2);
    // The height overflows by less than two rooms: shown from its top.
    expect(view.y + bounds.y * view.zoom).toBeCloseTo(padTop);
  });
});

describe("layoutRoomFor", () => {
  it("is the largest box fit view shows whole at the smallest legible zoom, clear of the controls", () => {
    const room = layoutRoomFor(pane);
    const left = CONTROLS_COLUMN;
    const right = fitPadding(pane.width, CANVAS_FIT.padding);
    expect(room.width).toBeCloseTo((pane.width - left - right) / FIT_VIEW_MIN_ZOOM);
    const shown = (width: number, height: number) =>
      fitViewport({ x: 0, y: 0, width, height }, pane, CANVAS_FIT, { left, right: 0, bottom: 0 });
    expect(shown(room.width, room.height)).toMatchObject({ zoom: FIT_VIEW_MIN_ZOOM, fits: true });
    expect(shown(room.width + 20, room.height).fits).toBe(false);
    expect(shown(room.width, room.height + 20).fits).toBe(false);
  });
});

/** A card every `step` flow units across, `rows` rows down (prompt cards: 200 × 66). */
function grid(columns: number, rows: number, step = { x: 246, y: 86 }): GraphNode[] {
  const nodes: GraphNode[] = [];
  for (let row = 0; row < rows; row++) {
    for (let column = 0; column < columns; column++) {
      nodes.push({
        id: `prompt:p${row}_${column}`,
        type: "prompt",
        position: { x: column * step.x, y: row * step.y },
        data: { definition: { name: `p${row}_${column}` } },
      } as GraphNode);
    }
  }
  return nodes;
}

describe("fitCanvasViewport", () => {
  it("keeps the bottom-left card out from under the zoom controls", () => {
    // 3 × 5 cards, 692 × 410: centred at zoom 1 in 1000 × 600 its left edge (154 px) is clear; in a
    // pane just wider than the graph, the centred fit puts the bottom-left card under the controls.
    const nodes = grid(3, 5);
    const narrow = { width: 740, height: 600 };
    const bounds = graphBounds(nodes)!;
    const centred = fitViewport(bounds, narrow);
    expect(centred.fits).toBe(true);
    expect(cardsUnderOverlays(cardBoxes(nodes), overlayBoxes(narrow, false), centred)).toBe(true);
    const fit = fitCanvasViewport(nodes, narrow)!;
    expect(fit).toMatchObject({ fits: true, clear: true, minimap: false });
    expect(fit.zoom).toBeGreaterThanOrEqual(FIT_VIEW_MIN_ZOOM);
    expect(cardsUnderOverlays(cardBoxes(nodes), overlayBoxes(narrow, false), fit)).toBe(false);
    // Where the plain fit is clear, it is the fit.
    expect(fitCanvasViewport(nodes, pane)).toMatchObject({ ...fitViewport(bounds, pane), clear: true });
  });

  it("keeps the cards out from under the minimap of a large canvas when there is room", () => {
    // 20 cards (the minimap shows): 4 × 5, 938 × 410, in a pane that fits them with room to spare
    // below, but not centred clear of the minimap's corner.
    const nodes = grid(4, 5);
    expect(nodes.length).toBeGreaterThan(MINIMAP_FROM_NODES);
    const tall = { width: 1100, height: 640 };
    const centred = fitViewport(graphBounds(nodes)!, tall);
    expect(cardsUnderOverlays(cardBoxes(nodes), overlayBoxes(tall, true), centred)).toBe(true);
    const fit = fitCanvasViewport(nodes, tall)!;
    expect(fit).toMatchObject({ fits: true, clear: true, minimap: true });
    expect(cardsUnderOverlays(cardBoxes(nodes), overlayBoxes(tall, true), fit)).toBe(false);
  });

  it("shows the whole graph rather than clear of the overlays when it cannot be both", () => {
    const nodes = grid(3, 5);
    const bounds = graphBounds(nodes)!;
    // Exactly the room of the plain fit at the smallest zoom: any reserve would cut a card off.
    const snug = {
      width: Math.ceil(bounds.width * FIT_VIEW_MIN_ZOOM * (1 + CANVAS_FIT.padding)) + 2,
      height: Math.ceil(bounds.height * FIT_VIEW_MIN_ZOOM * (1 + CANVAS_FIT.padding)) + 40,
    };
    const fit = fitCanvasViewport(nodes, snug)!;
    expect(fit.fits).toBe(true);
    expect(fitCanvasViewport([], snug)).toBeNull();
  });
});

describe("fitCanvasViewport below the legible zoom", () => {
  it("zooms out past the legible zoom as far as showing every card, clear of the overlays, takes", () => {
    // 5 × 3 cards, 1184 × 238: wider than an 812 px pane (1280 wide, playground open) at 11/12.
    const nodes = grid(5, 3);
    const pane = { width: 812, height: 540 };
    const legible = fitViewport(graphBounds(nodes)!, pane);
    expect(legible.fits).toBe(false);
    const fit = fitCanvasViewport(nodes, pane)!;
    expect(fit).toMatchObject({ fits: true, clear: true, minimap: false });
    expect(fit.zoom).toBeLessThan(FIT_VIEW_MIN_ZOOM);
    expect(fit.zoom).toBeGreaterThanOrEqual(WHOLE_GRAPH_MIN_ZOOM);
    expect(boundsInView(graphBounds(nodes)!, pane, fit)).toBe(true);
  });

  it("keeps the legible zoom, from the graph's start, for a graph too large even at the smallest", () => {
    const nodes = grid(12, 12);
    const fit = fitCanvasViewport(nodes, { width: 812, height: 540 })!;
    expect(fit.fits).toBe(false);
    expect(fit.zoom).toBeCloseTo(FIT_VIEW_MIN_ZOOM, 6);
  });
});

describe("graphBounds", () => {
  it("spans every card by its own size, and is null for an empty canvas", () => {
    expect(graphBounds([])).toBeNull();
    const bounds = graphBounds([
      { id: "note:a", type: "note", position: { x: -10, y: 5 }, data: { text: "" } },
      { id: "note:b", type: "note", position: { x: 300, y: 400 }, data: { text: "" } },
    ]);
    expect(bounds).toMatchObject({ x: -10, y: 5 });
    expect(bounds!.width).toBeGreaterThan(310);
    expect(bounds!.height).toBeGreaterThan(395);
  });
});
