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

describe("fitViewport", () => {
  it("centres a graph that fits, never zooming in past 100 %", () => {
    const bounds = { x: 100, y: 50, width: 400, height: 200 };
    const view = fitViewport(bounds, pane);
    expect(view.zoom).toBe(1);
    expect(view.fits).toBe(true);
    // The box's centre lands on the pane's centre.
    expect(view.x + (bounds.x + bounds.width / 2) * view.zoom).toBeCloseTo(pane.width / 2);
    expect(view.y + (bounds.y + bounds.height / 2) * view.zoom).toBeCloseTo(pane.height / 2);
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
    // The left edge sits at the padding; the vertical centre on the pane's centre.
    expect(view.x + bounds.x * view.zoom).toBeCloseTo(fitPadding(pane.width, CANVAS_FIT.padding));
    expect(view.y + (bounds.y + bounds.height / 2) * view.zoom).toBeCloseTo(pane.height / 2);
    expect(boundsInView(bounds, pane, view)).toBe(false);
  });

  it("starts a too-tall graph at its top edge", () => {
    const bounds = { x: 0, y: 100, width: 300, height: 900 };
    const view = fitViewport(bounds, pane);
    expect(view.y + bounds.y * view.zoom).toBeCloseTo(fitPadding(pane.height, CANVAS_FIT.padding));
    expect(view.x + (bounds.x + bounds.width / 2) * view.zoom).toBeCloseTo(pane.width / 2);
  });
});

describe("fitViewport of a graph many panes large", () => {
  it("shows its middle, where most of it is, and starts a modest overflow at its edge", () => {
    const bounds = { x: 0, y: 0, width: 8000, height: 700 };
    const view = fitViewport(bounds, pane);
    expect(view.zoom).toBe(FIT_VIEW_MIN_ZOOM);
    expect(view.x + (bounds.x + bounds.width / 2) * view.zoom).toBeCloseTo(pane.width / 2);
    // The height overflows by less than two rooms: shown from its top.
    expect(view.y + bounds.y * view.zoom).toBeCloseTo(fitPadding(pane.height, CANVAS_FIT.padding));
  });
});

describe("layoutRoomFor", () => {
  it("is the largest box fit view shows whole at the smallest legible zoom", () => {
    const room = layoutRoomFor(pane);
    expect(fitViewport({ x: 0, y: 0, ...room }, pane)).toMatchObject({ zoom: FIT_VIEW_MIN_ZOOM, fits: true });
    const wider = { x: 0, y: 0, width: room.width + 20, height: room.height };
    expect(fitViewport(wider, pane).fits).toBe(false);
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
