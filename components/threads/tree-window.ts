// The window of a virtualised list with a fixed row height: which rows to render for a scroll
// position. Pure, so the live tree's virtualisation is tested without a browser.

/** Row pitch of the live tree in px: 62 px rows (name, status reason, usage) and a 2 px gap. */
export const TREE_ROW_HEIGHT = 64;
/** Rows rendered beyond each edge of the view, so fast scrolling rarely shows a gap. */
export const OVERSCAN = 8;
/** Rows rendered beyond each edge while the view moves (the full overscan follows when it stops). */
export const MOVING_OVERSCAN = 2;

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

/**
 * The row ranges to render when the rows in view come at once and the full overscan later: `inView`
 * (for the current scroll position) and `padded` (for where the view last stayed put, with the full
 * overscan), merged when they overlap or touch, else both, in order.
 */
export function windowRanges(inView: [number, number], padded: [number, number]): [number, number][] {
  const ranges = [inView, padded]
    .filter(([start, end]) => end > start)
    .sort((left, right) => left[0] - right[0]);
  if (ranges.length < 2) return ranges.map(([start, end]) => [start, end]);
  const [first, second] = ranges as [[number, number], [number, number]];
  if (second[0] <= first[1]) return [[first[0], Math.max(first[1], second[1])]];
  return [
    [first[0], first[1]],
    [second[0], second[1]],
  ];
}
