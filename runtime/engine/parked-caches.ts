// What a process remembers of threads that parked (an ai_human waiting for its next message, a
// parent waiting for a child): their caches, kept for the next run in this process, bounded so that
// an idle thread still costs rows, not memory. Shared by every run's StepRunner.

/** Oldest entries go first once the store is full (a Map keeps insertion order). */
export class ParkedCaches<Cache> {
  private readonly entries = new Map<string, Cache>();

  constructor(private readonly limit: number) {}

  park(threadId: string, cache: Cache): void {
    this.entries.delete(threadId);
    this.entries.set(threadId, cache);
    while (this.entries.size > this.limit) {
      const oldest = this.entries.keys().next().value as string;
      this.entries.delete(oldest);
    }
  }

  /** Hands the cache back once: the run that takes it owns it (or drops it) from then on. */
  take(threadId: string): Cache | undefined {
    const cache = this.entries.get(threadId);
    this.entries.delete(threadId);
    return cache;
  }

  get size(): number {
    return this.entries.size;
  }
}
