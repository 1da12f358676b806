"use client";
// The live tree of a root thread: every known thread with its status, agent, instance name, subagent
// markers from the parent's registry, rolled-up usage and time running. Selecting a row picks the
// thread the transcript shows. Keyboard: arrow keys move the selection, Home/End jump.
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
  type TreeRow,
} from "@/lib/live";
import { formatCost, formatDuration, formatTokens } from "./format";
import { StatusBadge } from "./StatusBadge";
import { TREE_ROW_HEIGHT, visibleRange } from "./tree-window";
import { useNowMicroseconds } from "./useLiveThread";

const ALL_EXPANDED = { defaultExpanded: true, toggled: new Set<string>() };
/** Before the first measurement (and without layout): enough rows for a tall window. */
const FALLBACK_VIEW_HEIGHT = 1200;
export function LiveTree({
  state,
  selectedId,
  onSelect,
}: {
  state: LiveState;
  selectedId: string;
  onSelect: (threadId: string) => void;
}) {
  // Rows depend only on the threads and the parent → children lists, not on transcripts or registries.
  const { threads, childrenByParent, roots } = state;
  // biome-ignore lint/correctness/useExhaustiveDependencies: recomputed exactly when the tree's own parts change
  const rows = useMemo(() => selectTreeRows(state, ALL_EXPANDED), [threads, childrenByParent, roots]);
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

  function moveSelection(event: KeyboardEvent) {
    const index = rows.findIndex((row) => row.id === selectedId);
    const nextIndex =
      event.key === "ArrowDown"
        ? index + 1
        : event.key === "ArrowUp"
          ? index - 1
          : event.key === "Home"
            ? 0
            : event.key === "End"
              ? rows.length - 1
              : -1;
    const next = rows[nextIndex];
    if (!next || nextIndex === index) return;
    event.preventDefault();
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

  const [start, end] = visibleRange(rows.length, view.scrollTop, view.height);
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
          onKeyDown={moveSelection}
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
                onSelect={onSelect}
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
    onSelect,
  }: {
    row: TreeRow;
    thread: LiveThread;
    index: number;
    setSize: number;
    entry: RegistryEntry | undefined;
    usage: string;
    timeRunning: number | null;
    selected: boolean;
    onSelect: (threadId: string) => void;
  }) {
    const [inputTokens, outputTokens, cost] = usage.split("|").map(Number) as [number, number, number];
    const label = `${thread.name ?? thread.agent_id} (${thread.agent_id}), ${thread.status}`;
    // A status update (sessionStatus, setStatus) describes work in progress: an ended thread shows none.
    const ended = ["completed", "failed", "stopped", "terminated"].includes(thread.status);
    const statusText = ended
      ? null
      : entry?.status && entry.status !== thread.status
        ? entry.status
        : thread.status_text;
    return (
      <div
        role="treeitem"
        aria-selected={selected}
        aria-level={row.depth + 1}
        aria-posinset={index + 1}
        aria-setsize={setSize}
        aria-label={label}
        data-thread-id={thread.id}
        data-status={thread.status}
        tabIndex={selected ? 0 : -1}
        onClick={() => onSelect(thread.id)}
        onKeyDown={(event) => {
          if (event.key === "Enter" || event.key === " ") {
            event.preventDefault();
            onSelect(thread.id);
          }
        }}
        style={{
          position: "absolute",
          top: 4 + index * TREE_ROW_HEIGHT,
          left: 4,
          right: 4,
          height: TREE_ROW_HEIGHT - 2,
          paddingLeft: `${0.5 + row.depth * 1.25}rem`,
        }}
        className={`cursor-pointer overflow-hidden rounded-md py-1.5 pr-2 outline-none focus-visible:ring-2 focus-visible:ring-accent ${
          selected ? "bg-surface-muted" : "hover:bg-surface-muted/60"
        }`}
      >
        <div className="flex items-center gap-2">
          <StatusBadge status={thread.status} />
          <span className="truncate font-mono text-sm">{thread.agent_id}</span>
          {thread.name ? <span className="truncate text-sm text-muted">“{thread.name}”</span> : null}
          {entry ? (
            <span className="ml-auto flex gap-1 text-[10px] uppercase tracking-wide text-muted">
              <span className="rounded border border-border px-1">
                {entry.blocking ? "blocking" : "non-blocking"}
              </span>
              {entry.resumable ? <span className="rounded border border-border px-1">resumable</span> : null}
            </span>
          ) : null}
        </div>
        <div className="flex gap-3 whitespace-nowrap text-xs text-muted">
          <span title="Tokens in / out, this thread and its descendants">
            {formatTokens(inputTokens)} in · {formatTokens(outputTokens)} out
          </span>
          <span title="Cost, this thread and its descendants">{formatCost(cost)}</span>
          {timeRunning !== null ? <span title="Time running">{formatDuration(timeRunning)}</span> : null}
          {statusText ? (
            <span className="truncate italic" title="Status reported by the subagent">
              {statusText}
            </span>
          ) : null}
        </div>
      </div>
    );
  },
  // `row` is rebuilt on every tree walk; what it carries (thread, depth) is compared instead.
  (previous, next) =>
    previous.thread === next.thread &&
    previous.row.depth === next.row.depth &&
    previous.index === next.index &&
    previous.setSize === next.setSize &&
    previous.entry === next.entry &&
    previous.usage === next.usage &&
    formatDurationKey(previous.timeRunning) === formatDurationKey(next.timeRunning) &&
    previous.selected === next.selected &&
    previous.onSelect === next.onSelect,
);

/** Time running changes every µs but shows whole seconds: compare what is shown. */
function formatDurationKey(timeRunning: number | null): string {
  return timeRunning === null ? "" : formatDuration(timeRunning);
}
