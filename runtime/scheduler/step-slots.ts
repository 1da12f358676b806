// Step slots: how many of this process's claimed threads do CPU and database work at once
// (TANDEM_CONCURRENCY). A thread holds a slot while its step runs and gives it up while it only waits
// on I/O that needs neither (a model call, see `awayFromStepSlot`), so thousands of claimed threads
// can each wait on a model while a few dozen steps run. A thread coming back from its wait is served
// before a thread starting a step, so work already begun finishes first.
import { AsyncLocalStorage } from "node:async_hooks";

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

const current = new AsyncLocalStorage<HeldStepSlot>();

/** Runs one step of a thread holding a slot of `slots` (waited for first), released when it ends. */
export async function withStepSlot<T>(
  slots: StepSlots,
  run: () => Promise<T>,
  onAway?: (away: boolean) => void,
): Promise<T> {
  await slots.acquire();
  const slot: HeldStepSlot = { slots, held: true, ended: false, ...(onAway ? { onAway } : {}) };
  try {
    return await current.run(slot, run);
  } finally {
    slot.ended = true;
    if (slot.held) {
      slot.held = false;
      slots.release();
    }
  }
}

/**
 * Runs `wait` (a model call: I/O holding no database connection) without the current step's slot,
 * and takes a slot back before returning or throwing. Outside a scheduler's step (tests, tools run
 * directly) or when the slot is already given up (a nested call), it just runs `wait`.
 */
export async function awayFromStepSlot<T>(wait: () => Promise<T>): Promise<T> {
  const slot = current.getStore();
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
