// GET /api/threads/:id/messages — chronological top-level messages (?depth=N adds sub-prompt ones); POST — queue a message (202 after commit; a `traceparent` header puts a new run in the caller's trace).
import { PostMessageBodySchema } from "@/lib/contracts/thread-requests";
import { getRuntime } from "@/runtime/runtime";
import { withServerAttachments } from "../../../_lib/attachments";
import { handle, integerParam, readJson } from "../../../_lib/http";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string }> };

const PostMessageBody = withServerAttachments(PostMessageBodySchema);

export const GET = handle(async (request: Request, context: Context) => {
  const { id } = await context.params;
  const url = new URL(request.url);
  const includeSilent = ["1", "true", "yes"].includes(
    (url.searchParams.get("includeSilent") ?? "").toLowerCase(),
  );
  const limit = integerParam(url, "limit", { min: 1, max: 10_000 });
  const offset = integerParam(url, "offset", { min: 0 });
  const depth = integerParam(url, "depth", { min: 0, max: 10 });
  const runtime = await getRuntime();
  return Response.json(
    await runtime.threads.messages(id, {
      includeSilent,
      ...(limit !== undefined ? { limit } : {}),
      ...(offset !== undefined ? { offset } : {}),
      ...(depth !== undefined ? { maxDepth: depth } : {}),
    }),
  );
});

export const POST = handle(async (request: Request, context: Context) => {
  const { id } = await context.params;
  const body = await readJson(request, PostMessageBody);
  const runtime = await getRuntime();
  const queued = await runtime.threads.postMessage(id, {
    content: body.content,
    ...(body.role ? { role: body.role } : {}),
    ...(body.silent !== undefined ? { silent: body.silent } : {}),
    ...(body.attachments ? { attachments: body.attachments } : {}),
    // Traces out: a new run joins the caller's trace (docs/observability.md).
    traceparent: request.headers.get("traceparent"),
  });
  return Response.json(queued, { status: 202 });
});
