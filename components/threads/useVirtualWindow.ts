"use client";
// The rows to render of a virtualised list with a fixed row height (the live tree, the timeline): the
// rows in view and a couple either side at once, the full overscan once the view has stayed put for a
// moment. While the view moves fast (a scrollbar drag, a fling, Page Down held) each frame then
// styles, lays out and paints only the rows it shows, not an overscan that is scrolled past before
// anyone sees it (docs/benchmarks.md, "The live tree and its timeline").
import { type RefObject, type UIEvent, useEffect, useLayoutEffect, useRef, useState } from "react";
import { MOVING_OVERSCAN, OVERSCAN, visibleRange, windowRanges } from "./tree-window";

/** Before the first measurement (and without layout): enough rows for a tall window. */
const FALLBACK_VIEW_HEIGHT = 1200;
/** The full overscan follows the view once it has not moved for this long (ms). */
export const SETTLE_MS = 100;

export interface VirtualWindow {
  scrollerRef: RefObject<HTMLDivElement | null>;
  onScroll: (event: UIEvent<HTMLDivElement>) => void;
  /** Row index ranges [start, end) to render, in order. */
  ranges: [number, number][];
}

export function useVirtualWindow(rowCount: number, rowHeight: number): VirtualWindow {
  const scrollerRef = useRef<HTMLDivElement>(null);
  const [view, setView] = useState({ scrollTop: 0, height: FALLBACK_VIEW_HEIGHT });
  // The view the full overscan was last placed for: it follows `view` once the view stays put.
  const [settled, setSettled] = useState(view);

  useLayoutEffect(() => {
    const element = scrollerRef.current;
    if (!element) return;
    const measure = () =>
      setView({ scrollTop: element.scrollTop, height: element.clientHeight || FALLBACK_VIEW_HEIGHT });
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  useEffect(() => {
    if (settled === view) return;
    const timer = setTimeout(() => setSettled(view), SETTLE_MS);
    return () => clearTimeout(timer);
  }, [view, settled]);

  const onScroll = (event: UIEvent<HTMLDivElement>) => {
    const { scrollTop, clientHeight } = event.currentTarget;
    setView({ scrollTop, height: clientHeight || FALLBACK_VIEW_HEIGHT });
  };

  const ranges = windowRanges(
    visibleRange(rowCount, view.scrollTop, view.height, rowHeight, MOVING_OVERSCAN),
    visibleRange(rowCount, settled.scrollTop, settled.height, rowHeight, OVERSCAN),
  );
  return { scrollerRef, onScroll, ranges };
}
