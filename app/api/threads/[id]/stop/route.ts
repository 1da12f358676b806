// POST /api/threads/:id/stop — user stop: abort the current run, keep the thread usable.
import { getRuntime } from "@/runtime/runtime";
import { handle } from "../../../_lib/http";

export const dynamic = "force-dynamic";

export const POST = handle(async (_request: Request, context: { params: Promise<{ id: string }> }) => {
  const { id } = await context.params;
  const runtime = await getRuntime();
  return Response.json(await runtime.threads.stop(id));
});
