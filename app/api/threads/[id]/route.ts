// GET /api/threads/:id — the thread (status, usage, result or failure).
import { getRuntime } from "@/runtime/runtime";
import { handle } from "../../_lib/http";

export const dynamic = "force-dynamic";

export const GET = handle(async (_request: Request, context: { params: Promise<{ id: string }> }) => {
  const { id } = await context.params;
  const runtime = await getRuntime();
  return Response.json({ thread: await runtime.threads.get(id) });
});
