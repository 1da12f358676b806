// GET /api/threads/:id/events — Server-Sent Events for the thread and all its descendants. Every
// persisted event carries its log id; reconnecting with Last-Event-ID (or ?after=) replays what
// came after it, with no gap and nothing twice. Token chunks (`message_chunk`) are not persisted: a
// new stream first gets the text so far of each message being streamed in this process (one chunk
// per message, EventHub), then the live chunks, so a reply joined mid-stream shows from its start.
import { z } from "zod";
import { getRuntime, type StoredEvent } from "@/runtime/runtime";
import { handle, jsonError } from "../../../_lib/http";

export const dynamic = "force-dynamic";

/**
 * A stream that sent nothing for this long sends a keep-alive comment and reads the log again: an
 * event whose NOTIFY was lost (the listener's connection was re-established) arrives within it.
 * TANDEM_SSE_KEEP_ALIVE_MS changes it (tests); a bad value fails the request with the reason logged.
 */
function keepAliveMs(raw: string | undefined): number {
  const parsed = z.coerce
    .number()
    .int()
    .min(50)
    .max(300_000)
    .safeParse(raw?.trim() || 15_000);
  if (!parsed.success)
    throw new Error(`TANDEM_SSE_KEEP_ALIVE_MS must be a whole number of ms, 50–300000; got "${raw}".`);
  return parsed.data;
}
const encoder = new TextEncoder();

function frame(event: StoredEvent): string {
  return `id: ${event.id}\nevent: ${event.type}\ndata: ${JSON.stringify(event.data)}\n\n`;
}

export const GET = handle(async (request: Request, context: { params: Promise<{ id: string }> }) => {
  const { id } = await context.params;
  const url = new URL(request.url);
  const resumeFrom = request.headers.get("last-event-id") ?? url.searchParams.get("after") ?? "0";
  if (!/^\d+$/.test(resumeFrom.trim())) {
    return jsonError(
      400,
      "invalid_request",
      "Last-Event-ID (or ?after=) must be a non-negative integer event id.",
    );
  }
  const keepAliveIntervalMs = keepAliveMs(process.env.TANDEM_SSE_KEEP_ALIVE_MS);
  const runtime = await getRuntime();
  const thread = await runtime.threads.require(id);
  // For a thread below the root, only its own subtree's events are sent; the set grows as children appear.
  const subtree: Set<string> | null =
    thread.root_id === thread.id ? null : new Set(await runtime.eventLog.subtreeIds(id));
  const belongs = (event: StoredEvent) => {
    if (!subtree) return true;
    const data = event.data as { id?: string; parent_id?: string | null };
    if (event.type === "thread" && data.parent_id && subtree.has(data.parent_id) && data.id)
      subtree.add(data.id);
    return subtree.has(event.thread_id);
  };

  let cursor = Number(resumeFrom);
  let closed = false;
  let pending = true;
  let wake: (() => void) | null = null;
  let unsubscribe: (() => void) | null = null;

  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      let lastSentAt = Date.now();
      const send = (text: string) => {
        if (closed) return;
        controller.enqueue(encoder.encode(text));
        lastSentAt = Date.now();
      };
      const close = () => {
        if (closed) return;
        closed = true;
        unsubscribe?.();
        wake?.();
        try {
          controller.close();
        } catch {
          // already closed by the client
        }
      };
      request.signal.addEventListener("abort", close);
      unsubscribe = await runtime.events.subscribe(thread.root_id, {
        viewer: true,
        onEventsAvailable: () => {
          pending = true;
          wake?.();
        },
        onChunk: (chunk) => {
          if (subtree && !subtree.has(chunk.threadId)) return;
          send(
            `event: message_chunk\ndata: ${JSON.stringify({ thread_id: chunk.threadId, message_id: chunk.messageId, chunk: chunk.chunk, side: chunk.side })}\n\n`,
          );
        },
      });
      if (closed) unsubscribe();
      send("retry: 1000\n: connected\n\n");
      try {
        while (!closed) {
          if (pending) {
            pending = false;
            for (;;) {
              const { events, complete } = await runtime.eventLog.readAfter(thread.root_id, cursor, 500);
              for (const event of events) {
                cursor = event.id;
                if (belongs(event)) send(frame(event));
              }
              if (complete || events.length === 0) break;
            }
            continue;
          }
          const timedOut = await new Promise<boolean>((resolve) => {
            const timer = setTimeout(
              () => resolve(true),
              Math.max(0, keepAliveIntervalMs - (Date.now() - lastSentAt)),
            );
            wake = () => {
              clearTimeout(timer);
              resolve(false);
            };
          });
          wake = null;
          if (timedOut) {
            // Quiet for a while: keep the connection open, and read the log again in case a NOTIFY
            // was lost (the re-read sends only what is new: the cursor moves with every event).
            pending = true;
            if (Date.now() - lastSentAt >= keepAliveIntervalMs) send(": keep-alive\n\n");
          }
        }
      } catch (error) {
        console.error("[tandem] event stream failed:", error instanceof Error ? error.message : error);
        close();
      }
    },
    cancel() {
      closed = true;
      unsubscribe?.();
      wake?.();
    },
  });

  return new Response(stream, {
    headers: {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache, no-transform",
      connection: "keep-alive",
      "x-accel-buffering": "no",
    },
  });
});
