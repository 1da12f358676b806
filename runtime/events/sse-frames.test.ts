// The shared pieces of the live stream (sse-frames.ts): an event encoded once into its SSE frame,
// pages joined into one write, the tree's buffer of recent frames (what a joining viewer is served
// from, and where it must read the log instead), and the subtree index that replaces a query per
// event with a set lookup; and the live streams' settings read from the environment (watch.ts).
import { describe, expect, it } from "vitest";
import {
  concatBytes,
  concatFrames,
  type EncodedFrame,
  encodeChunk,
  encodeEvent,
  FrameBuffer,
  SubtreeIndex,
} from "./sse-frames";
import { watchSettingsFromEnv } from "./watch";

const decoder = new TextDecoder();
const frame = (id: number, threadId = "t", size = 0): EncodedFrame =>
  encodeEvent({ id, thread_id: threadId, type: "message", data: { text: "x".repeat(size) } });

describe("encodeEvent / encodeChunk / concatFrames", () => {
  it("encodes an event as one id/event/data frame", () => {
    const encoded = encodeEvent({ id: 129, thread_id: "a", type: "thread", data: { id: "a", n: 1 } });
    expect(encoded.id).toBe(129);
    expect(encoded.threadId).toBe("a");
    expect(decoder.decode(encoded.bytes)).toBe('id: 129\nevent: thread\ndata: {"id":"a","n":1}\n\n');
  });

  it("escapes newlines inside the data (JSON), so a frame never ends early", () => {
    const encoded = encodeEvent({ id: 1, thread_id: "a", type: "message", data: { text: "a\n\nb" } });
    expect(decoder.decode(encoded.bytes).split("\n\n")).toEqual([
      'id: 1\nevent: message\ndata: {"text":"a\\n\\nb"}',
      "",
    ]);
  });

  it("encodes a chunk without an id", () => {
    const text = decoder.decode(
      encodeChunk({ rootId: "r", threadId: "t", messageId: "m", chunk: "hel", side: "a" }),
    );
    expect(text).toBe(
      'event: message_chunk\ndata: {"thread_id":"t","message_id":"m","chunk":"hel","side":"a"}\n\n',
    );
  });

  it("joins a page's frames back to back, and hands a single frame's own bytes back", () => {
    const frames = [frame(1), frame(2), frame(3)];
    const joined = concatFrames(frames);
    expect(decoder.decode(joined)).toBe(frames.map((f) => decoder.decode(f.bytes)).join(""));
    const only = frame(9);
    expect(concatFrames([only])).toBe(only.bytes);
  });
});

describe("FrameBuffer", () => {
  it("serves every frame after a cursor at or above `from`, oldest first", () => {
    const buffer = new FrameBuffer(10, { frames: 100, bytes: 1 << 20 });
    for (const id of [11, 12, 20, 21]) buffer.push(frame(id));
    expect(buffer.after(10).map((f) => f.id)).toEqual([11, 12, 20, 21]);
    expect(buffer.after(12).map((f) => f.id)).toEqual([20, 21]);
    expect(buffer.after(15).map((f) => f.id)).toEqual([20, 21]);
    expect(buffer.after(21)).toEqual([]);
    expect(buffer.from).toBe(10);
  });

  it("evicts the oldest frames past the frame limit and raises `from` to the last evicted id", () => {
    const buffer = new FrameBuffer(0, { frames: 3, bytes: 1 << 20 });
    for (let id = 1; id <= 5; id += 1) buffer.push(frame(id));
    expect(buffer.length).toBe(3);
    expect(buffer.from).toBe(2);
    expect(buffer.evictions).toBe(2);
    expect(buffer.after(buffer.from).map((f) => f.id)).toEqual([3, 4, 5]);
  });

  it("evicts past the byte limit, keeps its byte count exact, and keeps at least the newest frame", () => {
    const big = frame(1, "t", 1000).bytes.byteLength;
    const buffer = new FrameBuffer(0, { frames: 100, bytes: big * 2 });
    for (let id = 1; id <= 4; id += 1) buffer.push(frame(id, "t", 1000));
    expect(buffer.length).toBe(2);
    expect(buffer.bytes).toBe(big * 2);
    const huge = new FrameBuffer(0, { frames: 100, bytes: 10 });
    huge.push(frame(7, "t", 1000));
    expect(huge.after(0).map((f) => f.id)).toEqual([7]);
  });

  it("stays correct across many evictions (the evicted slots are compacted)", () => {
    const buffer = new FrameBuffer(0, { frames: 50, bytes: 1 << 30 });
    for (let id = 1; id <= 5_000; id += 1) buffer.push(frame(id));
    expect(buffer.from).toBe(4_950);
    expect(buffer.after(4_990).map((f) => f.id)).toEqual([
      4_991, 4_992, 4_993, 4_994, 4_995, 4_996, 4_997, 4_998, 4_999, 5_000,
    ]);
    expect(buffer.evictions).toBe(4_950);
  });

  it("restarts empty at an earlier cursor", () => {
    const buffer = new FrameBuffer(100, { frames: 10, bytes: 1 << 20 });
    buffer.restart(40);
    expect(buffer.from).toBe(40);
    buffer.push(frame(41));
    expect(buffer.after(40).map((f) => f.id)).toEqual([41]);
  });
});

describe("SubtreeIndex", () => {
  const threadEvent = (id: string, parent: string | null) => ({
    id: 1,
    thread_id: id,
    type: "thread",
    data: { id, parent_id: parent },
  });

  it("grows a watched subtree with its descendants as their thread events arrive, and only those", () => {
    const index = new SubtreeIndex();
    const subtree = index.acquire("child", ["child", "grandchild"]);
    index.learn(threadEvent("great-grandchild", "grandchild"));
    index.learn(threadEvent("sibling", "root"));
    index.learn(threadEvent("niece", "sibling"));
    index.learn({ id: 2, thread_id: "x", type: "message", data: { id: "y", parent_id: "child" } });
    expect([...subtree.ids].sort()).toEqual(["child", "grandchild", "great-grandchild"]);
  });

  it("shares one set between the viewers of a thread and drops it with the last one", () => {
    const index = new SubtreeIndex();
    const first = index.acquire("child", []);
    const second = index.acquire("child", ["descendant"]);
    expect(second).toBe(first);
    expect(first.ids.has("child")).toBe(true);
    expect(first.ids.has("descendant")).toBe(true);
    index.release("child");
    expect(index.get("child")).toBe(first);
    index.release("child");
    expect(index.get("child")).toBeUndefined();
    expect(index.size).toBe(0);
  });

  it("adds a child to every watched subtree holding its parent (nested viewers)", () => {
    const index = new SubtreeIndex();
    const outer = index.acquire("a", ["a", "b"]);
    const inner = index.acquire("b", ["b"]);
    index.learn(threadEvent("c", "b"));
    expect(outer.ids.has("c")).toBe(true);
    expect(inner.ids.has("c")).toBe(true);
  });
});

describe("concatBytes", () => {
  it("joins parts in order, and hands a single part back as it is", () => {
    const one = new Uint8Array([1, 2]);
    expect(concatBytes([one])).toBe(one);
    expect([...concatBytes([one, new Uint8Array([]), new Uint8Array([3])])]).toEqual([1, 2, 3]);
  });
});

describe("watchSettingsFromEnv", () => {
  it("reads the coalescing window (default 10 ms, 0 turns it off) and refuses a bad one by name", () => {
    expect(watchSettingsFromEnv({}).coalesceMs).toBe(10);
    expect(watchSettingsFromEnv({ TANDEM_SSE_COALESCE_MS: "0" }).coalesceMs).toBe(0);
    expect(watchSettingsFromEnv({ TANDEM_SSE_COALESCE_MS: " 25 " }).coalesceMs).toBe(25);
    for (const bad of ["-1", "1001", "2.5", "soon"])
      expect(() => watchSettingsFromEnv({ TANDEM_SSE_COALESCE_MS: bad })).toThrow(
        `TANDEM_SSE_COALESCE_MS must be a whole number, 0–1000; got "${bad}".`,
      );
  });

  it("reads the size at which held pages go out at once (default 16 KiB, 0: they wait for the window)", () => {
    expect(watchSettingsFromEnv({}).writeAtBytes).toBe(16_384);
    expect(watchSettingsFromEnv({ TANDEM_SSE_WRITE_AT_BYTES: "0" }).writeAtBytes).toBe(0);
    expect(watchSettingsFromEnv({ TANDEM_SSE_WRITE_AT_BYTES: "65536" }).writeAtBytes).toBe(65_536);
    expect(() => watchSettingsFromEnv({ TANDEM_SSE_WRITE_AT_BYTES: "lots" })).toThrow(
      /TANDEM_SSE_WRITE_AT_BYTES must be a whole number/,
    );
  });
});
