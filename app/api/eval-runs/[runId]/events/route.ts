// GET /api/eval-runs/:runId/events — the run as Server-Sent Events (API.md "Evaluations"): `progress`
// `{ done, total }`, `result` (each finished case result once, those finished before the stream
// opened first), and `run` (the whole run) when it ends, after which the stream closes. The stream
// reads the run back when the runner here reports a change (at most every 200 ms: a burst of results
// is read in one go, not once each), and every second besides (a run driven by another process), so
// it never misses a result and never sends one twice.
import { getRuntime } from "@/runtime/runtime";
import { handle } from "../../../_lib/http";

export const dynamic = "force-dynamic";

const POLL_MS = 1_000;
/** Reads of the run at most this often: results finishing together are read back once, not once each. */
const MIN_READ_GAP_MS = 200;
const KEEP_ALIVE_MS = 15_000;
const encoder = new TextEncoder();

const frame = (event: string, data: unknown) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

export const GET = handle(async (request: Request, context: { params: Promise<{ runId: string }> }) => {
  const { runId } = await context.params;
  const runtime = await getRuntime();
  await runtime.evals.getRun(runId); // 404 before the stream opens
  let closed = false;
  let unsubscribe = () => {};
  let wake: () => void = () => {};
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      const send = (text: string) => {
        if (!closed) controller.enqueue(encoder.encode(text));
      };
      const close = () => {
        if (closed) return;
        closed = true;
        unsubscribe();
        wake();
        try {
          controller.close();
        } catch {
          // already closed by the client
        }
      };
      request.signal.addEventListener("abort", close, { once: true });
      unsubscribe = runtime.evals.subscribe(runId, () => wake());
      const sent = new Set<string>();
      let lastProgress = "";
      let lastSentAt = Date.now();
      try {
        while (!closed) {
          const readAt = Date.now();
          const run = await runtime.evals.getRun(runId);
          for (const result of run.results) {
            const key = `${result.case_id}/${result.repetition}`;
            if (sent.has(key)) continue;
            sent.add(key);
            send(frame("result", result));
            lastSentAt = Date.now();
          }
          const progress = JSON.stringify(run.progress);
          if (progress !== lastProgress) {
            lastProgress = progress;
            send(frame("progress", run.progress));
            lastSentAt = Date.now();
          }
          if (run.status !== "running") {
            send(frame("run", run));
            break;
          }
          if (Date.now() - lastSentAt >= KEEP_ALIVE_MS) {
            send(": keep-alive\n\n");
            lastSentAt = Date.now();
          }
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, POLL_MS);
            wake = () => {
              clearTimeout(timer);
              setTimeout(resolve, closed ? 0 : Math.max(0, readAt + MIN_READ_GAP_MS - Date.now()));
            };
          });
        }
      } catch (error) {
        send(frame("error", { error: (error as Error).message }));
      }
      close();
    },
    cancel() {
      closed = true;
      unsubscribe();
      wake();
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
