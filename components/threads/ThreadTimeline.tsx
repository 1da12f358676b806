"use client";
// The timeline (Gantt) of a live tree: one row per thread in the tree's order and indentation, a bar
// from its creation to its end (growing to now, pulsing, while queued or running) in the shared
// status colours, a time axis, a tooltip (name, status and why, duration, tokens) on hover or focus,
// and a click (or Enter) on a bar selects the thread. Self-contained: give it the live state.
//
// Virtualised like the tree (fixed row height): 1,000 threads render only the rows in view, and the
// bars are placed from one O(rows) pass (selectTimeline), so a clock tick or an event is cheap.
import { type KeyboardEvent, memo, useEffect, useLayoutEffect, useMemo, useRef, useState } from "react";
import {
  barPlacement,
  type LiveState,
  type LiveThread,
  selectRegistryEntry,
  selectTimeline,
  selectTreeRows,
  statusDetail,
  type ThreadStatus,
  type TimelineBar,
  type TreeExpansion,
  timelineTicks,
} from "@/lib/live";
import { formatCost, formatDuration, formatTokens } from "./format";
import { StatusBadge } from "./StatusBadge";
import { threadStatusLabel } from "./status-label";
import { type ThreadLabel, threadLabel } from "./thread-label";
import { visibleRange } from "./tree-window";
import { useNowMicroseconds } from "./useLiveThread";

/** Row pitch of the timeline in px. */
export const TIMELINE_ROW_HEIGHT = 30;
const ALL_EXPANDED: TreeExpansion = { defaultExpanded: true, toggled: new Set<string>() };
const FALLBACK_VIEW_HEIGHT = 1200;
/** Width of the name column (px); indentation per level. */
const LABEL_WIDTH = 280;
const INDENT = 12;
/** The lane of the bars: right of the names, with a margin on the right (px; the axis's mr-3). */
const LANE_RIGHT = 12;
const LANE_INSET = LABEL_WIDTH + LANE_RIGHT;
/** Bars never get thinner than this (px), so an instant thread is still a target. */
const MIN_BAR_PX = 6;
/** Height of a bar (px; h-3.5). */
const BAR_HEIGHT = 14;

export function ThreadTimeline({
  state,
  selectedId,
  onSelect,
  expansion = ALL_EXPANDED,
}: {
  state: LiveState;
  selectedId: string;
  onSelect: (threadId: string) => void;
  /** The tree's expansion, so the timeline shows the same rows (all expanded when absent). */
  expansion?: TreeExpansion;
}) {
  const { threads, childrenByParent, roots } = state;
  // biome-ignore lint/correctness/useExhaustiveDependencies: recomputed exactly when the tree's own parts change
  const rows = useMemo(() => selectTreeRows(state, expansion), [threads, childrenByParent, roots, expansion]);
  const anyActive = state.statusCounts.queued + state.statusCounts.running > 0;
  const now = useNowMicroseconds(anyActive);
  const timeline = useMemo(() => selectTimeline(rows, now), [rows, now]);
  const ticks = useMemo(() => timelineTicks(timeline, 7), [timeline]);
  const scroller = useRef<HTMLDivElement>(null);
  const [view, setView] = useState({ scrollTop: 0, height: FALLBACK_VIEW_HEIGHT });
  const [hovered, setHovered] = useState<string | null>(null);
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

  useEffect(() => {
    if (focusPending.current !== selectedId) return;
    const target = scroller.current?.querySelector<HTMLElement>(`[data-bar-id="${selectedId}"]`);
    if (target) {
      target.focus();
      focusPending.current = null;
    }
  });

  function onKeyDown(event: KeyboardEvent) {
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
      const top = nextIndex * TIMELINE_ROW_HEIGHT;
      if (top < element.scrollTop) element.scrollTop = top;
      else if (top + TIMELINE_ROW_HEIGHT > element.scrollTop + element.clientHeight)
        element.scrollTop = top + TIMELINE_ROW_HEIGHT - element.clientHeight;
    }
    focusPending.current = next.id;
    setHovered(next.id);
    onSelect(next.id);
  }

  const [start, end] = visibleRange(rows.length, view.scrollTop, view.height, TIMELINE_ROW_HEIGHT);
  // The active bars in view pulse together in one shared layer (below), not one layer each: a jump
  // mounts a whole new window of rows, and every pulsing element would be a new composited layer.
  const [viewStart, viewEnd] = visibleRange(rows.length, view.scrollTop, view.height, TIMELINE_ROW_HEIGHT, 0);
  const pulsing: number[] = [];
  for (let index = viewStart; index < viewEnd; index++) if (timeline.bars[index]?.active) pulsing.push(index);
  const selectedVisible = rows.some((row) => row.id === selectedId);
  return (
    <div className="flex h-full min-h-0 flex-col" data-testid="thread-timeline">
      <div className="flex shrink-0 border-b border-border text-xs text-muted">
        <div className="shrink-0 px-2 py-1 font-medium" style={{ width: LABEL_WIDTH }}>
          Thread
        </div>
        <div className="relative mr-3 h-6 flex-1" aria-hidden>
          {ticks.map((tick) => (
            <span
              key={tick.label}
              className="absolute top-1 whitespace-nowrap"
              style={
                tick.at > 0.95
                  ? { right: 0 }
                  : { left: `${tick.at * 100}%`, transform: tick.at === 0 ? undefined : "translateX(-50%)" }
              }
            >
              {tick.label}
            </span>
          ))}
        </div>
      </div>
      <div
        ref={scroller}
        className="relative min-h-0 flex-1 overflow-y-auto"
        onScroll={(event) => {
          const { scrollTop, clientHeight } = event.currentTarget;
          setView({ scrollTop, height: clientHeight || FALLBACK_VIEW_HEIGHT });
        }}
      >
        {rows.length === 0 ? (
          <p className="px-3 py-2 text-muted">Waiting for the thread…</p>
        ) : (
          <div className="relative" style={{ height: rows.length * TIMELINE_ROW_HEIGHT }}>
            <div
              aria-hidden
              className="pointer-events-none absolute inset-y-0 right-3"
              style={{ left: LABEL_WIDTH }}
            >
              {ticks.map((tick) => (
                <span
                  key={tick.label}
                  className="absolute inset-y-0 border-l border-border"
                  style={{ left: `${tick.at * 100}%` }}
                />
              ))}
            </div>
            <ul
              aria-label="Timeline of the threads"
              data-rows={rows.length}
              className="absolute inset-0"
              onKeyDown={onKeyDown}
              onMouseLeave={() => setHovered(null)}
            >
              {rows.slice(start, end).map((row, offset) => {
                const index = start + offset;
                const bar = timeline.bars[index]!;
                const parentId = row.thread.parent_id;
                const entry = parentId ? selectRegistryEntry(state, parentId, row.id) : undefined;
                const { left, width } = barPlacement(timeline, bar);
                return (
                  <TimelineRow
                    key={row.id}
                    index={index}
                    thread={row.thread}
                    bar={bar}
                    {...labelProps(threadLabel(row.thread, entry))}
                    left={left}
                    width={width}
                    selected={row.id === selectedId}
                    focusable={row.id === selectedId || (!selectedVisible && index === 0)}
                    pulse={bar.active && index >= viewStart && index < viewEnd}
                    tooltip={
                      hovered === row.id ? (index >= rows.length - 3 && index > 2 ? "above" : "below") : null
                    }
                    onHover={setHovered}
                    onSelect={onSelect}
                  />
                );
              })}
            </ul>
            {pulsing.length > 0 ? (
              <div
                aria-hidden
                data-testid="timeline-pulse"
                className="pointer-events-none absolute inset-y-0 right-3 animate-pulse"
                style={{ left: LABEL_WIDTH }}
              >
                {pulsing.map((index) => {
                  const bar = timeline.bars[index]!;
                  const { left, width } = barPlacement(timeline, bar);
                  return (
                    <span
                      key={rows[index]!.id}
                      className="absolute h-3.5 rounded-sm"
                      style={{
                        top: index * TIMELINE_ROW_HEIGHT + (TIMELINE_ROW_HEIGHT - BAR_HEIGHT) / 2,
                        left: `${left * 100}%`,
                        width: `max(${MIN_BAR_PX}px, ${width * 100}%)`,
                        backgroundColor: `var(--status-${rows[index]!.thread.status})`,
                      }}
                    />
                  );
                })}
              </div>
            ) : null}
          </div>
        )}
      </div>
      <TimelineLegend counts={state.statusCounts} />
    </div>
  );
}

/** What the bars' colours mean: each status the tree has, with how many threads have it. */
function TimelineLegend({ counts }: { counts: LiveState["statusCounts"] }) {
  const present = (Object.entries(counts) as [ThreadStatus, number][]).filter(([, count]) => count > 0);
  if (present.length === 0) return null;
  return (
    <ul
      aria-label="Timeline legend"
      className="flex shrink-0 flex-wrap items-center gap-2 border-t border-border px-2 py-1 text-xs text-muted"
    >
      {present.map(([status, count]) => (
        <li key={status} data-status={status} className="flex items-center gap-1">
          <StatusBadge status={status} pulse={false} />
          <span>{count}</span>
        </li>
      ))}
    </ul>
  );
}

/** A label as strings, so a memoised row compares it by value. */
function labelProps(label: ThreadLabel): { name: string; agent: string | null; fullName: string } {
  return { name: label.primary, agent: label.agent, fullName: label.full };
}

const TimelineRow = memo(function TimelineRow({
  index,
  thread,
  bar,
  name,
  agent,
  fullName,
  left,
  width,
  selected,
  focusable,
  pulse,
  tooltip,
  onHover,
  onSelect,
}: {
  index: number;
  thread: LiveThread;
  bar: TimelineBar;
  name: string;
  agent: string | null;
  fullName: string;
  left: number;
  width: number;
  selected: boolean;
  focusable: boolean;
  /** Active and in the view proper (not the overscan): the shared pulse layer draws its colour. */
  pulse: boolean;
  tooltip: "above" | "below" | null;
  onHover: (threadId: string | null) => void;
  onSelect: (threadId: string) => void;
}) {
  const detail = statusDetail(thread);
  const duration = formatDuration(bar.end - bar.start);
  const tokens = `${formatTokens(thread.usage.input_tokens)} in · ${formatTokens(thread.usage.output_tokens)} out`;
  const center = left + width / 2;
  // The bar and its tooltip are placed in the row itself, across the lane right of the names.
  const lane = (fraction: number) => `calc(${LABEL_WIDTH}px + (100% - ${LANE_INSET}px) * ${fraction})`;
  return (
    <li
      data-thread-id={thread.id}
      data-status={thread.status}
      // A fixed box laid out on its own (contain: size layout style; not paint, so the tooltip shows
      // outside it, above the next rows).
      className={`absolute inset-x-0 flex items-center [contain:size_layout_style] ${selected ? "bg-surface-muted" : ""} ${tooltip ? "z-10" : ""}`}
      style={{ top: index * TIMELINE_ROW_HEIGHT, height: TIMELINE_ROW_HEIGHT }}
    >
      <div
        className="flex shrink-0 items-baseline gap-1 px-2 text-sm"
        style={{ width: LABEL_WIDTH, paddingLeft: 8 + bar.depth * INDENT }}
        title={fullName}
      >
        <span className="max-w-full shrink-0 truncate">{name}</span>
        {agent ? <span className="min-w-0 truncate font-mono text-xs text-muted">{agent}</span> : null}
      </div>
      <button
        type="button"
        data-bar-id={thread.id}
        tabIndex={focusable ? 0 : -1}
        aria-label={`${fullName}: ${threadStatusLabel(thread.status)}${detail ? ` (${detail.text})` : ""}, ${duration}, ${tokens}`}
        aria-current={selected ? "true" : undefined}
        onClick={() => onSelect(thread.id)}
        onMouseEnter={() => onHover(thread.id)}
        onFocus={() => onHover(thread.id)}
        onBlur={() => onHover(null)}
        className={`absolute top-1/2 h-3.5 -translate-y-1/2 cursor-pointer rounded-sm outline-none focus-visible:ring-2 focus-visible:ring-accent focus-visible:ring-offset-1 ${
          selected ? "ring-2 ring-text/60" : ""
        }`}
        style={{
          left: lane(left),
          width: `max(${MIN_BAR_PX}px, (100% - ${LANE_INSET}px) * ${width})`,
          // A pulsing bar's colour is drawn by the timeline's shared pulse layer, over this one.
          backgroundColor: pulse ? "transparent" : `var(--status-${thread.status})`,
        }}
      />
      {tooltip ? (
        <div
          role="tooltip"
          className={`pointer-events-none absolute z-10 w-max max-w-[min(20rem,45vw)] rounded-md border border-border bg-surface px-2 py-1.5 text-xs shadow-lg ${
            tooltip === "above" ? "bottom-full mb-1" : "top-full mt-1"
          }`}
          style={
            center > 0.5
              ? { right: `calc(${LANE_RIGHT}px + (100% - ${LANE_INSET}px) * ${1 - center})` }
              : { left: lane(center) }
          }
        >
          <div className="font-medium break-words">{fullName}</div>
          <div>
            <span style={{ color: `var(--status-${thread.status})` }} aria-hidden>
              ●{" "}
            </span>
            {threadStatusLabel(thread.status)}
            {detail ? <span className="text-muted"> · {detail.text}</span> : null}
          </div>
          <div className="text-muted">
            {duration}
            {bar.active ? " so far" : ""} · {tokens} · {formatCost(thread.usage.cost_usd)}
          </div>
        </div>
      ) : null}
    </li>
  );
});
