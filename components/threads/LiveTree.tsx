"use client";
// The live tree of a root thread: every known thread with its name (instance name, registry title,
// agent; the whole of it in a tooltip), status in the shared colours with the reason next to it (a
// failure, the limit a stopped thread hit, reported progress), blocking/resumable markers from the
// parent's registry, rolled-up tokens and cost, and time running. Selecting a row picks the thread
// the transcript shows. A WAI-ARIA tree: Up/Down move, Right opens or enters a subtree, Left closes
// it or goes to the parent, Home/End jump, Enter/Space select; the chevron opens and closes too.
// Self-contained: give it the live state (and, to share it with the timeline, the expansion).
//
// Virtualised (fixed row height): a tree of 1,000 threads renders only the rows in view plus a few
// either side, and rows are memoised on the live state's persistent objects, so an event re-renders
// the rows it changed (docs/benchmarks.md, "UI").
import { type KeyboardEvent, memo, useEffect, useLayoutEffect, useMemo, useRef, useState } from "react";
import {
  type LiveState,
  type LiveThread,
  type RegistryEntry,
  selectRegistryEntry,
  selectSubtreeUsage,
  selectTimeRunning,
  selectTreeRows,
  statusDetail,
  type TreeExpansion,
  type TreeRow,
} from "@/lib/live";
import { formatCost, formatDuration, formatTokens } from "./format";
import { StatusBadge } from "./StatusBadge";
import { registryStatusText, threadStatusLabel } from "./status-label";
import { threadLabel } from "./thread-label";
import { TREE_ROW_HEIGHT, visibleRange } from "./tree-window";
import { useNowMicroseconds } from "./useLiveThread";
import { useTreeExpansion } from "./useTreeExpansion";

/** Width of the chevron column and the gap after it (rem), beside the row's indentation. */
const TOGGLE_REM = 1.5;
/** Before the first measurement (and without layout): enough rows for a tall window. */
const FALLBACK_VIEW_HEIGHT = 1200;

export function LiveTree({
  state,
  selectedId,
  onSelect,
  expansion: sharedExpansion,
  onExpandedChange,
}: {
  state: LiveState;
  selectedId: string;
  onSelect: (threadId: string) => void;
  /** Controlled expansion (useTreeExpansion), e.g. shared with the timeline; internal when absent. */
  expansion?: TreeExpansion;
  onExpandedChange?: (threadId: string, expanded: boolean) => void;
}) {
  const own = useTreeExpansion();
  const expansion = sharedExpansion ?? own.expansion;
  const setExpanded = onExpandedChange ?? own.setExpanded;
  // Rows depend only on the threads and the parent → children lists, not on transcripts or registries.
  const { threads, childrenByParent, roots } = state;
  // biome-ignore lint/correctness/useExhaustiveDependencies: recomputed exactly when the tree's own parts change
  const rows = useMemo(() => selectTreeRows(state, expansion), [threads, childrenByParent, roots, expansion]);
  const anyActive = state.statusCounts.queued + state.statusCounts.running > 0;
  const now = useNowMicroseconds(anyActive);
  const scroller = useRef<HTMLDivElement>(null);
  const [view, setView] = useState({ scrollTop: 0, height: FALLBACK_VIEW_HEIGHT });
  const focusPending = useRef<string | null>(null);

  useLayoutEffect(() => {
    const element = scroller.current;
    if (!element) return;
    const measure = () =>
      setView({ scrollTop: element.scrollTop, height: element.clientHeight || FALLBACK_VIEW_HEIGHT });
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  // After a keyboard move the new row may only now be rendered: focus it once it is.
  useEffect(() => {
    if (focusPending.current !== selectedId) return;
    const target = scroller.current?.querySelector<HTMLElement>(`[data-thread-id="${selectedId}"]`);
    if (target) {
      target.focus();
      focusPending.current = null;
    }
  });

  function moveTo(nextIndex: number) {
    const next = rows[nextIndex];
    if (!next) return;
    const element = scroller.current;
    if (element) {
      const top = nextIndex * TREE_ROW_HEIGHT;
      if (top < element.scrollTop) element.scrollTop = top;
      else if (top + TREE_ROW_HEIGHT > element.scrollTop + element.clientHeight)
        element.scrollTop = top + TREE_ROW_HEIGHT - element.clientHeight;
    }
    focusPending.current = next.id;
    onSelect(next.id);
  }

  function onKeyDown(event: KeyboardEvent) {
    const index = rows.findIndex((row) => row.id === selectedId);
    const row = rows[index];
    let nextIndex = -1;
    switch (event.key) {
      case "ArrowDown":
        nextIndex = index + 1;
        break;
      case "ArrowUp":
        nextIndex = index - 1;
        break;
      case "Home":
        nextIndex = 0;
        break;
      case "End":
        nextIndex = rows.length - 1;
        break;
      case "ArrowRight":
        if (!row?.hasChildren) return;
        event.preventDefault();
        if (row.expanded) moveTo(index + 1);
        else setExpanded(row.id, true);
        return;
      case "ArrowLeft":
        if (!row) return;
        event.preventDefault();
        if (row.hasChildren && row.expanded) setExpanded(row.id, false);
        else {
          const parentIndex = rows.findIndex((candidate) => candidate.id === row.thread.parent_id);
          if (parentIndex >= 0) moveTo(parentIndex);
        }
        return;
      default:
        return;
    }
    if (!rows[nextIndex] || nextIndex === index) return;
    event.preventDefault();
    moveTo(nextIndex);
  }

  const [start, end] = visibleRange(rows.length, view.scrollTop, view.height);
  // Only the rows in view pulse: each pulse is a composited layer, and a jump mounts a whole window.
  const [viewStart, viewEnd] = visibleRange(rows.length, view.scrollTop, view.height, TREE_ROW_HEIGHT, 0);
  // The selected row takes the tab stop; if it is hidden in a closed subtree, the first row does.
  const selectedVisible = rows.some((row) => row.id === selectedId);
  return (
    <div
      ref={scroller}
      className="h-full overflow-y-auto"
      onScroll={(event) => {
        const { scrollTop, clientHeight } = event.currentTarget;
        setView({ scrollTop, height: clientHeight || FALLBACK_VIEW_HEIGHT });
      }}
    >
      {rows.length === 0 ? (
        <p className="px-3 py-2 text-muted">Waiting for the thread…</p>
      ) : (
        <div
          role="tree"
          aria-label="Threads"
          data-rows={rows.length}
          className="relative p-1"
          style={{ height: rows.length * TREE_ROW_HEIGHT + 8 }}
          onKeyDown={onKeyDown}
        >
          {rows.slice(start, end).map((row, offset) => {
            const index = start + offset;
            const parentId = row.thread.parent_id;
            return (
              <TreeItem
                key={row.id}
                row={row}
                thread={row.thread}
                index={index}
                setSize={rows.length}
                entry={parentId ? selectRegistryEntry(state, parentId, row.id) : undefined}
                usage={usageKey(selectSubtreeUsage(state, row.id))}
                timeRunning={selectTimeRunning(state, row.id, now)}
                selected={row.id === selectedId}
                focusable={row.id === selectedId || (!selectedVisible && index === 0)}
                inView={index >= viewStart && index < viewEnd}
                onSelect={onSelect}
                onExpandedChange={setExpanded}
              />
            );
          })}
        </div>
      )}
    </div>
  );
}

/** Usage as a string, so a memoised row compares it by value. */
function usageKey(usage: { input_tokens: number; output_tokens: number; cost_usd: number }): string {
  return `${usage.input_tokens}|${usage.output_tokens}|${usage.cost_usd}`;
}

const TreeItem = memo(
  function TreeItem({
    row,
    thread,
    index,
    setSize,
    entry,
    usage,
    timeRunning,
    selected,
    focusable,
    inView,
    onSelect,
    onExpandedChange,
  }: {
    row: TreeRow;
    thread: LiveThread;
    index: number;
    setSize: number;
    entry: RegistryEntry | undefined;
    usage: string;
    timeRunning: number | null;
    selected: boolean;
    focusable: boolean;
    /** In the view proper, not the overscan: only then does a running status pulse. */
    inView: boolean;
    onSelect: (threadId: string) => void;
    onExpandedChange: (threadId: string, expanded: boolean) => void;
  }) {
    const [inputTokens, outputTokens, cost] = usage.split("|").map(Number) as [number, number, number];
    const name = threadLabel(thread, entry);
    // A registry status update (sessionStatus, setStatus) is newer than the thread's status text.
    const reported = registryStatusText(thread.status, entry?.status);
    const detail = statusDetail(reported ? { ...thread, status_text: reported } : thread);
    const markers = entry
      ? `${entry.blocking ? "blocking" : "non-blocking"}${entry.resumable ? ", resumable" : ""}`
      : "";
    const indent = 0.25 + row.depth * 1.125;
    const usageText = `${formatTokens(inputTokens)} in · ${formatTokens(outputTokens)} out\u2003${formatCost(cost)}${
      timeRunning !== null ? `\u2003${formatDuration(timeRunning)}` : ""
    }`;
    const label = `${name.full}, ${threadStatusLabel(thread.status)}${detail ? `: ${detail.text}` : ""}${markers ? `, ${markers}` : ""}`;
    return (
      <div
        role="treeitem"
        aria-selected={selected}
        aria-expanded={row.hasChildren ? row.expanded : undefined}
        aria-level={row.depth + 1}
        aria-posinset={index + 1}
        aria-setsize={setSize}
        title={label}
        data-thread-id={thread.id}
        data-status={thread.status}
        tabIndex={focusable ? 0 : -1}
        onClick={() => onSelect(thread.id)}
        onKeyDown={(event) => {
          if (event.key === "Enter" || event.key === " ") {
            event.preventDefault();
            onSelect(thread.id);
          }
        }}
        style={{
          top: 4 + index * TREE_ROW_HEIGHT,
          height: TREE_ROW_HEIGHT - 2,
          paddingLeft: `${indent + TOGGLE_REM}rem`,
        }}
        // Each row is a fixed box laid out and painted on its own (contain: strict): a jump that
        // mounts a new window of rows lays out and paints only those rows.
        className={`absolute inset-x-1 cursor-pointer overflow-hidden rounded-md py-1 pr-2 outline-none [contain:strict] focus-visible:ring-2 focus-visible:ring-accent ${
          selected ? "bg-surface-muted" : "hover:bg-surface-muted/60"
        }`}
      >
        {row.hasChildren ? (
          <button
            type="button"
            tabIndex={-1}
            aria-hidden
            data-testid="tree-toggle"
            style={{ left: `${indent}rem` }}
            className={`absolute top-1.5 flex size-5 items-center justify-center rounded text-muted transition-transform hover:bg-border ${row.expanded ? "rotate-90" : ""}`}
            onClick={(event) => {
              event.stopPropagation();
              onExpandedChange(thread.id, !row.expanded);
            }}
          >
            ▸
          </button>
        ) : null}
        <div className="flex min-w-0 items-baseline gap-2">
          <span className="max-w-full shrink-0 truncate text-sm font-medium" data-testid="tree-name">
            {name.primary}
          </span>
          {/* The space keeps the accessible name readable ("alpha asset_subagent"); flex hides it. */}{" "}
          {name.agent ? (
            <span className="min-w-0 truncate font-mono text-xs text-muted">{name.agent}</span>
          ) : null}
        </div>
        <div className="flex min-w-0 items-center gap-2">
          <StatusBadge status={thread.status} pulse={inView} />
          {detail ? (
            <span
              className={`min-w-0 truncate text-xs ${detail.tone === "problem" ? (thread.status === "failed" ? "text-danger" : "text-text") : "text-muted"}`}
              data-testid="tree-status-detail"
            >
              {detail.text}
            </span>
          ) : null}
        </div>
        {/* One text for the figures: an em space at text-xs is the 12 px gap that separate boxes had. */}
        <div className="flex gap-3 whitespace-nowrap text-xs text-muted">
          {usageText}
          {entry ? (
            <span className="ml-auto shrink-0 rounded border border-border px-1 text-[11px]">
              {entry.blocking ? "blocking" : "non-blocking"}
            </span>
          ) : null}
          {entry?.resumable ? (
            <span className="-ml-2 shrink-0 rounded border border-border px-1 text-[11px]">resumable</span>
          ) : null}
        </div>
      </div>
    );
  },
  // `row` is rebuilt on every tree walk; what it carries (thread, depth, children) is compared instead.
  (previous, next) =>
    previous.thread === next.thread &&
    previous.row.depth === next.row.depth &&
    previous.row.hasChildren === next.row.hasChildren &&
    previous.row.expanded === next.row.expanded &&
    previous.index === next.index &&
    previous.setSize === next.setSize &&
    previous.entry === next.entry &&
    previous.usage === next.usage &&
    formatDurationKey(previous.timeRunning) === formatDurationKey(next.timeRunning) &&
    previous.selected === next.selected &&
    previous.focusable === next.focusable &&
    previous.inView === next.inView &&
    previous.onSelect === next.onSelect &&
    previous.onExpandedChange === next.onExpandedChange,
);

/** Time running changes every µs but shows whole seconds: compare what is shown. */
function formatDurationKey(timeRunning: number | null): string {
  return timeRunning === null ? "" : formatDuration(timeRunning);
}
