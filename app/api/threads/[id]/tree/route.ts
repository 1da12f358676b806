// GET /api/threads/:id/tree — the thread and all its descendants as a tree.
import { getRuntime } from "@/runtime/runtime";
import { handle } from "../../../_lib/http";

export const dynamic = "force-dynamic";

export const GET = handle(async (_request: Request, context: { params: Promise<{ id: string }> }) => {
  const { id } = await context.params;
  const runtime = await getRuntime();
  return Response.json(await runtime.threads.tree(id));
});
