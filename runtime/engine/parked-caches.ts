// What a process remembers of threads that parked (an ai_human waiting for its next message, a
// parent waiting for a child) or were spawned here: their caches, kept for the next run in this
// process, bounded in entries and in (estimated) bytes so that an idle thread still costs rows, not
// memory. Shared by every run's StepRunner.

export interface ParkedCacheLimits {
  /** Entries kept at most. */
  entries: number;
  /** Estimated bytes kept at most (see `weigh`). */
  bytes: number;
}

/** Oldest entries go first once the store is full (a Map keeps insertion order). */
export class ParkedCaches<Cache> {
  private readonly entries = new Map<string, { cache: Cache; bytes: number }>();
  private bytes = 0;

  /**
   * @param weigh estimated bytes an entry holds; the default counts entries only.
   */
  constructor(
    private readonly limits: ParkedCacheLimits,
    private readonly weigh: (cache: Cache) => number = () => 0,
  ) {}

  park(threadId: string, cache: Cache): void {
    this.remove(threadId);
    const bytes = this.weigh(cache);
    this.entries.set(threadId, { cache, bytes });
    this.bytes += bytes;
    while (
      this.entries.size > this.limits.entries ||
      (this.bytes > this.limits.bytes && this.entries.size > 0)
    ) {
      this.remove(this.entries.keys().next().value as string);
    }
  }

  /** Hands the cache back once: the run that takes it owns it (or drops it) from then on. */
  take(threadId: string): Cache | undefined {
    return this.remove(threadId);
  }

  /** The entry, left in place (its owner is still the store). */
  peek(threadId: string): Cache | undefined {
    return this.entries.get(threadId)?.cache;
  }

  get size(): number {
    return this.entries.size;
  }

  /** Estimated bytes held now. */
  get heldBytes(): number {
    return this.bytes;
  }

  private remove(threadId: string): Cache | undefined {
    const entry = this.entries.get(threadId);
    if (!entry) return undefined;
    this.entries.delete(threadId);
    this.bytes -= entry.bytes;
    return entry.cache;
  }
}
