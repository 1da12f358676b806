// GET/POST /api/threads/:parentId/variables/:requestId — scoped variable bootstrap (spec §7.8): list
// the variables a deferred subagent needs; POST { values } stores them (never shown to a model) and
// boots the child with the original creation payload. 422 while values are still missing.
import { ProvideValuesBodySchema } from "@/lib/contracts/thread-requests";
import { getRuntime } from "@/runtime/runtime";
import { handle, readJson } from "../../../../_lib/http";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string; requestId: string }> };

export const GET = handle(async (_request: Request, context: Context) => {
  const { id, requestId } = await context.params;
  const runtime = await getRuntime();
  return Response.json(await runtime.envRequests.get(id, requestId));
});

export const POST = handle(async (request: Request, context: Context) => {
  const { id, requestId } = await context.params;
  const body = await readJson(request, ProvideValuesBodySchema);
  const runtime = await getRuntime();
  return Response.json(await runtime.envRequests.provide(id, requestId, body.values));
});
