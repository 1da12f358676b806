// Why a step's commit refused to run its work: each ends the thread's run with its own outcome.

/** Another process holds the thread's lease now: this run stops without touching the thread. */
export class LeaseLost extends Error {}

/** The thread is gone or terminated: nothing more is committed for it. */
export class ThreadTerminated extends Error {}

/** A user stopped the thread: nothing this step produced after the stop is committed. */
export class StoppedByUser extends Error {}

/** Whether `error` is one of the refusals above (they end the run; other errors are failures). */
export function isRunEnding(error: unknown): boolean {
  return error instanceof LeaseLost || error instanceof ThreadTerminated || error instanceof StoppedByUser;
}
