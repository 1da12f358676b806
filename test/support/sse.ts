// A minimal Server-Sent Events client for tests: reads frames from a streaming fetch.
export interface SseFrame {
  id: string | null;
  event: string;
  data: string;
}

export interface SseConnection {
  frames: SseFrame[];
  /** Resolves when a frame matching the predicate has arrived (or rejects after the timeout). */
  waitFor(predicate: (frame: SseFrame) => boolean, timeoutMs?: number): Promise<SseFrame>;
  close(): void;
}

export async function connectSse(url: string, headers: Record<string, string> = {}): Promise<SseConnection> {
  const controller = new AbortController();
  const response = await fetch(url, {
    headers: { accept: "text/event-stream", ...headers },
    signal: controller.signal,
  });
  if (!response.ok || !response.body) throw new Error(`SSE connect failed: ${response.status}`);
  const frames: SseFrame[] = [];
  const waiters = new Set<() => void>();
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  void (async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        buffer += value;
        let boundary = buffer.indexOf("\n\n");
        while (boundary !== -1) {
          const block = buffer.slice(0, boundary);
          buffer = buffer.slice(boundary + 2);
          let id: string | null = null;
          let event = "message";
          const data: string[] = [];
          for (const line of block.split("\n")) {
            if (line.startsWith("id: ")) id = line.slice(4);
            else if (line.startsWith("event: ")) event = line.slice(7);
            else if (line.startsWith("data: ")) data.push(line.slice(6));
          }
          if (data.length > 0) frames.push({ id, event, data: data.join("\n") });
          for (const wake of waiters) wake();
          boundary = buffer.indexOf("\n\n");
        }
      }
    } catch {
      // closed
    }
  })();
  return {
    frames,
    async waitFor(predicate, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = frames.find(predicate);
        if (found) return found;
        if (Date.now() > deadline)
          throw new Error(`SSE frame not seen within ${timeoutMs} ms; got ${frames.length} frames`);
        await new Promise<void>((resolve) => {
          const wake = () => {
            waiters.delete(wake);
            resolve();
          };
          waiters.add(wake);
          setTimeout(wake, 100);
        });
      }
    },
    close: () => controller.abort(),
  };
}
