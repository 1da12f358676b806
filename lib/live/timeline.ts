// The timeline (Gantt) of a live tree: one bar per tree row, from the thread's creation to when it
// stopped working (`workEndedAt`; to `now` while it is queued or running), on one time axis, plus
// the axis's tick marks.
// Pure and O(rows): the browser recomputes it per frame or per clock tick.
import { isActiveStatus, workEndedAt } from "./apply-thread";
import type { ThreadStatus } from "./events";
import type { TreeRow } from "./selectors";

export interface TimelineBar {
  id: string;
  depth: number;
  status: ThreadStatus;
  /** Microseconds since the epoch. */
  start: number;
  end: number;
  /** Still growing (queued or running): the bar ends at `now`. */
  active: boolean;
}

export interface Timeline {
  bars: TimelineBar[];
  /** The axis, in microseconds; `end > start` whenever there is a bar. */
  start: number;
  end: number;
}

/** Shortest axis shown: a tree that ran for 50 ms still gets a readable axis. */
const MIN_SPAN_MICROSECONDS = 1_000_000;

export function selectTimeline(rows: readonly TreeRow[], nowMicroseconds: number): Timeline {
  let start = Number.POSITIVE_INFINITY;
  let end = Number.NEGATIVE_INFINITY;
  const bars: TimelineBar[] = [];
  for (const { id, depth, thread } of rows) {
    const active = isActiveStatus(thread.status);
    const barEnd = Math.max(thread.created_at, active ? nowMicroseconds : workEndedAt(thread));
    bars.push({ id, depth, status: thread.status, start: thread.created_at, end: barEnd, active });
    if (thread.created_at < start) start = thread.created_at;
    if (barEnd > end) end = barEnd;
  }
  if (rows.length === 0)
    return { bars, start: nowMicroseconds, end: nowMicroseconds + MIN_SPAN_MICROSECONDS };
  return { bars, start, end: Math.max(end, start + MIN_SPAN_MICROSECONDS) };
}

/** Where a bar sits on the axis, as fractions of its width: `left` and `width` in [0, 1]. */
export function barPlacement(timeline: Timeline, bar: TimelineBar): { left: number; width: number } {
  const span = timeline.end - timeline.start;
  const left = (bar.start - timeline.start) / span;
  return { left, width: Math.max(0, Math.min(1 - left, (bar.end - bar.start) / span)) };
}

const TICK_STEPS_SECONDS = [
  1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 21600, 43200, 86400,
];

export interface TimelineTick {
  /** Fraction of the axis width. */
  at: number;
  /** Time since the axis start: `0s`, `30s`, `2m`, `1h 30m`. */
  label: string;
}

/** Round-numbered ticks, at most `maxTicks` (≥ 2) of them, from the axis start. */
export function timelineTicks(timeline: Timeline, maxTicks: number): TimelineTick[] {
  const spanSeconds = (timeline.end - timeline.start) / 1_000_000;
  const wanted = Math.max(1, maxTicks - 1);
  const step =
    TICK_STEPS_SECONDS.find((candidate) => spanSeconds / candidate <= wanted) ??
    Math.ceil(spanSeconds / wanted / 86400) * 86400;
  const ticks: TimelineTick[] = [];
  for (let seconds = 0; seconds <= spanSeconds; seconds += step)
    ticks.push({ at: seconds / spanSeconds, label: tickLabel(seconds) });
  return ticks;
}

function tickLabel(seconds: number): string {
  if (seconds < 60) return `${seconds}s`;
  if (seconds < 3600)
    return seconds % 60 === 0 ? `${seconds / 60}m` : `${Math.floor(seconds / 60)}m ${seconds % 60}s`;
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  return minutes === 0 ? `${hours}h` : `${hours}h ${minutes}m`;
}
