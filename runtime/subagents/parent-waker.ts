// Wakes parents after their children's reports committed, off the children's runs. A wake-up waits
// for the parent's row lock (the parent may be committing a step of its own), and a child that
// waited for it kept its scheduler slot meanwhile. Handed to this queue, the child's run ends at its
// commit, and the wake-ups of one parent coalesce: one statement in flight per parent and at most one
// more queued behind it, which starts after every report committed so far and so covers them all.
// If the process dies with wake-ups queued, the scheduler's poll repairs them (repairLostWakeups).

export class ParentWaker {
  private readonly inFlight = new Map<string, Promise<void>>();
  private readonly queued = new Set<string>();

  constructor(
    private readonly wake: (parentId: string) => Promise<void>,
    private readonly onError: (parentId: string, error: unknown) => void,
  ) {}

  /** Call after the commit that queued the parent's input. */
  request(parentId: string): void {
    if (this.inFlight.has(parentId)) {
      this.queued.add(parentId);
      return;
    }
    this.start(parentId);
  }

  /** Resolves once no wake-up is in flight or queued (a drain awaits it before closing the pool). */
  async idle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.all(this.inFlight.values());
  }

  get pending(): number {
    return this.inFlight.size + this.queued.size;
  }

  private start(parentId: string): void {
    const run = this.wake(parentId)
      .catch((error: unknown) => this.onError(parentId, error))
      .finally(() => {
        this.inFlight.delete(parentId);
        if (this.queued.delete(parentId)) this.start(parentId);
      });
    this.inFlight.set(parentId, run);
  }
}
