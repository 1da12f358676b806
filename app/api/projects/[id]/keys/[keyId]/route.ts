// DELETE /api/projects/:id/keys/:keyId — revoke a key (it stops working at once): { deleted, key }.
import { getRuntime } from "@/runtime/runtime";
import { handle } from "../../../../_lib/http";

export const dynamic = "force-dynamic";

export const DELETE = handle(
  async (_request: Request, context: { params: Promise<{ id: string; keyId: string }> }) => {
    const { id, keyId } = await context.params;
    const runtime = await getRuntime();
    return Response.json({ deleted: true, key: await runtime.access.revokeKey(id, keyId) });
  },
);
