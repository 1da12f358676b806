// The pieces of the live event stream that are shared by every viewer of a tree (watch.ts): an
// event's SSE frame encoded once (`id:`/`event:`/`data:` bytes), the tree's ordered buffer of recent
// frames (a viewer joining at a cursor inside it is served from memory), and the subtree index (the
// thread ids below each thread some viewer watches, grown as `thread` events announce children), so
// the subtree filter is a set lookup, not a query per event.
import type { ChunkEvent } from "./event-hub";

const encoder = new TextEncoder();

/** One persisted event, encoded once for every connection. */
export interface EncodedFrame {
  readonly id: number;
  readonly threadId: string;
  readonly bytes: Uint8Array;
}

/** The fields of a stored event the stream sends. */
export interface FrameSource {
  id: number;
  thread_id: string;
  type: string;
  data: unknown;
}

export function encodeEvent(event: FrameSource): EncodedFrame {
  return {
    id: event.id,
    threadId: event.thread_id,
    bytes: encoder.encode(`id: ${event.id}\nevent: ${event.type}\ndata: ${JSON.stringify(event.data)}\n\n`),
  };
}

/** A token chunk (never persisted, so no id). */
export function encodeChunk(chunk: ChunkEvent): Uint8Array {
  return encoder.encode(
    `event: message_chunk\ndata: ${JSON.stringify({ thread_id: chunk.threadId, message_id: chunk.messageId, chunk: chunk.chunk, side: chunk.side })}\n\n`,
  );
}

/** The first bytes of every stream: the browser's reconnect delay and a comment. */
export const HELLO_BYTES = encoder.encode("retry: 1000\n: connected\n\n");
export const KEEP_ALIVE_BYTES = encoder.encode(": keep-alive\n\n");

/** The frames' bytes back to back: one write for a whole page of events. */
/** Byte arrays back to back, in one array. */
export function concatBytes(parts: readonly Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0] as Uint8Array;
  let length = 0;
  for (const part of parts) length += part.byteLength;
  const joined = new Uint8Array(length);
  let offset = 0;
  for (const part of parts) {
    joined.set(part, offset);
    offset += part.byteLength;
  }
  return joined;
}

export function concatFrames(frames: readonly EncodedFrame[]): Uint8Array {
  if (frames.length === 1) return (frames[0] as EncodedFrame).bytes;
  let length = 0;
  for (const frame of frames) length += frame.bytes.byteLength;
  const joined = new Uint8Array(length);
  let offset = 0;
  for (const frame of frames) {
    joined.set(frame.bytes, offset);
    offset += frame.bytes.byteLength;
  }
  return joined;
}

export interface FrameBufferLimits {
  frames: number;
  bytes: number;
}

/**
 * The most recent frames of a tree, oldest first. It holds every frame with an id above `from`:
 * a cursor at or above `from` can be served from here alone. Evicting the oldest frames (past either
 * limit) raises `from` and counts an eviction.
 */
export class FrameBuffer {
  private frames: EncodedFrame[] = [];
  private head = 0;
  private size = 0;
  /** Every frame with an id above this is held. */
  from: number;
  evictions = 0;

  constructor(
    from: number,
    private readonly limits: FrameBufferLimits,
  ) {
    this.from = from;
  }

  get length(): number {
    return this.frames.length - this.head;
  }

  get bytes(): number {
    return this.size;
  }

  push(frame: EncodedFrame): void {
    this.frames.push(frame);
    this.size += frame.bytes.byteLength;
    while (this.length > 1 && (this.length > this.limits.frames || this.size > this.limits.bytes)) {
      const oldest = this.frames[this.head] as EncodedFrame;
      this.head += 1;
      this.size -= oldest.bytes.byteLength;
      this.from = oldest.id;
      this.evictions += 1;
    }
    // Drop the evicted slots now and then (amortised O(1) per frame).
    if (this.head > 1024 && this.head * 2 > this.frames.length) {
      this.frames = this.frames.slice(this.head);
      this.head = 0;
    }
  }

  /** The held frames with an id above `cursor` (which must be ≥ `from`), oldest first. */
  after(cursor: number): EncodedFrame[] {
    let low = this.head;
    let high = this.frames.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((this.frames[middle] as EncodedFrame).id <= cursor) low = middle + 1;
      else high = middle;
    }
    return this.frames.slice(low);
  }

  /** Empty, holding everything above `from` (a feed that has read nothing yet moves its start). */
  restart(from: number): void {
    this.frames = [];
    this.head = 0;
    this.size = 0;
    this.from = from;
  }
}

/** The thread ids of one watched subtree; shared by every viewer of that thread. */
export interface Subtree {
  readonly ids: Set<string>;
}

/**
 * The watched subtrees of one tree, by their top thread. A `thread` event whose parent is in a set
 * adds the thread to it (children are created after their parent, so a set seeded with the subtree
 * as of the viewer's connection grows with it).
 */
export class SubtreeIndex {
  private readonly subtrees = new Map<string, { ids: Set<string>; viewers: number }>();

  get size(): number {
    return this.subtrees.size;
  }

  get(threadId: string): Subtree | undefined {
    return this.subtrees.get(threadId);
  }

  /** A viewer of `threadId` starts with these ids (the thread and its descendants as of now). */
  acquire(threadId: string, ids: Iterable<string>): Subtree {
    let subtree = this.subtrees.get(threadId);
    if (!subtree) {
      subtree = { ids: new Set([threadId]), viewers: 0 };
      this.subtrees.set(threadId, subtree);
    }
    for (const id of ids) subtree.ids.add(id);
    subtree.viewers += 1;
    return subtree;
  }

  release(threadId: string): void {
    const subtree = this.subtrees.get(threadId);
    if (!subtree) return;
    subtree.viewers -= 1;
    if (subtree.viewers <= 0) this.subtrees.delete(threadId);
  }

  /** Learns a thread from its event: it joins every watched subtree that holds its parent. */
  learn(event: FrameSource): void {
    if (this.subtrees.size === 0 || event.type !== "thread") return;
    const data = event.data as { id?: unknown; parent_id?: unknown } | null;
    if (!data || typeof data.id !== "string" || typeof data.parent_id !== "string") return;
    for (const subtree of this.subtrees.values())
      if (subtree.ids.has(data.parent_id)) subtree.ids.add(data.id);
  }
}
