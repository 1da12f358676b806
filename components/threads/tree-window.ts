// The window of a virtualised list with a fixed row height: which rows to render for a scroll
// position. Pure, so the live tree's virtualisation is tested without a browser.

/** Row pitch of the live tree in px: 62 px rows (name, status reason, usage) and a 2 px gap. */
export const TREE_ROW_HEIGHT = 64;
/** Rows rendered beyond each edge of the view, so fast scrolling rarely shows a gap. */
export const OVERSCAN = 8;

/** The rows to render, [start, end), for `scrollTop` and the view's height. */
export function visibleRange(
  rowCount: number,
  scrollTop: number,
  viewHeight: number,
  rowHeight = TREE_ROW_HEIGHT,
  overscan = OVERSCAN,
): [number, number] {
  const top = Math.max(0, scrollTop);
  const first = Math.floor(top / rowHeight);
  const last = Math.ceil((top + Math.max(0, viewHeight)) / rowHeight);
  return [Math.min(rowCount, Math.max(0, first - overscan)), Math.min(rowCount, last + overscan)];
}
