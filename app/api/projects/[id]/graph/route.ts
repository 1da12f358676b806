// PUT /api/projects/:id/graph — save the canvas as a new version; 409 when base_version is stale.
import { SaveGraphBodySchema } from "@/lib/contracts/project";
import { getRuntime } from "@/runtime/runtime";
import { handle, readJson } from "../../../_lib/http";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string }> };

export const PUT = handle(async (request: Request, context: Context) => {
  const { id } = await context.params;
  const body = await readJson(request, SaveGraphBodySchema);
  const runtime = await getRuntime();
  return Response.json(await runtime.projects.saveGraph(id, body.graph, body.base_version));
});
