// The HTTP client of the HTTP benchmarks (http-load, http-cost), on node:http so its own CPU stays
// small next to the server's: JSON requests over a pool of keep-alive sockets, and a thread's event
// stream read as a chat page reads it (SSE framing parsed; only `message` events' data is parsed as
// JSON, to count the distinct assistant messages that arrived).
import http from "node:http";

export interface HttpClient {
  /** Sends `body` as JSON; resolves with the status and the raw response text. */
  json(method: string, path: string, body?: unknown): Promise<{ status: number; text: string }>;
  close(): void;
}

/** A client of `baseUrl` with at most `sockets` requests in flight (more wait in the pool's queue). */
export function httpClient(baseUrl: string, sockets: number): HttpClient {
  const url = new URL(baseUrl);
  const agent = new http.Agent({ keepAlive: true, maxSockets: sockets });
  return {
    json(method, path, body) {
      const payload = body === undefined ? undefined : JSON.stringify(body);
      return new Promise((resolve, reject) => {
        const request = http.request(
          {
            host: url.hostname,
            port: url.port,
            method,
            path,
            agent,
            headers: payload
              ? { "content-type": "application/json", "content-length": Buffer.byteLength(payload) }
              : {},
          },
          (response) => {
            response.setEncoding("utf8");
            let text = "";
            response.on("data", (chunk: string) => {
              text += chunk;
            });
            response.on("end", () => resolve({ status: response.statusCode ?? 0, text }));
            response.on("error", reject);
          },
        );
        request.on("error", reject);
        request.end(payload);
      });
    },
    close: () => agent.destroy(),
  };
}

export interface ReplyStream {
  /** Resolves when `count` distinct assistant messages of the thread arrived; rejects on end or timeout. */
  waitForReplies(count: number, timeoutMs: number): Promise<void>;
  close(): void;
}

/**
 * Opens `GET /api/threads/:id/events` with `Last-Event-ID: 0` (so nothing sent before it opened is
 * missed) on its own socket, as a chat page does, and counts the assistant messages it carries.
 */
export function openReplyStream(baseUrl: string, threadId: string): Promise<ReplyStream> {
  return new Promise((resolve, reject) => {
    const assistant = new Set<string>();
    const waiters = new Set<() => void>();
    let ended = false;
    const request = http.get(
      `${baseUrl}/api/threads/${threadId}/events`,
      { headers: { accept: "text/event-stream", "last-event-id": "0" }, agent: false },
      (response) => {
        if (response.statusCode !== 200) {
          response.resume();
          reject(new Error(`events of ${threadId}: status ${response.statusCode}`));
          return;
        }
        response.setEncoding("utf8");
        const finish = () => {
          ended = true;
          for (const wake of waiters) wake();
        };
        response.on("end", finish);
        response.on("close", finish);
        response.on("error", finish);
        let pending = "";
        let event = "message";
        let data = "";
        const line = (text: string) => {
          if (text === "") {
            if (event === "message" && data !== "") {
              const parsed = JSON.parse(data) as { message?: { id?: string; role?: string } };
              if (parsed.message?.role === "assistant" && parsed.message.id) {
                assistant.add(parsed.message.id);
                for (const wake of waiters) wake();
              }
            }
            event = "message";
            data = "";
            return;
          }
          if (text.startsWith("event:")) event = text.slice(6).trim();
          else if (text.startsWith("data:")) {
            const value = text.slice(5);
            data += data === "" ? value.replace(/^ /, "") : `\n${value.replace(/^ /, "")}`;
          }
        };
        response.on("data", (chunk: string) => {
          pending += chunk;
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
          waitForReplies(count, timeoutMs) {
            return new Promise<void>((done, fail) => {
              const check = () => {
                if (assistant.size >= count) {
                  cleanup();
                  done();
                } else if (ended) {
                  cleanup();
                  fail(new Error(`the events of ${threadId} ended after ${assistant.size} replies`));
                }
              };
              const timer = setTimeout(() => {
                cleanup();
                fail(new Error(`${count} replies of ${threadId} not seen within ${timeoutMs} ms`));
              }, timeoutMs);
              const cleanup = () => {
                clearTimeout(timer);
                waiters.delete(check);
              };
              waiters.add(check);
              check();
            });
          },
          close: () => request.destroy(),
        });
      },
    );
    request.on("error", (error) => {
      ended = true;
      for (const wake of waiters) wake();
      reject(error);
    });
  });
}

export interface TimedStream {
  /** Persisted events' ids, in arrival order. */
  readonly ids: number[];
  /** When each of `ids` arrived (wall clock, µs since the epoch, as the events table's created_at). */
  readonly arrivedMicros: number[];
  waitForId(id: number, timeoutMs: number): Promise<void>;
  close(): void;
}

/** The wall clock in µs since the epoch, with sub-millisecond resolution. */
export function epochMicros(): number {
  return Math.round((performance.timeOrigin + performance.now()) * 1000);
}

/**
 * Opens a thread's event stream with `Last-Event-ID` and records, for every persisted event, its id
 * and when its frame's last byte arrived here (payloads are not parsed).
 */
export function openTimedStream(url: string, lastEventId: number): Promise<TimedStream> {
  return new Promise((resolve, reject) => {
    const ids: number[] = [];
    const arrivedMicros: number[] = [];
    const waiters = new Set<() => void>();
    let ended = false;
    const request = http.get(
      url,
      { headers: { accept: "text/event-stream", "last-event-id": String(lastEventId) }, agent: false },
      (response) => {
        if (response.statusCode !== 200) {
          response.resume();
          reject(new Error(`${url}: status ${response.statusCode}`));
          return;
        }
        response.setEncoding("utf8");
        const finish = () => {
          ended = true;
          for (const wake of waiters) wake();
        };
        response.on("end", finish);
        response.on("close", finish);
        response.on("error", finish);
        let pending = "";
        let id: number | null = null;
        response.on("data", (chunk: string) => {
          const at = epochMicros();
          pending += chunk;
          let start = 0;
          for (;;) {
            const newline = pending.indexOf("\n", start);
            if (newline === -1) break;
            const end = newline > start && pending.charCodeAt(newline - 1) === 13 ? newline - 1 : newline;
            const text = pending.slice(start, end);
            if (text === "") {
              if (id !== null) {
                ids.push(id);
                arrivedMicros.push(at);
              }
              id = null;
            } else if (text.startsWith("id:")) {
              const value = text.slice(3).trim();
              id = /^\d+$/.test(value) ? Number(value) : null;
            }
            start = newline + 1;
          }
          pending = pending.slice(start);
          if (ids.length > 0) for (const wake of waiters) wake();
        });
        resolve({
          ids,
          arrivedMicros,
          waitForId(target, timeoutMs) {
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
                fail(new Error(`id ${target} not seen within ${timeoutMs} ms`));
              }, timeoutMs);
              const cleanup = () => {
                clearTimeout(timer);
                waiters.delete(check);
              };
              waiters.add(check);
              check();
            });
          },
          close: () => request.destroy(),
        });
      },
    );
    request.on("error", (error) => {
      ended = true;
      for (const wake of waiters) wake();
      reject(error);
    });
  });
}
