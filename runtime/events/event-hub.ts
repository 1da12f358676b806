// One listener per process for the event log's NOTIFY hints, fanned out to SSE streams by root
// thread; also carries the ephemeral token chunks of threads running in this process. A root is
// NOTIFYed only while somebody watches it: `subscribe` registers the root (event-watchers.ts) and
// resolves once every later commit of its events NOTIFYs, so the stream reads the log after it.
// The chunks of a message still being streamed here are kept until it is persisted (`endMessage`),
// and a new subscriber gets them first, so a reply joined mid-stream shows from its first token.
import type { NotificationBus } from "@/lib/db/notifications";
import type { SqlExecutor } from "@/lib/db/sql-client";
import { EVENTS_CHANNEL } from "../store/event-log";
import { type EventWatcherOptions, EventWatchers } from "./event-watchers";

export interface ChunkEvent {
  rootId: string;
  threadId: string;
  messageId: string;
  chunk: string;
  /** The side whose reply streams (the view labels it by the side's name). */
  side?: "a" | "b";
}

export interface RootSubscriber {
  /** New persisted events exist for this root: re-read the log. */
  onEventsAvailable(): void;
  onChunk(chunk: ChunkEvent): void;
  /** An event stream a client reads (GET /api/threads/:id/events): counted in `viewers`. */
  viewer?: boolean;
}

/** The chunks streamed so far of one message not persisted yet. */
interface InFlightMessage {
  readonly threadId: string;
  readonly side?: "a" | "b";
  readonly chunks: string[];
}

export class EventHub {
  private readonly subscribers = new Map<string, Set<RootSubscriber>>();
  /** Messages being streamed in this process, per root, by message id (insertion = start order). */
  private readonly inFlight = new Map<string, Map<string, InFlightMessage>>();
  /** The root of each in-flight message id, for `endMessage`. */
  private readonly inFlightRoot = new Map<string, string>();
  private listening: Promise<unknown> | null = null;
  private openViewers = 0;
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
    // Added and caught up in one synchronous step: every chunk is either in the replay or sent live.
    const remove = this.add(rootId, subscriber);
    this.replayInFlight(rootId, subscriber);
    try {
      await this.watchers.acquire(rootId);
    } catch (error) {
      remove();
      throw error;
    }
    let subscribed = true;
    if (subscriber.viewer) this.openViewers += 1;
    return () => {
      if (!subscribed) return;
      subscribed = false;
      if (subscriber.viewer) this.openViewers -= 1;
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

  /** Event streams (SSE connections) open in this process now (metrics: `tandem.event_stream.viewers`). */
  get viewers(): number {
    return this.openViewers;
  }

  /** Unregisters this process's watched roots (shutdown). */
  close(): Promise<void> {
    return this.watchers.close();
  }

  publishChunk(chunk: ChunkEvent): void {
    let messages = this.inFlight.get(chunk.rootId);
    if (!messages) {
      messages = new Map();
      this.inFlight.set(chunk.rootId, messages);
    }
    const message = messages.get(chunk.messageId);
    if (message) message.chunks.push(chunk.chunk);
    else {
      messages.set(chunk.messageId, {
        threadId: chunk.threadId,
        chunks: [chunk.chunk],
        ...(chunk.side ? { side: chunk.side } : {}),
      });
      this.inFlightRoot.set(chunk.messageId, chunk.rootId);
    }
    for (const subscriber of this.subscribers.get(chunk.rootId) ?? []) subscriber.onChunk(chunk);
  }

  /**
   * The message is persisted (or its model call failed or was aborted): forget its chunks. Call it
   * after the commit, so a subscriber that joins in between gets the chunks and then the message
   * (the live reducer drops streamed text once its message arrives).
   */
  endMessage(messageId: string): void {
    const rootId = this.inFlightRoot.get(messageId);
    if (rootId === undefined) return;
    this.inFlightRoot.delete(messageId);
    const messages = this.inFlight.get(rootId);
    messages?.delete(messageId);
    if (messages?.size === 0) this.inFlight.delete(rootId);
  }

  /** How many messages are being streamed in this process (diagnostics, tests). */
  get inFlightMessages(): number {
    return this.inFlightRoot.size;
  }

  /** One chunk per in-flight message of the root: its text so far (a stream joining a live tree). */
  inFlightChunks(rootId: string): ChunkEvent[] {
    const chunks: ChunkEvent[] = [];
    for (const [messageId, message] of this.inFlight.get(rootId) ?? []) {
      const text = message.chunks.join("");
      if (message.chunks.length > 1) message.chunks.splice(0, message.chunks.length, text);
      chunks.push({
        rootId,
        threadId: message.threadId,
        messageId,
        chunk: text,
        ...(message.side ? { side: message.side } : {}),
      });
    }
    return chunks;
  }

  private replayInFlight(rootId: string, subscriber: RootSubscriber): void {
    for (const chunk of this.inFlightChunks(rootId)) subscriber.onChunk(chunk);
  }

  private notify(rootId: string): void {
    for (const subscriber of this.subscribers.get(rootId) ?? []) subscriber.onEventsAvailable();
  }
}
