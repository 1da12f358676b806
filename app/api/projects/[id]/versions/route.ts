// GET /api/projects/:id/versions — every version, newest first, with counts of definitions and problems.
import { getRuntime } from "@/runtime/runtime";
import { handle } from "../../../_lib/http";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string }> };

export const GET = handle(async (_request: Request, context: Context) => {
  const { id } = await context.params;
  const runtime = await getRuntime();
  return Response.json({ versions: await runtime.projects.listVersions(id) });
});
