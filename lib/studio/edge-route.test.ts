import { describe, expect, it } from "vitest";
import { bezierPoint, edgePoint, placeEdgeLabels } from "./edge-labels";
import {
  backwardRoute,
  forwardRoute,
  isBackward,
  pointAlong,
  ROUTE_STUB,
  roundedPath,
  runBackY,
} from "./edge-route";

const source = { x: 400, y: 100 };
const behind = { x: 100, y: 300 };

describe("isBackward", () => {
  it("is true when the target is not clear of the source's right side", () => {
    expect(isBackward(source, { x: 600, y: 300 })).toBe(false);
    expect(isBackward(source, behind)).toBe(true);
    expect(isBackward(source, { x: source.x - 1, y: 300 })).toBe(true);
    // A short forward hop (a narrow layer gap) stays a bezier.
    expect(isBackward(source, { x: source.x + 10, y: 300 })).toBe(false);
  });
});

describe("backwardRoute", () => {
  it("leaves the source to the right, runs back halfway between the ends and enters the target from its left", () => {
    const route = backwardRoute(source, behind);
    expect(route[0]).toEqual(source);
    expect(route[1]).toEqual({ x: source.x + ROUTE_STUB, y: source.y });
    expect(route[2]?.y).toBe(200);
    expect(route[3]).toEqual({ x: behind.x - ROUTE_STUB, y: 200 });
    expect(route[4]).toEqual({ x: behind.x - ROUTE_STUB, y: behind.y });
    expect(route.at(-1)).toEqual(behind);
  });

  it("runs back along the given line (under the source card) when there is one", () => {
    // Halfway down the layout's 20 px gap under the card, clear of a card stacked below it.
    expect(runBackY(140)).toBe(150);
    const route = backwardRoute(source, behind, runBackY(140));
    expect(route[2]).toEqual({ x: source.x + ROUTE_STUB, y: 150 });
    expect(route[3]).toEqual({ x: behind.x - ROUTE_STUB, y: 150 });
  });

  it("runs back below any other card it would cross, and ignores cards beside its span", () => {
    // A card beside the source reaches lower than it; another below that one; one outside the span.
    const cards = [
      { x: 150, y: 90, width: 200, height: 80 },
      { x: 150, y: 175, width: 200, height: 40 },
      { x: 900, y: 0, width: 200, height: 900 },
    ];
    expect(runBackY(140, source, behind, cards)).toBe(215 + 10);
    expect(runBackY(140, source, behind, [cards[2]!])).toBe(150);
  });

  it("runs below both ends when they are on one row", () => {
    const route = backwardRoute(source, { x: 100, y: 110 });
    expect(route[2]?.y).toBeGreaterThan(110);
    expect(route[3]?.y).toBe(route[2]?.y);
  });
});

describe("pointAlong", () => {
  it("walks the route by length", () => {
    const route = backwardRoute(source, behind);
    expect(pointAlong(route, 0)).toEqual(source);
    expect(pointAlong(route, 1)).toEqual(behind);
    // The route is symmetric about its middle: halfway is on the run back, halfway across.
    const middle = pointAlong(route, 0.5);
    expect(middle.y).toBeCloseTo(200);
    expect(middle.x).toBeCloseTo((source.x + ROUTE_STUB + behind.x - ROUTE_STUB) / 2);
  });
});

describe("roundedPath", () => {
  it("goes from the first point to the last with a curve at each corner", () => {
    const path = roundedPath(backwardRoute(source, behind));
    expect(path.startsWith(`M ${source.x} ${source.y}`)).toBe(true);
    expect(path.endsWith(`L ${behind.x} ${behind.y}`)).toBe(true);
    expect(path.match(/ Q /g)).toHaveLength(4);
  });
});

describe("edgePoint", () => {
  it("follows the bezier forwards and the route backwards, so labels sit on their lines", () => {
    const ahead = { x: 700, y: 300 };
    expect(edgePoint(source, ahead, 0.3)).toEqual(bezierPoint(source, ahead, 0.3));
    const route = backwardRoute(source, behind);
    expect(edgePoint(source, behind, 0.3)).toEqual(pointAlong(route, 0.3));
    expect(edgePoint(source, behind, 0.5).y).toBeCloseTo(200);
    expect(edgePoint(source, behind, 0.5, 160)).toEqual(pointAlong(backwardRoute(source, behind, 160), 0.5));
  });
});

describe("a backward edge's label", () => {
  it("is placed across its route, never hanging past the target's side", () => {
    const target = { x: 100, y: 400 };
    const from = { x: 500, y: 100 };
    const [placement] = placeEdgeLabels(
      [
        {
          id: "e",
          source: from,
          target,
          runY: 150,
          priority: 0,
          text: { full: "subagent · blocking · resumable ×2", badges: [] },
        },
      ],
      [],
      1,
    );
    expect(placement?.form).toBe("full");
    expect(placement!.x).toBeGreaterThanOrEqual(target.x - 2 * ROUTE_STUB);
    expect(placement!.x + placement!.width).toBeLessThanOrEqual(from.x + 2 * ROUTE_STUB);
  });
});

describe("forwardRoute", () => {
  // A packed layout's split column: a near sub-column of two cards (with the layout's 20 px gap
  // between them) in front of a far one; the source card sits left of both.
  const near = [
    { x: 300, y: 0, width: 200, height: 80 },
    { x: 300, y: 100, width: 200, height: 80 },
  ];
  const from = { x: 200, y: 140 };
  const crossesCard = (route: readonly { x: number; y: number }[], cards: typeof near) =>
    route.slice(1).some((point, index) => {
      const previous = route[index]!;
      return cards.some(
        (card) =>
          Math.min(previous.x, point.x) < card.x + card.width &&
          Math.max(previous.x, point.x) > card.x &&
          Math.min(previous.y, point.y) < card.y + card.height &&
          Math.max(previous.y, point.y) > card.y,
      );
    });

  it("keeps the bezier when no card is behind it", () => {
    expect(forwardRoute(from, { x: 290, y: 40 }, near)).toBeNull();
    // Cards between the ends but away from the curve.
    expect(forwardRoute({ x: 200, y: 400 }, { x: 600, y: 420 }, near)).toBeNull();
  });

  it("routes an edge into the far sub-column through the gap between the near cards", () => {
    const to = { x: 524, y: 30 };
    // The bezier passes behind the near cards.
    expect(
      Array.from({ length: 31 }, (_, index) => bezierPoint(from, to, (index + 1) / 32)).some((point) =>
        near.some(
          (card) =>
            point.x > card.x &&
            point.x < card.x + card.width &&
            point.y > card.y &&
            point.y < card.y + card.height,
        ),
      ),
    ).toBe(true);
    const route = forwardRoute(from, to, near)!;
    expect(route[0]).toEqual(from);
    expect(route.at(-1)).toEqual(to);
    expect(crossesCard(route, near)).toBe(false);
    // Across at the middle of the 20 px gap (y 80–100), the level closest to both ends.
    expect(route[2]!.y).toBe(90);
    // Down the middle of the 24 px gap before the target.
    expect(route[3]).toEqual({ x: 512, y: 90 });
    // Orthogonal: every segment is horizontal or vertical.
    for (const [index, point] of route.slice(1).entries()) {
      const previous = route[index]!;
      expect(point.x === previous.x || point.y === previous.y).toBe(true);
    }
  });

  it("goes around a column with no gap, and keeps the bezier when no route is clear", () => {
    const column = [{ x: 300, y: 0, width: 200, height: 180 }];
    const route = forwardRoute(from, { x: 524, y: 30 }, column)!;
    expect(crossesCard(route, column)).toBe(false);
    expect(route[2]!.y).toBe(-10);
    // A card filling the gap before the target: no vertical run fits there.
    const blocked = [...column, { x: 505, y: -2000, width: 15, height: 4000 }];
    expect(forwardRoute(from, { x: 524, y: 30 }, blocked)).toBeNull();
  });
});
