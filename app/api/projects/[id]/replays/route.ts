// POST /api/projects/:id/replays — replays several runs at once, the regression check of docs/live.md
// "Replay" (a Tandem extension): `{ thread_ids?, limit? = 20, from_version? = "latest" }`. Without ids,
// the latest `limit` finished root runs that are not replays themselves. Answers 201
// `{ batch_id, replays: [{ source, threadId }], skipped: [{ thread_id, reason }] }`.
// GET /api/projects/:id/replays — the latest such batch, each replay with its progress:
// `{ batch: { id, from_version, created_at, state, replays: [{ source, threadId, status }], skipped } | null }`.
import { ReplayManyRequestSchema } from "@/lib/contracts/replay";
import { getRuntime } from "@/runtime/runtime";
import { handle, parseJsonBody, readBodyText } from "../../../_lib/http";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string }> };

export const POST = handle(async (request: Request, context: Context) => {
  const { id } = await context.params;
  const body = ReplayManyRequestSchema.parse(parseJsonBody(await readBodyText(request)) ?? {});
  const runtime = await getRuntime();
  const started = await runtime.replays.replayMany(id, {
    ...(body.thread_ids ? { threadIds: body.thread_ids } : {}),
    limit: body.limit,
    fromVersion: body.from_version,
  });
  return Response.json(started, { status: 201 });
});

export const GET = handle(async (_request: Request, context: Context) => {
  const { id } = await context.params;
  const runtime = await getRuntime();
  return Response.json({ batch: await runtime.replays.latestBatch(id) });
});
