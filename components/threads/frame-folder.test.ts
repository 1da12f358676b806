import { describe, expect, it } from "vitest";
import { initialLiveState, type LiveState } from "@/lib/live";
import { fanOutScript, ROOT } from "../../test/support/live-scenario";
import { stateFromFrames } from "../../test/support/live-support";
import { createFrameFolder, FOLD_SLICE_MS, type FolderClock, PROGRESS_EVERY_MS } from "./frame-folder";

/** A clock the test moves: every look at it advances it by `costMs` (the cost of folding a frame). */
function fakeClock(costMs: number) {
  let time = 0;
  const frames: (() => void)[] = [];
  const timers = new Map<number, { callback: () => void; ms: number }>();
  let nextTimer = 1;
  const clock: FolderClock = {
    now: () => {
      time += costMs;
      return time;
    },
    requestFrame: (callback) => frames.push(callback),
    cancelFrame: (handle) => {
      if (handle > 0) frames[handle - 1] = () => {};
    },
    setTimer: (callback, ms) => {
      timers.set(nextTimer, { callback, ms });
      return nextTimer++ as unknown as ReturnType<typeof setTimeout>;
    },
    clearTimer: (handle) => {
      timers.delete(handle as unknown as number);
    },
  };
  return {
    clock,
    /** Runs the animation frames requested so far. */
    frame() {
      for (const callback of frames.splice(0)) callback();
    },
    /** Runs the earliest timer with at most `upToMs` delay; false when there is none. */
    timer(upToMs: number) {
      const due = [...timers.entries()]
        .filter(([, timer]) => timer.ms <= upToMs)
        .sort((a, b) => a[1].ms - b[1].ms)[0];
      if (!due) return false;
      timers.delete(due[0]);
      due[1].callback();
      return true;
    },
    pendingTimers: () => timers.size,
  };
}

const frames = fanOutScript().frames;
const folded = stateFromFrames(ROOT, frames);

describe("createFrameFolder", () => {
  it("folds what arrives before the next animation frame at once and reports it once", () => {
    const fake = fakeClock(0);
    const states: LiveState[] = [];
    const folder = createFrameFolder(initialLiveState(ROOT), (state) => states.push(state), fake.clock);
    for (const frame of frames) folder.push(frame);
    expect(states).toEqual([]);
    expect(folder.backlog()).toBe(frames.length);
    fake.frame();
    expect(states).toHaveLength(1);
    expect(states[0]).toEqual(folded);
    expect(folder.backlog()).toBe(0);
    // The fallback timer of that batch was cancelled with it.
    expect(fake.pendingTimers()).toBe(0);
  });

  it("folds without animation frames (a hidden tab) on the fallback timer", () => {
    const fake = fakeClock(0);
    const states: LiveState[] = [];
    const folder = createFrameFolder(initialLiveState(ROOT), (state) => states.push(state), fake.clock);
    for (const frame of frames) folder.push(frame);
    expect(fake.timer(250)).toBe(true);
    expect(states.at(-1)).toEqual(folded);
  });

  it("splits a long backlog into slices with a yield between them, and ends in the same state", () => {
    // Every look at the clock costs 1 ms: a slice stops after FOLD_SLICE_MS.
    const fake = fakeClock(1);
    const states: LiveState[] = [];
    const folder = createFrameFolder(initialLiveState(ROOT), (state) => states.push(state), fake.clock);
    const many = [...frames, ...frames, ...frames, ...frames, ...frames, ...frames, ...frames, ...frames];
    for (const frame of many) folder.push(frame);
    fake.frame();
    const afterFirstSlice = folder.backlog();
    expect(afterFirstSlice).toBeGreaterThan(0);
    expect(afterFirstSlice).toBeLessThan(many.length);
    expect(states).toEqual([]);
    let slices = 1;
    while (fake.timer(0)) slices += 1;
    expect(slices).toBeGreaterThan(2);
    expect(folder.backlog()).toBe(0);
    // The same state as applying the frames one by one.
    expect(states.at(-1)).toEqual(stateFromFrames(ROOT, many));
    expect(FOLD_SLICE_MS).toBeLessThan(16);
  });

  it("shows progress while a backlog takes longer than PROGRESS_EVERY_MS", () => {
    const fake = fakeClock(PROGRESS_EVERY_MS / 4);
    const states: LiveState[] = [];
    const folder = createFrameFolder(initialLiveState(ROOT), (state) => states.push(state), fake.clock);
    for (const frame of frames) folder.push(frame);
    fake.frame();
    while (fake.timer(0));
    expect(states.length).toBeGreaterThan(1);
    expect(states.at(-1)).toEqual(folded);
  });

  it("reports nothing after dispose", () => {
    const fake = fakeClock(0);
    const states: LiveState[] = [];
    const folder = createFrameFolder(initialLiveState(ROOT), (state) => states.push(state), fake.clock);
    for (const frame of frames) folder.push(frame);
    folder.dispose();
    fake.frame();
    while (fake.timer(1_000));
    folder.push(frames[0]!);
    fake.frame();
    expect(states).toEqual([]);
  });
});
