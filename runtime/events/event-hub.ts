// One listener per process for the event log's NOTIFY hints, fanned out to SSE streams by root
// thread; also carries the ephemeral token chunks of threads running in this process. A root is
// NOTIFYed only while somebody watches it: `subscribe` registers the root (event-watchers.ts) and
// resolves once every later commit of its events NOTIFYs, so the stream reads the log after it.
import type { NotificationBus } from "@/lib/db/notifications";
import type { SqlExecutor } from "@/lib/db/sql-client";
import { EVENTS_CHANNEL } from "./event-log";
import { type EventWatcherOptions, EventWatchers } from "./event-watchers";

export interface ChunkEvent {
  rootId: string;
  threadId: string;
  messageId: string;
  chunk: string;
}

export interface RootSubscriber {
  /** New persisted events exist for this root: re-read the log. */
  onEventsAvailable(): void;
  onChunk(chunk: ChunkEvent): void;
}

export class EventHub {
  private readonly subscribers = new Map<string, Set<RootSubscriber>>();
  private listening: Promise<unknown> | null = null;
  readonly watchers: EventWatchers;

  constructor(
    private readonly notifications: NotificationBus,
    db: SqlExecutor,
    watcherOptions: EventWatcherOptions = {},
  ) {
    this.watchers = new EventWatchers(db, {
      onRestored: (rootId) => this.notify(rootId),
      onError: (error) =>
        console.error(
          "[tandem] live event watcher registry:",
          error instanceof Error ? error.message : error,
        ),
      ...watcherOptions,
    });
  }

  /**
   * Persisted events (NOTIFY hints) and token chunks of a root. Resolves once the root is watched:
   * read the log after that, and again on every `onEventsAvailable`.
   */
  async subscribe(rootId: string, subscriber: RootSubscriber): Promise<() => void> {
    this.listening ??= this.notifications.listen(EVENTS_CHANNEL, (root) => this.notify(root));
    await this.listening;
    const remove = this.add(rootId, subscriber);
    try {
      await this.watchers.acquire(rootId);
    } catch (error) {
      remove();
      throw error;
    }
    let subscribed = true;
    return () => {
      if (!subscribed) return;
      subscribed = false;
      remove();
      this.watchers.release(rootId);
    };
  }

  /**
   * The token chunks of a root's threads running in this process only: no NOTIFY listener and no
   * watcher row, so the root's commits stay as cheap as unwatched ones (benchmarks' probes).
   */
  subscribeChunks(rootId: string, onChunk: (chunk: ChunkEvent) => void): () => void {
    return this.add(rootId, { onEventsAvailable: () => {}, onChunk });
  }

  private add(rootId: string, subscriber: RootSubscriber): () => void {
    let set = this.subscribers.get(rootId);
    if (!set) {
      set = new Set();
      this.subscribers.set(rootId, set);
    }
    set.add(subscriber);
    const added = set;
    let present = true;
    return () => {
      if (!present) return;
      present = false;
      added.delete(subscriber);
      if (added.size === 0 && this.subscribers.get(rootId) === added) this.subscribers.delete(rootId);
    };
  }

  /** Unregisters this process's watched roots (shutdown). */
  close(): Promise<void> {
    return this.watchers.close();
  }

  publishChunk(chunk: ChunkEvent): void {
    for (const subscriber of this.subscribers.get(chunk.rootId) ?? []) subscriber.onChunk(chunk);
  }

  private notify(rootId: string): void {
    for (const subscriber of this.subscribers.get(rootId) ?? []) subscriber.onEventsAvailable();
  }
}
