// The bottom panel's stored size and keyboard resizing.
import { describe, expect, it } from "vitest";
import {
  DEFAULT_PANEL_SIZE,
  PANEL_MIN_HEIGHT,
  parsePanelSize,
  resizeByKey,
  toggleMaximised,
} from "./panel-size";

describe("parsePanelSize", () => {
  it("reads a stored size and falls back on nothing, bad JSON or bad values", () => {
    expect(parsePanelSize('{"height":300,"collapsed":true,"maximised":false}')).toEqual({
      height: 300,
      collapsed: true,
      maximised: false,
    });
    expect(parsePanelSize(null)).toEqual(DEFAULT_PANEL_SIZE);
    expect(parsePanelSize("{oops")).toEqual(DEFAULT_PANEL_SIZE);
    expect(parsePanelSize('{"height":5,"collapsed":false,"maximised":false}')).toEqual(DEFAULT_PANEL_SIZE);
  });
});

describe("resizeByKey", () => {
  const size = { height: 300, collapsed: false, maximised: false };
  it("grows with ArrowUp and shrinks with ArrowDown from the height on screen, within bounds", () => {
    expect(resizeByKey(size, "ArrowUp", false, 300, 700)?.height).toBe(324);
    expect(resizeByKey(size, "ArrowDown", true, 300, 700)?.height).toBe(180);
    expect(resizeByKey(size, "ArrowUp", false, 690, 700)?.height).toBe(700);
    expect(resizeByKey(size, "ArrowDown", false, PANEL_MIN_HEIGHT, 700)?.height).toBe(PANEL_MIN_HEIGHT);
    expect(resizeByKey(size, "Home", false, 300, 700)?.height).toBe(PANEL_MIN_HEIGHT);
  });
  it("a resize leaves the maximised state; End maximises; Enter toggles; other keys do nothing", () => {
    const maximised = { ...size, maximised: true };
    expect(resizeByKey(maximised, "ArrowDown", false, 700, 700)).toEqual({
      height: 676,
      collapsed: false,
      maximised: false,
    });
    expect(resizeByKey(size, "End", false, 300, 700)).toEqual({ ...size, maximised: true });
    expect(resizeByKey(size, "Enter", false, 300, 700)).toEqual({ ...size, maximised: true });
    expect(resizeByKey(size, "a", false, 300, 700)).toBeUndefined();
    expect(toggleMaximised(maximised)).toEqual(size);
  });
});
