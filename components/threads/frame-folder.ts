// Folds a live view's SSE frames into its state outside React: at most once per animation frame, and
// in slices of a few milliseconds with a yield to the browser between them, so a burst (a replay, a
// thousand events at once) never becomes one long main-thread task. React then renders the folded
// state once, not the reducer's work (docs/benchmarks.md, "The live tree and its timeline").
import { applySseFrame, type LiveState, type SseFrame } from "@/lib/live";

/** Folding stops to let the browser paint and handle input after this much work (ms). */
export const FOLD_SLICE_MS = 8;
/** A hidden tab gets no animation frames: frames are still folded at least this often (ms). */
export const MAX_BATCH_DELAY_MS = 250;
/** While a long backlog is folded, the state is shown at least this often (ms). */
export const PROGRESS_EVERY_MS = 100;
/** Frames folded between two looks at the clock. */
const FRAMES_PER_CLOCK_CHECK = 8;

/** The browser's timing functions; tests pass their own. */
export interface FolderClock {
  now(): number;
  requestFrame(callback: () => void): number;
  cancelFrame(handle: number): void;
  setTimer(callback: () => void, ms: number): ReturnType<typeof setTimeout>;
  clearTimer(handle: ReturnType<typeof setTimeout> | undefined): void;
}

const browserClock: FolderClock = {
  now: () => performance.now(),
  requestFrame: (callback) => requestAnimationFrame(callback),
  cancelFrame: (handle) => cancelAnimationFrame(handle),
  setTimer: (callback, ms) => setTimeout(callback, ms),
  clearTimer: (handle) => clearTimeout(handle),
};

export interface FrameFolder {
  push(frame: SseFrame): void;
  /** Frames pushed and not folded yet. */
  backlog(): number;
  /** Stops: nothing is folded or reported after this. */
  dispose(): void;
}

/**
 * Folds pushed frames into `initial` and hands each new state to `onState`: when every waiting frame
 * is folded, and every PROGRESS_EVERY_MS while a long backlog is. The states are exactly those of
 * applying the frames one by one in order.
 */
export function createFrameFolder(
  initial: LiveState,
  onState: (state: LiveState) => void,
  clock: FolderClock = browserClock,
): FrameFolder {
  let state = initial;
  let reported = initial;
  let lastReport = 0;
  let pending: SseFrame[] = [];
  let next = 0;
  let frameRequest = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let scheduled = false;
  let disposed = false;

  const report = () => {
    lastReport = clock.now();
    if (state === reported) return;
    reported = state;
    onState(state);
  };

  const fold = () => {
    clock.cancelFrame(frameRequest);
    clock.clearTimer(timer);
    frameRequest = 0;
    timer = undefined;
    if (disposed) return;
    const started = clock.now();
    while (next < pending.length) {
      state = applySseFrame(state, pending[next]!);
      next += 1;
      if (next % FRAMES_PER_CLOCK_CHECK === 0 && clock.now() - started >= FOLD_SLICE_MS) break;
    }
    if (next < pending.length) {
      // More to fold: yield (the browser may paint or take input), then go on.
      if (clock.now() - lastReport >= PROGRESS_EVERY_MS) report();
      timer = clock.setTimer(fold, 0);
      return;
    }
    pending = [];
    next = 0;
    scheduled = false;
    report();
  };

  return {
    push(frame) {
      if (disposed) return;
      pending.push(frame);
      if (scheduled) return;
      scheduled = true;
      // Progress is counted from the start of a batch: a short burst is reported once, when folded.
      lastReport = clock.now();
      frameRequest = clock.requestFrame(fold);
      timer = clock.setTimer(fold, MAX_BATCH_DELAY_MS);
    },
    backlog() {
      return pending.length - next;
    },
    dispose() {
      disposed = true;
      clock.cancelFrame(frameRequest);
      clock.clearTimer(timer);
      pending = [];
    },
  };
}
