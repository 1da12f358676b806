// GET /api/projects/:id/activity — what the project's threads are doing now: per agent, thread
// counts by status and the prompts its running threads are on. Polled by the studio's run overlay.
import { getRuntime } from "@/runtime/runtime";
import { handle } from "../../../_lib/http";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string }> };

export const GET = handle(async (_request: Request, context: Context) => {
  const { id } = await context.params;
  const runtime = await getRuntime();
  return Response.json(await runtime.activity.ofProject(id), { headers: { "cache-control": "no-store" } });
});
