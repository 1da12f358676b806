// GET /api/threads/:id/events — Server-Sent Events for the thread and all its descendants. Every
// persisted event carries its log id; reconnecting with Last-Event-ID (or ?after=) replays what
// came after it, with no gap and nothing twice. The stream is one viewer of the process's shared
// feed of the tree (runtime/events/watch.ts, docs/live.md "Watching"): one subscription and one
// encoding per event for all viewers; a client that stops reading is disconnected past
// TANDEM_SSE_HIGH_WATER_BYTES queued and resumes with Last-Event-ID.
import { getRuntime } from "@/runtime/runtime";
import { handle, jsonError } from "../../../_lib/http";

export const dynamic = "force-dynamic";

export const GET = handle(async (request: Request, context: { params: Promise<{ id: string }> }) => {
  const { id } = await context.params;
  const resumeFrom =
    request.headers.get("last-event-id") ?? new URL(request.url).searchParams.get("after") ?? "0";
  if (!/^\d+$/.test(resumeFrom.trim())) {
    return jsonError(
      400,
      "invalid_request",
      "Last-Event-ID (or ?after=) must be a non-negative integer event id.",
    );
  }
  const runtime = await getRuntime();
  const thread = await runtime.threads.require(id);
  const stream = await runtime.watch.open({
    rootId: thread.root_id,
    threadId: thread.id,
    after: Number(resumeFrom),
    signal: request.signal,
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
