// DELETE /api/threads/:id/effects/:effectId — cancel an effect that has not started (200
// { cancelled: true }); 409 once it is running or finished, 404 for an unknown thread or effect.
import { getRuntime } from "@/runtime/runtime";
import { handle } from "../../../../_lib/http";

export const dynamic = "force-dynamic";

export const DELETE = handle(
  async (_request: Request, context: { params: Promise<{ id: string; effectId: string }> }) => {
    const { id, effectId } = await context.params;
    const runtime = await getRuntime();
    return Response.json(await runtime.effects.cancel(id, effectId));
  },
);
