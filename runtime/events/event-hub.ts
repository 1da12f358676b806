// One listener per process for the event log's NOTIFY hints, fanned out to SSE streams by root
// thread; also carries the ephemeral token chunks of threads running in this process.
import type { NotificationBus } from "@/lib/db/notifications";
import { EVENTS_CHANNEL } from "./event-log";

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

  constructor(private readonly notifications: NotificationBus) {}

  async subscribe(rootId: string, subscriber: RootSubscriber): Promise<() => void> {
    this.listening ??= this.notifications.listen(EVENTS_CHANNEL, (root) => this.notify(root));
    await this.listening;
    let set = this.subscribers.get(rootId);
    if (!set) {
      set = new Set();
      this.subscribers.set(rootId, set);
    }
    set.add(subscriber);
    let subscribed = true;
    return () => {
      if (!subscribed) return;
      subscribed = false;
      set.delete(subscriber);
      if (set.size === 0 && this.subscribers.get(rootId) === set) this.subscribers.delete(rootId);
    };
  }

  publishChunk(chunk: ChunkEvent): void {
    for (const subscriber of this.subscribers.get(chunk.rootId) ?? []) subscriber.onChunk(chunk);
  }

  private notify(rootId: string): void {
    for (const subscriber of this.subscribers.get(rootId) ?? []) subscriber.onEventsAvailable();
  }
}
