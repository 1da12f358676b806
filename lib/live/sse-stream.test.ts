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

  it("reads fields the way the SSE format says", () => {
    expect(
      read([
        "data\n\n", // a field without a colon has an empty value
        "data:no space\ndata:  two spaces\n\n", // only one space after the colon is dropped
        "event:\ndata: x\n\n", // an empty event name is "message"
        "id: 3\0\ndata: y\n\n", // an id with a NUL is ignored
        "id\ndata: z\n\n", // an id line without a value is the empty id
        "event: thread\rdata: {}\r\r: end\n", // lines may end with CR alone
      ]),
    ).toEqual([
      { event: "message", data: "", id: null },
      { event: "message", data: "no space\n two spaces", id: null },
      { event: "message", data: "x", id: null },
      { event: "message", data: "y", id: null },
      { event: "message", data: "z", id: "" },
      { event: "thread", data: "{}", id: null },
    ]);
  });

  it("takes the id only from an id line: comments and other fields leave it alone", () => {
    expect(
      read([": comment\nretry: 100\nname: x\ndata: a\n\n", "id: 7\n: note\nretry: 5\ndata: b\n\n"]),
    ).toEqual([
      { event: "message", data: "a", id: null },
      { event: "message", data: "b", id: "7" },
    ]);
  });

  it("forgets a frame's name and id once it is dispatched", () => {
    expect(read(["id: 5\nevent: thread\ndata: a\n\ndata: b\n\n"])).toEqual([
      { event: "thread", data: "a", id: "5" },
      { event: "message", data: "b", id: null },
    ]);
  });

  it("waits for the end of a line, and for the LF after a CR at the end of a chunk", () => {
    const frames: SseFrame[] = [];
    const reader = createSseStreamReader((frame) => frames.push(frame));
    reader.push("data: a\r");
    reader.push("\n\r");
    expect(frames).toEqual([]);
    reader.push("\n");
    expect(frames).toEqual([{ event: "message", data: "a", id: null }]);
    reader.push("data: b");
    reader.push("c\n");
    expect(frames).toHaveLength(1);
    reader.push("\n");
    expect(frames.at(-1)).toEqual({ event: "message", data: "bc", id: null });
  });
});
