import { describe, expect, it } from "vitest";
import type { SseFrame } from "./events";
import { createSseStreamReader } from "./sse-stream";

function read(chunks: string[]): SseFrame[] {
  const frames: SseFrame[] = [];
  const reader = createSseStreamReader((frame) => frames.push(frame));
  for (const chunk of chunks) reader.push(chunk);
  return frames;
}

describe("createSseStreamReader", () => {
  it("reads the server's frames with ids, names and data", () => {
    expect(read(['id: 7\nevent: thread\ndata: {"a":1}\n\n', "event: message_chunk\ndata: x\n\n"])).toEqual([
      { event: "thread", data: '{"a":1}', id: "7" },
      { event: "message_chunk", data: "x", id: null },
    ]);
  });

  it("joins frames split anywhere across chunks, including inside a line ending", () => {
    const text =
      'id: 12\r\nevent: registry\r\ndata: {"b":2}\r\n\r\n: keep-alive\n\nid: 13\ndata: line one\ndata: line two\n\n';
    for (let cut = 1; cut < text.length; cut += 1) {
      expect(read([text.slice(0, cut), text.slice(cut)])).toEqual([
        { event: "registry", data: '{"b":2}', id: "12" },
        { event: "message", data: "line one\nline two", id: "13" },
      ]);
    }
  });

  it("ignores comments, unknown fields and frames without data, and keeps an incomplete frame", () => {
    const frames: SseFrame[] = [];
    const reader = createSseStreamReader((frame) => frames.push(frame));
    reader.push(": keep-alive\n\nretry: 100\n\nid: 1\nevent: thread\n\nid: 2\nevent: thread\ndata: {}");
    expect(frames).toEqual([]);
    reader.push("\n\n");
    expect(frames).toEqual([{ event: "thread", data: "{}", id: "2" }]);
  });
});
