// POST /api/threads/:id/fork — a new root thread holding this one's history up to a message, and its
// files, optionally followed by a new user message (API.md "Replay, fork and diff";
// runtime/services/thread-fork.ts says what is copied and where the cut may fall).
import { ForkRequestSchema } from "@/lib/contracts/run-diff";
import { getRuntime } from "@/runtime/runtime";
import { handle, readJson } from "../../../_lib/http";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string }> };

export const POST = handle(async (request: Request, context: Context) => {
  const { id } = await context.params;
  const body = await readJson(request, ForkRequestSchema);
  const runtime = await getRuntime();
  const forked = await runtime.forks.fork(id, {
    atMessageId: body.at_message_id,
    ...(body.content !== undefined ? { content: body.content } : {}),
    ...(body.replace !== undefined ? { replace: body.replace } : {}),
  });
  return Response.json(forked, { status: 201 });
});
