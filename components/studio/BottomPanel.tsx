"use client";
// The studio's bottom panel: Problems beside the code. Its top edge is a separator that resizes it by
// drag or keyboard (↑/↓, Page Up/Down, Home, End; Enter or a double-click maximises up to the toolbar);
// it collapses to one bar; the size is remembered in localStorage.
import { type PointerEvent as ReactPointerEvent, useEffect, useRef, useState } from "react";
import {
  clampHeight,
  PANEL_MIN_HEIGHT,
  PANEL_STORAGE_KEY,
  type PanelSize,
  parsePanelSize,
  resizeByKey,
  toggleMaximised,
} from "@/lib/studio/panel-size";
import { CodePane } from "./CodePane";
import { ProblemsPanel, useStudioProblems } from "./ProblemsPanel";

const BAR_BUTTON = "rounded px-2 py-0.5 text-xs font-semibold hover:bg-surface-muted";
/** A flex basis no screen reaches: the panel then shrinks to all the height its siblings leave. */
const MAXIMISED_BASIS = 100_000;

/**
 * The element that lays the panel out, and the panel's own box among its children: wrappers with
 * `display: contents` (the studio's F6 regions) have no box, so they are looked through.
 */
function layoutOf(panel: HTMLElement): { parent: HTMLElement | null; own: Element } {
  let own: Element = panel;
  let parent = panel.parentElement;
  while (parent && getComputedStyle(parent).display === "contents") {
    own = parent;
    parent = parent.parentElement;
  }
  return { parent, own };
}

/** The most the panel can take: its own height plus that of the growing siblings (the canvas row). */
function maxHeightOf(panel: HTMLElement): number {
  let max = panel.getBoundingClientRect().height;
  const { parent, own } = layoutOf(panel);
  for (const sibling of parent?.children ?? []) {
    if (sibling === own || !(sibling instanceof HTMLElement)) continue;
    if (Number(getComputedStyle(sibling).flexGrow) > 0) max += sibling.getBoundingClientRect().height;
  }
  return Math.round(max);
}

function usePanelSize() {
  // The server renders the default; the stored size is read after hydration so both renders agree.
  const [size, setSize] = useState<PanelSize>(() => parsePanelSize(null));
  useEffect(() => {
    try {
      setSize(parsePanelSize(localStorage.getItem(PANEL_STORAGE_KEY)));
    } catch {
      // Storage disabled: the default size.
    }
  }, []);
  const update = (next: PanelSize) => {
    setSize(next);
    try {
      localStorage.setItem(PANEL_STORAGE_KEY, JSON.stringify(next));
    } catch {
      // Storage full or disabled: the size still applies for this visit.
    }
  };
  return [size, update] as const;
}

export function BottomPanel() {
  const panelRef = useRef<HTMLDivElement>(null);
  const [size, setSize] = usePanelSize();
  const [onScreen, setOnScreen] = useState({ height: size.height, max: size.height });
  const problems = useStudioProblems();

  useEffect(() => {
    const panel = panelRef.current;
    if (!panel) return;
    const measure = () =>
      setOnScreen({ height: Math.round(panel.getBoundingClientRect().height), max: maxHeightOf(panel) });
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(panel);
    const { parent } = layoutOf(panel);
    if (parent) observer.observe(parent);
    return () => observer.disconnect();
  }, []);

  const startDrag = (event: ReactPointerEvent<HTMLDivElement>) => {
    const panel = panelRef.current;
    if (!panel || event.button !== 0) return;
    event.preventDefault();
    const startY = event.clientY;
    const startHeight = panel.getBoundingClientRect().height;
    const max = maxHeightOf(panel);
    const handle = event.currentTarget;
    handle.setPointerCapture(event.pointerId);
    let latest = size;
    const onMove = (move: PointerEvent) => {
      latest = {
        height: clampHeight(startHeight + startY - move.clientY, max),
        collapsed: false,
        maximised: false,
      };
      panel.style.flexBasis = `${latest.height}px`;
    };
    const onUp = () => {
      handle.removeEventListener("pointermove", onMove);
      handle.removeEventListener("pointerup", onUp);
      handle.removeEventListener("pointercancel", onUp);
      setSize(latest);
    };
    handle.addEventListener("pointermove", onMove);
    handle.addEventListener("pointerup", onUp);
    handle.addEventListener("pointercancel", onUp);
  };

  const basis = size.collapsed ? undefined : size.maximised ? MAXIMISED_BASIS : size.height;
  const controls = (
    <>
      <button
        type="button"
        className={BAR_BUTTON}
        aria-pressed={size.maximised}
        onClick={() => setSize(toggleMaximised(size))}
        title="Maximise or restore the panel (double-click its top edge)"
      >
        {size.maximised ? "Restore" : "Maximise"}
      </button>
      <button
        type="button"
        className={BAR_BUTTON}
        aria-expanded={!size.collapsed}
        aria-controls="studio-bottom-panel"
        onClick={() => setSize({ ...size, collapsed: !size.collapsed })}
      >
        {size.collapsed ? "Show" : "Hide"}
      </button>
    </>
  );

  return (
    <div
      ref={panelRef}
      id="studio-bottom-panel"
      className="relative flex min-h-0 shrink flex-col border-t border-border bg-surface"
      style={basis === undefined ? { flex: "0 0 auto" } : { flex: `0 1 ${basis}px` }}
    >
      {size.collapsed ? (
        <div className="flex h-7 items-center gap-2 px-3">
          <h2 className="text-xs font-semibold">
            Problems <span className="text-muted">({problems.count})</span>
          </h2>
          <span className="text-xs font-semibold">Code</span>
          <span className="flex-1" />
          {controls}
        </div>
      ) : (
        <>
          {/* biome-ignore lint/a11y/useSemanticElements: an <hr> cannot be focused and dragged; a focusable separator is the ARIA window-splitter pattern. */}
          <div
            role="separator"
            aria-orientation="horizontal"
            aria-label="Resize the problems and code panel"
            aria-controls="studio-bottom-panel"
            aria-valuemin={PANEL_MIN_HEIGHT}
            aria-valuemax={Math.max(onScreen.max, onScreen.height, PANEL_MIN_HEIGHT)}
            aria-valuenow={onScreen.height}
            tabIndex={0}
            title="Drag, or use ↑/↓, to resize; double-click to maximise"
            onPointerDown={startDrag}
            onDoubleClick={() => setSize(toggleMaximised(size))}
            onKeyDown={(event) => {
              const panel = panelRef.current;
              if (!panel) return;
              const next = resizeByKey(
                size,
                event.key,
                event.shiftKey,
                panel.getBoundingClientRect().height,
                maxHeightOf(panel),
              );
              if (!next) return;
              event.preventDefault();
              setSize(next);
            }}
            className="group absolute inset-x-0 -top-1 z-10 flex h-2 cursor-row-resize justify-center focus-visible:outline-none"
          >
            <span className="mt-[3px] h-0.5 w-full bg-transparent group-hover:bg-accent group-focus-visible:bg-accent" />
          </div>
          <div className="flex min-h-0 flex-1">
            <div className="flex w-[34%] min-w-64 max-w-md min-h-0">
              <ProblemsPanel />
            </div>
            <CodePane actions={controls} />
          </div>
        </>
      )}
    </div>
  );
}
