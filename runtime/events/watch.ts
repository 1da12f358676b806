// Live event streams (GET /api/threads/:id/events) that cost one subscription per tree per process
// and one encoding per event, however many viewers there are (issue 43; docs/live.md "Watching").
//
// Per root tree this process keeps one feed: one EventHub subscription (so one watcher row and one
// NOTIFY per commit), one reader of the event log, and an ordered buffer of the SSE frames it read,
// each encoded once. A page of events read from the log becomes one chunk of bytes written to every
// whole-tree viewer, and one per watched subtree (the subtree filter is a set lookup, SubtreeIndex).
//
// A viewer that connects with a cursor (Last-Event-ID, ?after=) inside the buffer is served from it;
// one further back reads the log itself (its own pages) until it reaches the buffer, then joins the
// feed in one synchronous step: the frames after its cursor, then live. Token chunks (never
// persisted) are sent from the moment a stream opens, after the text so far of each message being
// streamed in this process (EventHub's in-flight buffer), as before. Every write moves the viewer's cursor and a frame at or below it is never
// written again, so there is no gap and nothing twice at the seam.
//
// Backpressure: a stream whose client has not taken `highWaterBytes` of queued bytes is closed at its
// next write (its queue dropped) and the client reconnects with Last-Event-ID, losing nothing; a
// viewer catching up from the log reads its next page only once its client took half of that.
// Keep-alives and the quiet-tree re-read (an event whose NOTIFY was lost) run on one timer for all.
//
// Coalescing: what a feed has for its live streams (pages it read, token chunks) is held for
// `coalesceMs` (one timer for all feeds) and then written in order as one write per stream — the
// same bytes to every stream that wants the same things — so a busy tree costs each viewer one
// write per window, not one per commit and per token. Pages that add up to `writeAtBytes` go out at
// once: a write that large is not worth a wait (a busy tree's group commits are pages of tens of KB;
// a conversation's are a few hundred bytes, and keep the window).
import type { SqlExecutor } from "@/lib/db/sql-client";
import { readEventsAfter, type StoredEvent } from "../store/event-log";
import { findSubtreeIds } from "../store/thread-store";
import type { ChunkEvent, EventHub } from "./event-hub";
import {
  concatBytes,
  concatFrames,
  type EncodedFrame,
  encodeChunk,
  encodeEvent,
  FrameBuffer,
  type FrameBufferLimits,
  HELLO_BYTES,
  KEEP_ALIVE_BYTES,
  type Subtree,
  SubtreeIndex,
} from "./sse-frames";

export interface WatchSettings {
  /** A stream that sent nothing for this long gets a keep-alive; a quiet tree re-reads the log. */
  keepAliveMs: number;
  /** Bytes a stream may queue for a client that does not read before it is disconnected. */
  highWaterBytes: number;
  /** The recent frames each watched tree keeps in memory for viewers that join or reconnect. */
  buffer: FrameBufferLimits;
  /** A feed's live writes within this window go out as one write per stream (0: each at once). */
  coalesceMs: number;
  /**
   * A feed holding this many bytes of pages writes them at once, without waiting for the window's
   * end: a write that large gains nothing from waiting for more (0: pages wait for the window).
   */
  writeAtBytes: number;
}

export const WATCH_DEFAULTS: WatchSettings = {
  keepAliveMs: 15_000,
  highWaterBytes: 4 * 1024 * 1024,
  buffer: { frames: 4_096, bytes: 8 * 1024 * 1024 },
  coalesceMs: 10,
  writeAtBytes: 16 * 1024,
};

/** Events read from the log per query, by a feed or by a viewer catching up. */
const PAGE = 500;

function wholeNumber(
  env: Record<string, string | undefined>,
  name: string,
  fallback: number,
  min: number,
  max: number,
): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max)
    throw new Error(`${name} must be a whole number, ${min}–${max}; got "${raw}".`);
  return value;
}

/**
 * TANDEM_SSE_KEEP_ALIVE_MS (50–300000, default 15000), TANDEM_SSE_HIGH_WATER_BYTES (4096–1 GiB,
 * default 4 MiB), TANDEM_SSE_COALESCE_MS (0–1000, default 10) and TANDEM_SSE_WRITE_AT_BYTES (0–1 GiB,
 * default 16 KiB). A bad value throws, naming the variable (the stream's request fails with it logged).
 */
export function watchSettingsFromEnv(env: Record<string, string | undefined>): WatchSettings {
  return {
    keepAliveMs: wholeNumber(env, "TANDEM_SSE_KEEP_ALIVE_MS", WATCH_DEFAULTS.keepAliveMs, 50, 300_000),
    highWaterBytes: wholeNumber(
      env,
      "TANDEM_SSE_HIGH_WATER_BYTES",
      WATCH_DEFAULTS.highWaterBytes,
      4_096,
      1024 ** 3,
    ),
    buffer: WATCH_DEFAULTS.buffer,
    coalesceMs: wholeNumber(env, "TANDEM_SSE_COALESCE_MS", WATCH_DEFAULTS.coalesceMs, 0, 1_000),
    writeAtBytes: wholeNumber(env, "TANDEM_SSE_WRITE_AT_BYTES", WATCH_DEFAULTS.writeAtBytes, 0, 1024 ** 3),
  };
}

export interface WatchRequest {
  rootId: string;
  /** The watched thread: the root, or a thread below it (then only its subtree is sent). */
  threadId: string;
  /** Send the persisted events after this id. */
  after: number;
  /** The request's signal: the client went away. */
  signal?: AbortSignal;
}

/** What a watch needs from the rest of the runtime (the runtime facade passes the real ones). */
export interface WatchDependencies {
  hub: Pick<EventHub, "subscribe" | "inFlightChunks">;
  db: SqlExecutor;
  settings: () => WatchSettings;
  onError?: (message: string) => void;
}

/** Closes the response without an error in the server's log (Next treats AbortError as a hang-up). */
function slowClientError(highWaterBytes: number): Error {
  const error = new Error(`the client did not read ${highWaterBytes} queued bytes; disconnected`);
  error.name = "AbortError";
  return error;
}

class Connection {
  closed = false;
  /** Ticks of the shared timer since this stream last sent anything. */
  quietTicks = 0;
  subtree: Subtree | null = null;
  /**
   * Live chunks are sent once the stream got the text so far of the messages being streamed: those
   * the feed received after that text was taken (its sequence number, TreeFeed.chunkSeq), never one
   * the text already had (a chunk held in the coalescing window when the stream opened).
   */
  chunksAfter = Number.POSITIVE_INFINITY;

  constructor(
    readonly feed: TreeFeed,
    readonly threadId: string,
    /** The id of the last persisted event this stream has passed (sent, or filtered out). */
    public cursor: number,
    private readonly controller: ReadableStreamDefaultController<Uint8Array>,
    private readonly highWaterBytes: number,
  ) {}

  wants(threadId: string): boolean {
    return this.subtree === null || this.subtree.ids.has(threadId);
  }

  /**
   * Queues bytes for the client. A client already past the high-water mark (it has not taken that
   * many queued bytes) is disconnected instead: the queue never holds more than the mark plus one
   * write (a page of events at most).
   */
  send(bytes: Uint8Array): void {
    if (this.closed) return;
    // desiredSize = high-water mark − bytes queued and not yet taken by the response.
    if ((this.controller.desiredSize ?? 0) < 0) {
      this.end(slowClientError(this.highWaterBytes));
      return;
    }
    this.controller.enqueue(bytes);
    this.quietTicks = 0;
  }

  /** Catching up from the log: waits while the client has more than half the mark unread. */
  async room(): Promise<void> {
    while (!this.closed && (this.controller.desiredSize ?? 0) < this.highWaterBytes / 2)
      await new Promise((resolve) => setTimeout(resolve, 25));
  }

  /** Ends the stream: normally (the client left, or the server shuts it), or dropping its queue. */
  end(error?: Error): void {
    if (this.closed) return;
    this.closed = true;
    try {
      if (error) this.controller.error(error);
      else this.controller.close();
    } catch {
      // already closed or cancelled by the client
    }
    this.feed.remove(this);
  }
}

/** A live write a feed holds for the coalescing window: a page of frames, or a token chunk. */
type LiveItem = { frames: EncodedFrame[] } | { chunk: ChunkEvent; seq: number; bytes: Uint8Array | null };

/** One page's bytes for the live streams: shared by every whole-tree stream and per subtree. */
class PageParts {
  private readonly first: number;
  private readonly last: number;
  private whole: Uint8Array | null = null;
  private readonly bySubtree = new Map<Subtree, Uint8Array | null>();

  constructor(private readonly frames: EncodedFrame[]) {
    this.first = (frames[0] as EncodedFrame).id;
    this.last = (frames[frames.length - 1] as EncodedFrame).id;
  }

  /** What this page adds for the connection (null: nothing), moving its cursor past the page. */
  bytesFor(connection: Connection, feed: TreeFeed): Uint8Array | null {
    if (connection.cursor >= this.last) return null;
    let bytes: Uint8Array | null;
    if (connection.cursor < this.first) {
      if (connection.subtree === null) bytes = this.whole ??= concatFrames(this.frames);
      else if (this.bySubtree.has(connection.subtree)) bytes = this.bySubtree.get(connection.subtree) ?? null;
      else {
        bytes = feed.select(this.frames, connection, this.first - 1);
        this.bySubtree.set(connection.subtree, bytes);
      }
    } else bytes = feed.select(this.frames, connection, connection.cursor);
    connection.cursor = this.last;
    return bytes;
  }
}

/** Writes a window's parts to streams as one write each: streams with the same parts share the bytes. */
class SharedWrites {
  private readonly partIds = new Map<Uint8Array, number>();
  private readonly joined = new Map<string, Uint8Array>();

  send(connection: Connection, parts: Uint8Array[]): void {
    if (parts.length === 0) return;
    if (parts.length === 1) {
      connection.send(parts[0] as Uint8Array);
      return;
    }
    const key = parts.map((part) => this.idOf(part)).join(",");
    let bytes = this.joined.get(key);
    if (!bytes) {
      bytes = concatBytes(parts);
      this.joined.set(key, bytes);
    }
    connection.send(bytes);
  }

  private idOf(part: Uint8Array): number {
    let id = this.partIds.get(part);
    if (id === undefined) {
      id = this.partIds.size;
      this.partIds.set(part, id);
    }
    return id;
  }
}

class TreeFeed {
  readonly live = new Set<Connection>();
  readonly joining = new Set<Connection>();
  readonly subtrees = new SubtreeIndex();
  readonly buffer: FrameBuffer;
  /** The id of the last event read from the log. */
  cursor: number;
  readonly ready: Promise<void>;
  reading = false;
  quietTicks = 0;
  private pending = false;
  private closed = false;
  private unsubscribe: (() => void) | null = null;
  /** Live writes held until the coalescing window ends (LiveWatch.coalesce), in order. */
  private held: LiveItem[] = [];
  /** The bytes of the pages in `held`. */
  private heldPageBytes = 0;
  /** Token chunks received from the hub so far (each held chunk carries its number). */
  chunkSeq = 0;

  constructor(
    readonly rootId: string,
    start: number,
    private readonly owner: LiveWatch,
  ) {
    this.cursor = start;
    this.buffer = new FrameBuffer(start, owner.settings().buffer);
    this.ready = owner.deps.hub
      .subscribe(rootId, {
        onEventsAvailable: () => {
          this.quietTicks = 0;
          this.pump();
        },
        onChunk: (chunk) => this.chunk(chunk),
      })
      .then((unsubscribe) => {
        if (this.closed) unsubscribe();
        else {
          this.unsubscribe = unsubscribe;
          this.pump();
        }
      });
    // A failed subscription is the joining viewers' error (open rethrows it); never unhandled here.
    this.ready.catch(() => this.close());
  }

  get viewers(): number {
    return this.live.size + this.joining.size;
  }

  /** Reads the log after the cursor until it is complete, then again if a NOTIFY came meanwhile. */
  pump(): void {
    if (this.closed) return;
    if (this.reading) {
      this.pending = true;
      return;
    }
    this.reading = true;
    void this.read().finally(() => {
      this.reading = false;
    });
  }

  private async read(): Promise<void> {
    try {
      do {
        this.pending = false;
        for (;;) {
          const { events, complete } = await readEventsAfter(
            this.owner.deps.db,
            this.rootId,
            this.cursor,
            PAGE,
          );
          if (this.closed) return;
          if (events.length > 0) this.append(events);
          if (complete || events.length === 0) break;
        }
      } while (this.pending && !this.closed);
    } catch (error) {
      this.owner.report(`reading the event log of ${this.rootId} failed`, error);
      // Every stream of the tree ends; its client reconnects with Last-Event-ID.
      for (const connection of [...this.live, ...this.joining]) connection.end();
      this.close();
    }
  }

  private append(events: StoredEvent[]): void {
    const frames: EncodedFrame[] = [];
    for (const event of events) {
      this.subtrees.learn(event);
      const frame = encodeEvent(event);
      frames.push(frame);
      this.buffer.push(frame);
    }
    this.cursor = (frames[frames.length - 1] as EncodedFrame).id;
    for (const frame of frames) this.heldPageBytes += frame.bytes.byteLength;
    this.hold({ frames });
    // Large enough to be worth its own write: no wait for the window (the feed stays in the window's
    // list; what it holds by then goes out when the window ends).
    const writeAt = this.owner.settings().writeAtBytes;
    if (writeAt > 0 && this.held.length > 0 && this.heldPageBytes >= writeAt) this.flush();
  }

  /** Holds a live write for the coalescing window (or writes it at once when coalescing is off). */
  private hold(item: LiveItem): void {
    this.held.push(item);
    if (this.held.length === 1 && !this.owner.coalesce(this)) this.flush();
  }

  /** The window ended (or the pages held reached `writeAtBytes`): the held writes go out in order, one write per stream. */
  flush(): void {
    if (this.held.length === 0) return;
    const items = this.held;
    this.held = [];
    this.heldPageBytes = 0;
    if (this.closed) return;
    this.dispatch(items);
  }

  /**
   * Writes the window's pages and chunks to the streams, in order, one write each. Each part is
   * encoded once and shared (a page per whole tree and per subtree, a chunk), and streams whose parts
   * are the same get the very same bytes.
   */
  private dispatch(items: LiveItem[]): void {
    const pages = items.map((item) => ("frames" in item ? new PageParts(item.frames) : null));
    const shared = new SharedWrites();
    for (const connection of this.live)
      shared.send(connection, this.partsFor(connection, items, pages, true));
    for (const connection of this.joining)
      shared.send(connection, this.partsFor(connection, items, pages, false));
  }

  /** The window's parts one stream gets, in order: pages for a live stream, chunks it wants. */
  private partsFor(
    connection: Connection,
    items: LiveItem[],
    pages: (PageParts | null)[],
    live: boolean,
  ): Uint8Array[] {
    const parts: Uint8Array[] = [];
    for (const [index, item] of items.entries()) {
      const page = pages[index];
      if (page) {
        // A joining stream gets the pages from the buffer when it attaches.
        const bytes = live ? page.bytesFor(connection, this) : null;
        if (bytes) parts.push(bytes);
      } else if (
        "chunk" in item &&
        item.seq > connection.chunksAfter &&
        connection.wants(item.chunk.threadId)
      ) {
        item.bytes ??= encodeChunk(item.chunk);
        parts.push(item.bytes);
      }
    }
    return parts;
  }

  /** The frames after `cursor` that the connection wants, back to back (null: none). */
  select(frames: EncodedFrame[], connection: Connection, cursor: number): Uint8Array | null {
    const wanted = frames.filter((frame) => frame.id > cursor && connection.wants(frame.threadId));
    return wanted.length > 0 ? concatFrames(wanted) : null;
  }

  /** A token chunk goes to every stream of the tree, also those still catching up (as before). */
  private chunk(chunk: ChunkEvent): void {
    this.chunkSeq += 1;
    if (this.live.size === 0 && this.joining.size === 0) return;
    this.hold({ chunk, seq: this.chunkSeq, bytes: null });
  }

  /**
   * The connection has caught up to the buffer: in one synchronous step it gets the buffered frames
   * after its cursor and then every live write.
   */
  attach(connection: Connection): void {
    if (connection.closed) return;
    this.joining.delete(connection);
    const frames = this.buffer.after(connection.cursor).filter((frame) => connection.wants(frame.threadId));
    connection.cursor = Math.max(connection.cursor, this.cursor);
    if (frames.length > 0) connection.send(concatFrames(frames));
    if (!connection.closed) this.live.add(connection);
  }

  /** A feed that has read nothing yet starts again at an earlier cursor (see catchUp). */
  restart(cursor: number): void {
    this.cursor = cursor;
    this.buffer.restart(cursor);
  }

  remove(connection: Connection): void {
    this.live.delete(connection);
    this.joining.delete(connection);
    if (connection.subtree) this.subtrees.release(connection.threadId);
    this.owner.forget(connection);
    if (this.viewers === 0) this.close();
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.held = [];
    this.unsubscribe?.();
    this.unsubscribe = null;
    this.owner.dropFeed(this);
  }
}

export class LiveWatch {
  private readonly feeds = new Map<string, TreeFeed>();
  private readonly connections = new Set<Connection>();
  private timer: ReturnType<typeof setInterval> | null = null;
  private cachedSettings: WatchSettings | null = null;
  /** Feeds holding live writes until the coalescing window ends, and that window's timer. */
  private readonly holding = new Set<TreeFeed>();
  private flushTimer: ReturnType<typeof setTimeout> | null = null;

  constructor(readonly deps: WatchDependencies) {}

  /** The settings, read once (a bad value throws on every request until it is fixed). */
  settings(): WatchSettings {
    this.cachedSettings ??= this.deps.settings();
    return this.cachedSettings;
  }

  /** Trees watched and streams open in this process (diagnostics, tests, benchmarks). */
  stats(): { trees: number; streams: number; bufferedFrames: number } {
    let bufferedFrames = 0;
    for (const feed of this.feeds.values()) bufferedFrames += feed.buffer.length;
    return { trees: this.feeds.size, streams: this.connections.size, bufferedFrames };
  }

  /** A stream of the tree's persisted events after `after` (and live chunks), SSE-encoded. */
  async open(request: WatchRequest): Promise<ReadableStream<Uint8Array>> {
    const settings = this.settings();
    let feed = this.feeds.get(request.rootId);
    if (!feed) {
      feed = new TreeFeed(request.rootId, request.after, this);
      this.feeds.set(request.rootId, feed);
    }
    let connection: Connection | null = null;
    const owner = feed;
    const stream = new ReadableStream<Uint8Array>(
      {
        start: (controller) => {
          connection = new Connection(
            owner,
            request.threadId,
            request.after,
            controller,
            settings.highWaterBytes,
          );
        },
        cancel: () => connection?.end(),
      },
      { highWaterMark: settings.highWaterBytes, size: (chunk) => chunk.byteLength },
    );
    const opened = connection as unknown as Connection;
    feed.joining.add(opened);
    this.connections.add(opened);
    this.startTimer(settings.keepAliveMs);
    try {
      if (request.threadId !== request.rootId) {
        // Registered before the query: a child announced after it is learned from its event.
        opened.subtree = feed.subtrees.acquire(request.threadId, []);
        for (const id of await findSubtreeIds(this.deps.db, request.threadId)) opened.subtree.ids.add(id);
      }
      await feed.ready;
    } catch (error) {
      opened.end();
      throw error;
    }
    request.signal?.addEventListener("abort", () => opened.end(), { once: true });
    if (request.signal?.aborted) opened.end();
    opened.send(HELLO_BYTES);
    // In one synchronous step: the text so far of each message being streamed here, then its live
    // chunks, before any persisted event (so a reply's chunks come before the reply, as they were).
    for (const chunk of this.deps.hub.inFlightChunks(request.rootId))
      if (opened.wants(chunk.threadId)) opened.send(encodeChunk(chunk));
    opened.chunksAfter = feed.chunkSeq;
    void this.catchUp(opened);
    return stream;
  }

  /** Reads the log for a stream behind the feed's buffer, then attaches it to the feed. */
  private async catchUp(connection: Connection): Promise<void> {
    const feed = connection.feed;
    try {
      for (;;) {
        if (connection.closed) return;
        if (connection.cursor >= feed.buffer.from) return feed.attach(connection);
        await connection.room();
        if (connection.closed) return;
        const evictions = feed.buffer.evictions;
        const { events, complete } = await readEventsAfter(
          this.deps.db,
          feed.rootId,
          connection.cursor,
          PAGE,
        );
        if (connection.closed) return;
        const wanted: EncodedFrame[] = [];
        for (const event of events) {
          feed.subtrees.learn(event);
          if (connection.wants(event.thread_id)) wanted.push(encodeEvent(event));
        }
        if (events.length > 0) connection.cursor = (events[events.length - 1] as StoredEvent).id;
        if (wanted.length > 0) connection.send(concatFrames(wanted));
        if (complete && feed.buffer.evictions === evictions) {
          // Nothing after the cursor is in the log, and the buffer lost nothing meanwhile. A feed that
          // has read nothing (it started at a later cursor than any event) starts again here.
          if (connection.cursor < feed.buffer.from && feed.buffer.length === 0 && !feed.reading) {
            feed.restart(connection.cursor);
            feed.pump();
          }
          return feed.attach(connection);
        }
      }
    } catch (error) {
      this.report("an event stream failed", error);
      connection.end();
    }
  }

  /**
   * @internal Holds a feed's live writes until the window ends (answers true), or answers false when
   * coalescing is off (the feed writes at once).
   */
  coalesce(feed: TreeFeed): boolean {
    const windowMs = this.settings().coalesceMs;
    if (windowMs <= 0) return false;
    this.holding.add(feed);
    this.flushTimer ??= setTimeout(() => this.flushHeld(), windowMs);
    return true;
  }

  /** The window ended: every feed writes what it held, one write per stream. */
  private flushHeld(): void {
    this.flushTimer = null;
    const holding = [...this.holding];
    this.holding.clear();
    for (const feed of holding) feed.flush();
  }

  /** Ends every stream (shutdown): clients reconnect elsewhere with Last-Event-ID. */
  close(): void {
    for (const connection of [...this.connections]) connection.end();
    this.stopTimer();
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = null;
    this.holding.clear();
  }

  /** @internal */
  forget(connection: Connection): void {
    this.connections.delete(connection);
    if (this.connections.size === 0) this.stopTimer();
  }

  /** @internal */
  dropFeed(feed: TreeFeed): void {
    if (this.feeds.get(feed.rootId) === feed) this.feeds.delete(feed.rootId);
  }

  /** @internal */
  report(what: string, error: unknown): void {
    const message = `[tandem] ${what}: ${error instanceof Error ? error.message : String(error)}`;
    if (this.deps.onError) this.deps.onError(message);
    else console.error(message);
  }

  /**
   * One timer for every stream, ticking every half keep-alive interval: a stream quiet for two
   * ticks gets a keep-alive, a tree quiet for two ticks reads the log again.
   */
  private startTimer(keepAliveMs: number): void {
    if (this.timer) return;
    this.timer = setInterval(() => this.tick(), Math.max(25, Math.floor(keepAliveMs / 2)));
    this.timer.unref?.();
  }

  private stopTimer(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  private tick(): void {
    for (const feed of this.feeds.values()) {
      feed.quietTicks += 1;
      if (feed.quietTicks >= 2 && !feed.reading && feed.live.size > 0) {
        feed.quietTicks = 0;
        feed.pump();
      }
    }
    for (const connection of this.connections) {
      connection.quietTicks += 1;
      if (connection.quietTicks >= 2) connection.send(KEEP_ALIVE_BYTES);
    }
  }
}
