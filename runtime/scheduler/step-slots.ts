// Step slots: how many of this process's claimed threads do CPU and database work at once
// (TANDEM_CONCURRENCY). A thread holds a slot while its step runs and gives it up while it only waits
// on I/O that needs neither (a model call, see `awayFromStepSlot`), so thousands of claimed threads
// can each wait on a model while a few dozen steps run. A thread coming back from its wait is served
// before a thread starting a step, so work already begun finishes first.
//
// A step's slot is found by a key the step hands down to its model calls (the run's AbortSignal), not
// by an AsyncLocalStorage: on Node 20 and 22 an AsyncLocalStorage in use turns on promise hooks for
// the whole process, and in the 1,000-thread load benchmark those hooks cost about a tenth of the
// runtime's CPU (docs/benchmarks.md).

export class StepSlots {
  private free: number;
  private readonly returning: Array<() => void> = [];
  private readonly starting: Array<() => void> = [];

  constructor(readonly size: number) {
    this.free = size;
  }

  /** Steps holding a slot now. */
  get active(): number {
    return this.size - this.free;
  }

  /** Threads waiting for a slot (to start a step or to go on after a model call). */
  get waiting(): number {
    return this.returning.length + this.starting.length;
  }

  /** Waits for a slot; `returning` (after a wait away from the slot) goes before new steps. */
  acquire(returning = false): Promise<void> {
    if (this.free > 0 && this.waiting === 0) {
      this.free--;
      return Promise.resolve();
    }
    return new Promise((resolve) => (returning ? this.returning : this.starting).push(resolve));
  }

  release(): void {
    const next = this.returning.shift() ?? this.starting.shift();
    if (next) next();
    else this.free++;
  }
}

/** The slot the current step holds (set by the scheduler around each step). */
export interface HeldStepSlot {
  slots: StepSlots;
  held: boolean;
  /** The step is over: a wait that outlived it gives the slot it took back straight away. */
  ended: boolean;
  /** Told when the step gives its slot up and when it has it back (the scheduler claims more). */
  onAway?: (away: boolean) => void;
}

/** The slot each running step holds, by the key its model calls name (see `withStepSlot`). */
const heldByKey = new WeakMap<object, HeldStepSlot>();

/**
 * Runs one step of a thread holding a slot of `slots` (waited for first), released when it ends.
 * `key` names the step to `awayFromStepSlot`: one object per run (its AbortSignal), whose steps run
 * one after another.
 */
export async function withStepSlot<T>(
  slots: StepSlots,
  key: object,
  run: () => Promise<T>,
  onAway?: (away: boolean) => void,
): Promise<T> {
  await slots.acquire();
  const slot: HeldStepSlot = { slots, held: true, ended: false, ...(onAway ? { onAway } : {}) };
  heldByKey.set(key, slot);
  try {
    return await run();
  } finally {
    slot.ended = true;
    if (heldByKey.get(key) === slot) heldByKey.delete(key);
    if (slot.held) {
      slot.held = false;
      slots.release();
    }
  }
}

/**
 * Runs `wait` (a model call: I/O holding no database connection) without the slot of the step `key`
 * names, and takes a slot back before returning or throwing. With no step under `key` (tests, tools
 * run directly, no key) or when the slot is already given up (a nested call), it just runs `wait`.
 */
export async function awayFromStepSlot<T>(key: object | undefined, wait: () => Promise<T>): Promise<T> {
  const slot = key === undefined ? undefined : heldByKey.get(key);
  if (!slot?.held) return wait();
  slot.held = false;
  slot.slots.release();
  slot.onAway?.(true);
  try {
    return await wait();
  } finally {
    slot.onAway?.(false);
    await slot.slots.acquire(true);
    if (slot.ended) slot.slots.release();
    else slot.held = true;
  }
}
