import { describe, expect, it } from "vitest";
import { FIT_VIEW_MIN_ZOOM } from "./card-geometry";
import {
  boundsInView,
  CANVAS_FIT,
  fitPadding,
  fitViewport,
  graphBounds,
  layoutRoomFor,
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
  it("is the largest box fit view shows whole at the smallest legible zoom", () => {
    const room = layoutRoomFor(pane);
    expect(fitViewport({ x: 0, y: 0, ...room }, pane)).toMatchObject({ zoom: FIT_VIEW_MIN_ZOOM, fits: true });
    const wider = { x: 0, y: 0, width: room.width + 20, height: room.height };
    expect(fitViewport(wider, pane).fits).toBe(false);
    const taller = { x: 0, y: 0, width: room.width, height: room.height + 20 };
    expect(fitViewport(taller, pane).fits).toBe(false);
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
