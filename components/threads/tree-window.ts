// The window of a virtualised list with a fixed row height: which rows to render for a scroll
// position. Pure, so the live tree's virtualisation is tested without a browser.

/** Row pitch of the live tree in px: 62 px rows (name, status reason, usage) and a 2 px gap. */
export const TREE_ROW_HEIGHT = 64;
/**
 * Rendered beyond each edge of the view, in px, so fast scrolling rarely shows a gap: about five
 * frames of a fast wheel or touch fling. Counted in px, not rows, so tall rows (the tree's 64 px)
 * mount no more than the timeline's short ones: a jump (scrollbar drag, Page Down) mounts the whole
 * window, and each row mounted is style, layout and paint in that one frame.
 */
export const OVERSCAN_PX = 256;

/** The rows that cover OVERSCAN_PX at `rowHeight`. */
export function overscanRows(rowHeight: number): number {
  return Math.ceil(OVERSCAN_PX / Math.max(1, rowHeight));
}

/** The rows to render, [start, end), for `scrollTop` and the view's height. */
export function visibleRange(
  rowCount: number,
  scrollTop: number,
  viewHeight: number,
  rowHeight = TREE_ROW_HEIGHT,
  overscan = overscanRows(rowHeight),
): [number, number] {
  const top = Math.max(0, scrollTop);
  const first = Math.floor(top / rowHeight);
  const last = Math.ceil((top + Math.max(0, viewHeight)) / rowHeight);
  return [Math.min(rowCount, Math.max(0, first - overscan)), Math.min(rowCount, last + overscan)];
}
