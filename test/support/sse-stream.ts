// A Server-Sent Events client on node:http for tests and benchmarks that need more than fetch gives:
// many concurrent streams with little client cost (ids and event names kept, data optional), a
// client that stops reading (`pause`: the socket is no longer read, so the server's writes back up),
// and the moment the server ends the stream. Parses the wire format: `id:`, `event:`, `data:` lines
// (one optional space after the colon), comments (`:`), frames ended by a blank line, CRLF or LF.
import http from "node:http";

export interface SseEvent {
  id: number | null;
  event: string;
  /** Kept only with `keepData`. */
  data: string | null;
}

export interface SseStream {
  /** The persisted events' ids, in arrival order. */
  readonly ids: number[];
  /** Every frame with data (ids and id-less chunks), in arrival order. */
  readonly events: SseEvent[];
  /** Comment lines seen (`connected`, `keep-alive`). */
  readonly comments: string[];
  readonly bytes: number;
  /** Resolves when the server ended the response (or the socket closed). */
  readonly ended: Promise<void>;
  readonly isEnded: () => boolean;
  /** Resolves when a persisted event with an id ≥ `id` arrived; rejects on timeout or end. */
  waitForId(id: number, timeoutMs?: number): Promise<void>;
  pause(): void;
  resume(): void;
  close(): void;
}

export interface SseOptions {
  lastEventId?: number;
  keepData?: boolean;
  agent?: http.Agent;
}

/** Opens `url` as an event stream; resolves once the response headers arrived (status 200). */
export function openSseStream(url: string, options: SseOptions = {}): Promise<SseStream> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { accept: "text/event-stream" };
    if (options.lastEventId !== undefined) headers["last-event-id"] = String(options.lastEventId);
    const request = http.get(url, { headers, agent: options.agent ?? false }, (response) => {
      if (response.statusCode !== 200) {
        response.resume();
        reject(new Error(`SSE ${url}: status ${response.statusCode}`));
        return;
      }
      response.setEncoding("utf8");
      const ids: number[] = [];
      const events: SseEvent[] = [];
      const comments: string[] = [];
      const waiters = new Set<() => void>();
      let bytes = 0;
      let ended = false;
      let pending = "";
      let id: number | null = null;
      let event = "message";
      let data: string[] = [];
      let hasData = false;
      const endedPromise = new Promise<void>((done) => {
        const finish = () => {
          if (ended) return;
          ended = true;
          done();
          for (const wake of waiters) wake();
        };
        response.on("end", finish);
        response.on("close", finish);
        response.on("error", finish);
        request.on("error", finish);
      });
      const line = (text: string) => {
        if (text === "") {
          if (hasData) {
            if (id !== null) ids.push(id);
            events.push({ id, event, data: options.keepData ? data.join("\n") : null });
            for (const wake of waiters) wake();
          }
          id = null;
          event = "message";
          data = [];
          hasData = false;
          return;
        }
        if (text.startsWith(":")) {
          comments.push(text.slice(1).trim());
          return;
        }
        const colon = text.indexOf(":");
        const field = colon === -1 ? text : text.slice(0, colon);
        let value = colon === -1 ? "" : text.slice(colon + 1);
        if (value.startsWith(" ")) value = value.slice(1);
        if (field === "id") id = /^\d+$/.test(value) ? Number(value) : null;
        else if (field === "event") event = value;
        else if (field === "data") {
          hasData = true;
          if (options.keepData) data.push(value);
        }
      };
      response.on("data", (text: string) => {
        bytes += Buffer.byteLength(text);
        pending += text;
        let start = 0;
        for (;;) {
          const newline = pending.indexOf("\n", start);
          if (newline === -1) break;
          const end = newline > start && pending.charCodeAt(newline - 1) === 13 ? newline - 1 : newline;
          line(pending.slice(start, end));
          start = newline + 1;
        }
        pending = pending.slice(start);
      });
      resolve({
        ids,
        events,
        comments,
        get bytes() {
          return bytes;
        },
        ended: endedPromise,
        isEnded: () => ended,
        waitForId(target, timeoutMs = 60_000) {
          return new Promise<void>((done, fail) => {
            const check = () => {
              if ((ids[ids.length - 1] ?? -1) >= target) {
                cleanup();
                done();
              } else if (ended) {
                cleanup();
                fail(new Error(`stream ended at id ${ids[ids.length - 1] ?? "none"} before ${target}`));
              }
            };
            const timer = setTimeout(() => {
              cleanup();
              fail(new Error(`id ${target} not seen within ${timeoutMs} ms (last ${ids[ids.length - 1]})`));
            }, timeoutMs);
            const cleanup = () => {
              clearTimeout(timer);
              waiters.delete(check);
            };
            waiters.add(check);
            check();
          });
        },
        pause: () => response.pause(),
        resume: () => response.resume(),
        close: () => request.destroy(),
      });
    });
    request.on("error", reject);
  });
}
