// GET /api/threads/:id/effects?name= — the thread's scheduled effects (any status), soonest first.
import { EffectListQuerySchema } from "@/lib/contracts/effect";
import { getRuntime } from "@/runtime/runtime";
import { handle } from "../../../_lib/http";

export const dynamic = "force-dynamic";

export const GET = handle(async (request: Request, context: { params: Promise<{ id: string }> }) => {
  const { id } = await context.params;
  const query = EffectListQuerySchema.parse({
    name: new URL(request.url).searchParams.get("name") ?? undefined,
  });
  const runtime = await getRuntime();
  return Response.json({ effects: await runtime.effects.list(id, query.name) });
});
