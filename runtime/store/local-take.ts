// A thread taken at once by the process that makes it runnable (docs/runtime.md, "A thread this
// process makes runnable runs here"): the statement that makes it runnable leases it to this
// process's scheduler, which then runs it with no NOTIFY and no claim. The scheduler hands out the
// room (`Scheduler.takeLocally`); the layers that write threads (services, the step's spawns) use
// these shapes, below the scheduler.
import type { StoredMessage } from "./messages";
import type { ThreadForStep } from "./thread-store";

/** A thread leased to this process by the statement that made it runnable. */
export interface TakenThread {
  id: string;
  /** When its current run began (µs), null when it has not started yet. */
  runStartedAt: number | null;
  /** The thread as its first step needs it, or null (that step reads it). */
  read: ThreadForStep | null;
  /**
   * Messages the statement stored with the thread's run started, not drained (a thread created with
   * its first message, a message posted to a thread parked here): its first step here announces them
   * to after_create_message as a drain's would be. They travel with the thread, not in a cache that
   * may drop them.
   */
  announce?: readonly StoredMessage[];
}

/** The lease a statement writes: `lease_owner` and `lease_expires_at` = now() + leaseMs. */
export interface LeaseTo {
  owner: string;
  leaseMs: number;
}

/**
 * Room this process promised for one thread it is making runnable itself: the statement leases it
 * (`LeaseTo`, no NOTIFY) and `run` starts it here. `cancel` gives the room back when the statement
 * did not take the thread (it failed, or the thread was not free). Exactly one of the two is called.
 */
export interface LocalTake extends LeaseTo {
  run(thread: TakenThread): void;
  cancel(): void;
}

/** Up to `count` takes, as many as the scheduler has room for (none without a scheduler). */
export function takeUpTo(takeLocally: (() => LocalTake | null) | undefined, count: number): LocalTake[] {
  const taken: LocalTake[] = [];
  while (takeLocally && taken.length < count) {
    const take = takeLocally();
    if (!take) break;
    taken.push(take);
  }
  return taken;
}
