import { describe, expect, it } from "vitest";
import { visibleRange, windowRanges } from "./tree-window";

describe("visibleRange", () => {
  it("renders the rows in view plus the overscan on each side, clamped to the list", () => {
    expect(visibleRange(1000, 0, 520, 52, 8)).toEqual([0, 18]);
    expect(visibleRange(1000, 52 * 100, 520, 52, 8)).toEqual([92, 118]);
    expect(visibleRange(1000, 52 * 995, 520, 52, 8)).toEqual([987, 1000]);
  });

  it("counts a partly visible row as visible", () => {
    expect(visibleRange(1000, 26, 52, 52, 0)).toEqual([0, 2]);
  });

  it("handles short lists, overscrolled and unmeasured views", () => {
    expect(visibleRange(3, 0, 1200)).toEqual([0, 3]);
    expect(visibleRange(0, 0, 1200)).toEqual([0, 0]);
    expect(visibleRange(10, -40, 104, 52, 0)).toEqual([0, 2]);
    expect(visibleRange(10, 52 * 50, 104, 52, 2)).toEqual([10, 10]);
  });
});

describe("windowRanges", () => {
  it("merges the rows in view with the overscan around where the view stayed put", () => {
    expect(windowRanges([10, 20], [2, 28])).toEqual([[2, 28]]);
    expect(windowRanges([20, 30], [2, 28])).toEqual([[2, 30]]);
    expect(windowRanges([28, 40], [2, 28])).toEqual([[2, 40]]);
  });

  it("keeps both when a jump leaves the old window behind, in order", () => {
    expect(windowRanges([100, 118], [2, 28])).toEqual([
      [2, 28],
      [100, 118],
    ]);
    expect(windowRanges([0, 18], [100, 126])).toEqual([
      [0, 18],
      [100, 126],
    ]);
  });

  it("drops empty ranges", () => {
    expect(windowRanges([0, 0], [0, 0])).toEqual([]);
    expect(windowRanges([5, 5], [0, 10])).toEqual([[0, 10]]);
  });
});
