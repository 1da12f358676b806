import { describe, expect, it } from "vitest";
import { visibleRange } from "./tree-window";

describe("visibleRange", () => {
  it("renders the rows in view plus the overscan on each side, clamped to the list", () => {
    expect(visibleRange(1000, 0, 520, 52, 8)).toEqual([0, 18]);
    expect(visibleRange(1000, 52 * 100, 520, 52, 8)).toEqual([92, 118]);
    expect(visibleRange(1000, 52 * 995, 520, 52, 8)).toEqual([987, 1000]);
  });

  it("counts a partly visible row as visible", () => {
    expect(visibleRange(1000, 26, 52, 52, 0)).toEqual([0, 2]);
  });

  it("overscans about the same height above and below the view whatever the row height", () => {
    // 256 px: 4 tree rows of 64 px, 9 timeline rows of 30 px.
    expect(visibleRange(1000, 64 * 100, 640)).toEqual([96, 114]);
    expect(visibleRange(1000, 30 * 100, 600, 30)).toEqual([91, 129]);
  });

  it("handles short lists, overscrolled and unmeasured views", () => {
    expect(visibleRange(3, 0, 1200)).toEqual([0, 3]);
    expect(visibleRange(0, 0, 1200)).toEqual([0, 0]);
    expect(visibleRange(10, -40, 104, 52, 0)).toEqual([0, 2]);
    expect(visibleRange(10, 52 * 50, 104, 52, 2)).toEqual([10, 10]);
  });
});
