// The text/event-stream wire format, read incrementally (pure): feed it decoded text as it arrives and
// it hands over each complete frame. The live view reads the stream with fetch instead of
// EventSource: no DOM event object per frame (at 100 events/s those wrappers made the browser's
// major GC pauses long enough to block the page; docs/benchmarks.md, "UI"), and it chooses its own
// Last-Event-ID when it reconnects.
import type { SseFrame } from "./events";

const LF = 10;
const CR = 13;

export interface SseStreamReader {
  /** Decoded text as it arrives; complete frames go to `onFrame`, the rest waits for more text. */
  push(text: string): void;
}

export function createSseStreamReader(onFrame: (frame: SseFrame) => void): SseStreamReader {
  let buffer = "";
  let event = "";
  let data: string[] = [];
  let id: string | null = null;
  const dispatch = () => {
    if (data.length > 0) onFrame({ event: event || "message", data: data.join("\n"), id });
    event = "";
    data = [];
    id = null;
  };
  const line = (text: string) => {
    if (text === "") return dispatch();
    // A comment (": keep-alive") has the empty field name, which no branch below takes.
    const colon = text.indexOf(":");
    const field = colon === -1 ? text : text.slice(0, colon);
    let value = colon === -1 ? "" : text.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "event") event = value;
    else if (field === "data") data.push(value);
    else if (field === "id" && !value.includes("\0")) id = value;
  };
  return {
    push(text: string) {
      buffer += text;
      let start = 0;
      // No loop condition: the search for a line's end stops at the end of the buffer.
      for (;;) {
        let end = start;
        while (end < buffer.length && buffer.charCodeAt(end) !== LF && buffer.charCodeAt(end) !== CR)
          end += 1;
        if (end === buffer.length) break;
        // A CR at the very end may be the first half of CRLF: wait for the next chunk.
        if (buffer.charCodeAt(end) === CR && end + 1 === buffer.length) break;
        line(buffer.slice(start, end));
        start = end + (buffer.charCodeAt(end) === CR && buffer.charCodeAt(end + 1) === LF ? 2 : 1);
      }
      buffer = buffer.slice(start);
    },
  };
}
