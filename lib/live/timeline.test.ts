import { describe, expect, it } from "vitest";
import { CHECKER, fanOutScript, RESEARCHER, ROOT, WRITER } from "../../test/support/live-scenario";
import { EventScript, stateFromFrames, threadWire } from "../../test/support/live-support";
import { applySseFrame } from "./reducer";
import { selectTreeRows, type TreeRow } from "./selectors";
import { barPlacement, selectTimeline, timelineTicks } from "./timeline";

const ALL = { defaultExpanded: true, toggled: new Set<string>() };
const state = stateFromFrames(ROOT, fanOutScript().frames);

describe("selectTimeline", () => {
  it("gives one bar per tree row, in tree order, from creation to the last update", () => {
    const rows = selectTreeRows(state, ALL);
    const now = Math.max(...rows.map((row) => row.thread.updated_at)) + 5_000_000;
    const timeline = selectTimeline(rows, now);
    expect(timeline.bars.map((bar) => bar.id)).toEqual(rows.map((row) => row.id));
    expect(timeline.bars.map((bar) => bar.depth)).toEqual(rows.map((row) => row.depth));
    for (const [index, bar] of timeline.bars.entries()) {
      const thread = rows[index]!.thread;
      expect(bar.start).toBe(thread.created_at);
      // Running (the writer) grows to now; the others end at their last update.
      expect(bar.end).toBe(bar.active ? now : thread.updated_at);
      expect(bar.active).toBe(thread.status === "running" || thread.status === "queued");
    }
    expect(timeline.bars.find((bar) => bar.id === WRITER)?.active).toBe(true);
    expect(timeline.start).toBe(Math.min(...rows.map((row) => row.thread.created_at)));
    expect(timeline.end).toBe(now);
  });

  it("follows a thread that ends: its bar stops growing", () => {
    const rows = selectTreeRows(state, ALL);
    const writer = rows.find((row) => row.id === WRITER)!.thread;
    const ended = applySseFrame(
      state,
      new EventScript(state.lastEventId + 1).thread(
        threadWire({ ...writer, status: "completed", updated_at: writer.created_at + 3_000_000 }),
      ),
    );
    const bar = selectTimeline(selectTreeRows(ended, ALL), writer.created_at + 60_000_000).bars.find(
      (candidate) => candidate.id === WRITER,
    )!;
    expect(bar).toMatchObject({ active: false, status: "completed", end: writer.created_at + 3_000_000 });
  });

  it("ends a settled thread's bar at finished_at, not at a later update (issue 41: after Terminate)", () => {
    const rows = selectTreeRows(state, ALL);
    const writer = rows.find((row) => row.id === WRITER)!.thread;
    const terminated = applySseFrame(
      state,
      new EventScript(state.lastEventId + 1).thread(
        threadWire({
          ...writer,
          status: "terminated",
          finished_at: writer.created_at + 3_000_000,
          updated_at: writer.created_at + 33_000_000,
        }),
      ),
    );
    const bar = selectTimeline(selectTreeRows(terminated, ALL), writer.created_at + 60_000_000).bars.find(
      (candidate) => candidate.id === WRITER,
    )!;
    expect(bar).toMatchObject({ active: false, status: "terminated", end: writer.created_at + 3_000_000 });
  });

  it("leaves out collapsed subtrees like the tree does", () => {
    const collapsed = selectTreeRows(state, { defaultExpanded: true, toggled: new Set([RESEARCHER]) });
    const ids = selectTimeline(collapsed, 0).bars.map((bar) => bar.id);
    expect(ids).toContain(RESEARCHER);
    expect(ids).not.toContain(CHECKER);
  });

  it("places bars as fractions of the axis and keeps a minimum span", () => {
    const rows = selectTreeRows(state, ALL);
    const timeline = selectTimeline(rows, rows[0]!.thread.created_at);
    expect(timeline.end - timeline.start).toBeGreaterThanOrEqual(1_000_000);
    for (const bar of timeline.bars) {
      const { left, width } = barPlacement(timeline, bar);
      expect(left).toBeGreaterThanOrEqual(0);
      expect(left + width).toBeLessThanOrEqual(1 + 1e-9);
    }
    const empty = selectTimeline([], 42);
    expect(empty.bars).toEqual([]);
    expect(empty.end).toBeGreaterThan(empty.start);
  });
});

describe("timelineTicks", () => {
  const axis = (seconds: number) => ({ bars: [], start: 0, end: seconds * 1_000_000 });

  it("picks round steps that fit the number of ticks", () => {
    expect(timelineTicks(axis(10), 6).map((tick) => tick.label)).toEqual([
      "0s",
      "2s",
      "4s",
      "6s",
      "8s",
      "10s",
    ]);
    expect(timelineTicks(axis(125), 6).map((tick) => tick.label)).toEqual([
      "0s",
      "30s",
      "1m",
      "1m 30s",
      "2m",
    ]);
    expect(timelineTicks(axis(7200), 5).map((tick) => tick.label)).toEqual([
      "0s",
      "30m",
      "1h",
      "1h 30m",
      "2h",
    ]);
  });

  it("places ticks as fractions of the axis", () => {
    const ticks = timelineTicks(axis(10), 6);
    expect(ticks[0]!.at).toBe(0);
    expect(ticks.at(-1)!.at).toBe(1);
    expect(ticks.length).toBeLessThanOrEqual(6);
  });
});

/** A tree row for a thread with these times (µs) and status. */
function row(id: string, status: string, createdAt: number, updatedAt: number, finishedAt?: number): TreeRow {
  const thread = threadWire({
    id,
    status,
    created_at: createdAt,
    updated_at: updatedAt,
    ...(finishedAt === undefined ? {} : { finished_at: finishedAt }),
  });
  return { id, depth: 0, hasChildren: false, expanded: true, thread: thread as TreeRow["thread"] };
}

describe("selectTimeline's axis", () => {
  it("runs from the earliest creation to the latest end, each bar from creation to its end", () => {
    const timeline = selectTimeline(
      [
        row("a", "completed", 5_000_000, 9_000_000),
        row("b", "running", 2_000_000, 3_000_000),
        row("c", "idle", 4_000_000, 6_000_000),
      ],
      8_000_000,
    );
    expect(timeline).toStrictEqual({
      start: 2_000_000,
      end: 9_000_000,
      bars: [
        { id: "a", depth: 0, status: "completed", start: 5_000_000, end: 9_000_000, active: false },
        { id: "b", depth: 0, status: "running", start: 2_000_000, end: 8_000_000, active: true },
        { id: "c", depth: 0, status: "idle", start: 4_000_000, end: 6_000_000, active: false },
      ],
    });
  });

  it("never ends a bar before it starts, and stretches a short axis to one second", () => {
    const timeline = selectTimeline([row("q", "queued", 5_000_000, 5_000_000)], 4_000_000);
    expect(timeline.bars[0]).toMatchObject({ start: 5_000_000, end: 5_000_000, active: true });
    expect([timeline.start, timeline.end]).toEqual([5_000_000, 6_000_000]);
    expect(selectTimeline([], 42)).toStrictEqual({ bars: [], start: 42, end: 1_000_042 });
  });

  it("places a bar by its start and length, cut at the axis end", () => {
    const timeline = { bars: [], start: 0, end: 10 };
    const bar = (start: number, end: number) => ({
      id: "x",
      depth: 0,
      status: "running" as const,
      start,
      end,
      active: true,
    });
    expect(barPlacement(timeline, bar(2, 7))).toEqual({ left: 0.2, width: 0.5 });
    expect(barPlacement(timeline, bar(8, 14))).toEqual({ left: 0.8, width: 1 - 0.8 });
    expect(barPlacement(timeline, bar(4, 4))).toEqual({ left: 0.4, width: 0 });
    expect(barPlacement(timeline, bar(12, 14))).toEqual({ left: 1.2, width: 0 });
    // An axis that does not start at 0 (every real one): places are relative to its start.
    const later = { bars: [], start: 100, end: 110 };
    expect(barPlacement(later, bar(102, 107))).toEqual({ left: 0.2, width: 0.5 });
    expect(barPlacement(later, bar(100, 110))).toEqual({ left: 0, width: 1 });
  });
});

describe("timelineTicks' labels and steps", () => {
  const axis = (seconds: number) => ({ bars: [], start: 0, end: seconds * 1_000_000 });
  const labels = (seconds: number, maxTicks: number) =>
    timelineTicks(axis(seconds), maxTicks).map((tick) => tick.label);

  it("writes whole hours, hours and minutes, and minutes with seconds", () => {
    expect(labels(3 * 3600, 4)).toEqual(["0s", "1h", "2h", "3h"]);
    expect(labels(5400, 4)).toEqual(["0s", "30m", "1h", "1h 30m"]);
    expect(labels(90, 4)).toEqual(["0s", "30s", "1m", "1m 30s"]);
    expect(labels(59, 2)).toEqual(["0s"]);
    expect(labels(60, 2)).toEqual(["0s", "1m"]);
    const fromNow = { bars: [], start: 1_700_000_000_000_000, end: 1_700_000_090_000_000 };
    expect(timelineTicks(fromNow, 4).map((tick) => [tick.at, tick.label])).toEqual([
      [0, "0s"],
      [1 / 3, "30s"],
      [2 / 3, "1m"],
      [1, "1m 30s"],
    ]);
  });

  it("uses the smallest step that fits, counting the start as a tick", () => {
    expect(labels(4, 5)).toEqual(["0s", "1s", "2s", "3s", "4s"]);
    expect(labels(5, 5)).toEqual(["0s", "2s", "4s"]);
    expect(labels(5, 1)).toEqual(["0s", "5s"]);
  });

  it("steps in whole days past the largest round step", () => {
    const ticks = timelineTicks(axis(10 * 86400), 3);
    expect(ticks.map((tick) => tick.label)).toEqual(["0s", "120h", "240h"]);
    expect(ticks.map((tick) => tick.at)).toEqual([0, 0.5, 1]);
    expect(labels(3 * 86400, 2)).toEqual(["0s", "72h"]);
  });
});
