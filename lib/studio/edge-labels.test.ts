import { describe, expect, it } from "vitest";
import {
  badgesSize,
  bezierPoint,
  boxesIntersect,
  edgeText,
  type LabelRequest,
  labelDrawArea,
  labelSize,
  placeEdgeLabels,
  TakenBoxes,
} from "./edge-labels";

const mode = { blocking: true, resumable: true, maxInstances: 3, immediate: false, optional: false };

describe("edgeText", () => {
  it("spells out a subagent's mode in full and keeps only its flags as badges", () => {
    expect(edgeText("subagent", { mode })).toEqual({
      full: "subagent · blocking · resumable ×3",
      badges: [{ kind: "resumable", count: 3 }],
    });
    expect(
      edgeText("subagent", {
        mode: { ...mode, blocking: false, resumable: false, immediate: true, optional: true },
      }),
    ).toEqual({
      full: "subagent · non-blocking · immediate · optional",
      badges: [{ kind: "immediate" }, { kind: "optional" }],
    });
  });

  it("names plain edges by kind, sides by letter, with no badge", () => {
    expect(edgeText("tool")).toEqual({ full: "tool", badges: [] });
    expect(edgeText("side", { side: "B" })).toEqual({ full: "side B", badges: [] });
  });
});

describe("placeEdgeLabels", () => {
  const request = (id: string, y: number, overrides: Partial<LabelRequest> = {}): LabelRequest => ({
    id,
    source: { x: 0, y },
    target: { x: 400, y },
    text: { full: "subagent · blocking · resumable ×3", badges: [{ kind: "resumable", count: 3 }] },
    priority: 0,
    ...overrides,
  });

  it("puts a label in the middle of its curve when that is free", () => {
    const [placed] = placeEdgeLabels([request("a", 100)], [], 1);
    const size = labelSize("subagent · blocking · resumable ×3");
    expect(placed).toMatchObject({ form: "full", x: 200 - size.width / 2, y: 100 - size.height / 2 });
  });

  it("keeps a short edge's arrowhead and handle uncovered: its label sits just above the line", () => {
    // As lead_chat → critic in the team template: any spot on the line covers an end.
    const short = request("short", 100, { target: { x: 50, y: 100 } });
    const [placed] = placeEdgeLabels([short], [], 0.7);
    expect(placed?.form).toBe("compact");
    expect(placed!.y + placed!.height).toBeLessThanOrEqual(100 - 6);
    const clearOf = (point: { x: number; y: number }, across: number, along: number) =>
      point.x <= placed!.x - across ||
      point.x >= placed!.x + placed!.width + across ||
      point.y <= placed!.y - along ||
      point.y >= placed!.y + placed!.height + along;
    expect(clearOf(short.target, 16, 2)).toBe(true);
    expect(clearOf(short.source, 6, 2)).toBe(true);
  });

  it("never covers a node or another label: moves along the curve, shrinks to badges, or hides", () => {
    // Two edges on the same line: the second label slides along the curve.
    const long = { target: { x: 1000, y: 100 } };
    const [first, second] = placeEdgeLabels([request("a", 100, long), request("b", 100, long)], [], 1);
    expect(first!.form).toBe("full");
    expect(second!.form).not.toBe("hidden");
    expect(boxesIntersect(first!, second!)).toBe(false);

    // A node over the middle and most of the curve leaves room only for the badge near the ends…
    const node = { x: 120, y: 60, width: 160, height: 80 };
    const [squeezed] = placeEdgeLabels([request("a", 100)], [node], 1);
    expect(squeezed!.form).toBe("compact");
    expect(squeezed!.width).toBe(badgesSize([{ kind: "resumable", count: 3 }]).width);
    expect(boxesIntersect(squeezed!, node)).toBe(false);

    // …and a node over the whole curve hides it.
    const [hidden] = placeEdgeLabels([request("a", 100)], [{ x: -50, y: 50, width: 500, height: 100 }], 1);
    expect(hidden!.form).toBe("hidden");
  });

  it("uses badges when zoomed out, hides labels without badges, and hides all when far out", () => {
    const plain = request("tool", 300, { text: { full: "tool", badges: [] }, priority: 5 });
    const [subagent, tool] = placeEdgeLabels([request("a", 100), plain], [], 0.9);
    expect(subagent!.form).toBe("compact");
    expect(tool!.form).toBe("hidden");
    expect(placeEdgeLabels([request("a", 100)], [], 0.4)[0]!.form).toBe("hidden");
  });

  it("shows a hovered or selected edge in full even when crowded, around the badge's centre", () => {
    const node = { x: -50, y: 50, width: 500, height: 100 };
    const [placed] = placeEdgeLabels([request("a", 100, { emphasised: true })], [node], 0.9);
    expect(placed!.form).toBe("full");
    const [badge] = placeEdgeLabels([request("a", 100)], [], 0.9);
    const [hovered] = placeEdgeLabels([request("a", 100, { emphasised: true })], [], 0.9);
    expect(badge!.form).toBe("compact");
    expect(hovered!.form).toBe("full");
    expect(hovered!.x + hovered!.width / 2).toBeCloseTo(badge!.x + badge!.width / 2);
    expect(hovered!.y + hovered!.height / 2).toBeCloseTo(badge!.y + badge!.height / 2);
  });

  it("hides the labels a hovered or selected label grows over, so no two labels ever overlap", () => {
    // Three edges on one line: each label finds its own spot, then hovering the middle one grows it
    // to its full text over its neighbours' badges.
    const long = { target: { x: 500, y: 100 } };
    const requests = [request("a", 100, long), request("b", 100, long), request("c", 100, long)];
    const before = placeEdgeLabels(requests, [], 0.9);
    expect(before.every((placement) => placement.form === "compact")).toBe(true);
    const hovered = requests.map((one) => (one.id === "b" ? { ...one, emphasised: true } : one));
    const after = placeEdgeLabels(hovered, [], 0.9);
    expect(after.find((placement) => placement.id === "b")!.form).toBe("full");
    const shown = after.filter((placement) => placement.form !== "hidden");
    expect(shown.length).toBeGreaterThan(0);
    for (const [index, placement] of shown.entries())
      for (const other of shown.slice(index + 1)) expect(boxesIntersect(placement, other)).toBe(false);
    // Two emphasised labels that meet: the first keeps its place, the other waits.
    const both = requests.map((one) => ({ ...one, emphasised: one.id !== "c" }));
    const [first, second] = placeEdgeLabels(both, [], 0.9);
    expect(first!.form).toBe("full");
    expect(second!.form === "hidden" || !boxesIntersect(first!, second!)).toBe(true);
  });

  it("gives a selected label that had no room as badges a free spot for its full text when there is one", () => {
    // A plain edge has no badges, so below 100 % it is hidden; selected, it takes a free spot on its
    // line beside the subagent's badge instead of covering it.
    const long = { target: { x: 1000, y: 100 } };
    const plain = request("tool", 100, {
      ...long,
      text: { full: "tool", badges: [] },
      priority: 5,
      emphasised: true,
    });
    const [subagent, tool] = placeEdgeLabels([request("a", 100, long), plain], [], 0.9);
    expect(subagent!.form).toBe("compact");
    expect(tool!.form).toBe("full");
    expect(boxesIntersect(subagent!, tool!)).toBe(false);
  });

  it("gives the best spot to the higher priority label", () => {
    const low = request("low", 100, { priority: 5, text: { full: "tool", badges: [] } });
    const high = request("high", 100, { priority: 0 });
    const [lowPlaced, highPlaced] = placeEdgeLabels([low, high], [], 1);
    expect(highPlaced!.x + highPlaced!.width / 2).toBeCloseTo(200);
    expect(lowPlaced!.x + lowPlaced!.width / 2).not.toBeCloseTo(200);
  });
});

describe("TakenBoxes", () => {
  it("finds exactly the boxes a brute-force scan finds, at any margin, across cell borders", () => {
    // A small deterministic generator (no flaky randomness): boxes of every size, some negative.
    let seed = 7;
    const next = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed / 2_147_483_648;
    };
    const box = () => ({
      x: next() * 3000 - 500,
      y: next() * 2000 - 300,
      width: 1 + next() * 400,
      height: 1 + next() * 120,
    });
    const stored = Array.from({ length: 300 }, box);
    // The default cells, and cells much smaller than the boxes and the margins.
    for (const index of [new TakenBoxes(stored), new TakenBoxes(stored, 16)]) {
      let hits = 0;
      for (let query = 0; query < 3000; query++) {
        const candidate = box();
        const margin = [0, 3, 40][query % 3]!;
        const expected = stored.some((other) => boxesIntersect(candidate, other, margin));
        expect(index.hits(candidate, margin)).toBe(expected);
        if (expected) hits++;
      }
      // Both outcomes were exercised.
      expect(hits).toBeGreaterThan(100);
      expect(hits).toBeLessThan(2900);
    }
    const index = new TakenBoxes(stored);
    // Boxes added later are found too.
    const later = { x: 10_000, y: 10_000, width: 10, height: 10 };
    expect(index.hits({ x: 10_012, y: 10_005, width: 5, height: 5 }, 3)).toBe(false);
    index.add(later);
    expect(index.hits({ x: 10_012, y: 10_005, width: 5, height: 5 }, 3)).toBe(true);
  });
});

describe("bezierPoint", () => {
  it("follows React Flow's curve: ends at its handles, passes through the middle", () => {
    const source = { x: 0, y: 0 };
    const target = { x: 200, y: 100 };
    expect(bezierPoint(source, target, 0)).toEqual(source);
    expect(bezierPoint(source, target, 1)).toEqual(target);
    expect(bezierPoint(source, target, 0.5)).toEqual({ x: 100, y: 50 });
  });
});

describe("labelDrawArea", () => {
  const pane = { width: 1000, height: 600 };

  it("covers the view and half a view around it, snapped outward to the grid", () => {
    // At zoom 1 with the flow origin at the pane's top left, the view is x 0..1000, y 0..600.
    const area = labelDrawArea({ x: 0, y: 0, zoom: 1 }, pane, 100);
    expect(area).toEqual({ x: -500, y: -300, width: 2000, height: 1200 });
  });

  it("follows the view in flow units at any zoom", () => {
    // Zoom 2 shows 500 × 300 flow units starting at flow (100, 50).
    const area = labelDrawArea({ x: -200, y: -100, zoom: 2 }, pane, 50);
    expect(area).toEqual({ x: -150, y: -100, width: 1000, height: 600 });
  });

  it("stays the same while a pan stays inside one grid cell, and moves once it leaves it", () => {
    const start = labelDrawArea({ x: -10, y: 0, zoom: 1 }, pane);
    expect(labelDrawArea({ x: -20, y: -30, zoom: 1 }, pane)).toEqual(start);
    const moved = labelDrawArea({ x: -300, y: 0, zoom: 1 }, pane);
    expect(moved.x).toBeGreaterThan(start.x);
    // The view itself is always inside the area.
    expect(moved.x).toBeLessThanOrEqual(300);
    expect(moved.x + moved.width).toBeGreaterThanOrEqual(1300);
  });
});
