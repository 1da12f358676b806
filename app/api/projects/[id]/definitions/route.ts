// PUT /api/projects/:id/definitions — replace the definitions with a bundle; the canvas is laid
// out again (existing nodes keep their place). 422 with diagnostics when the bundle is invalid.
import { z } from "zod";
import { getRuntime } from "@/runtime/runtime";
import { handle, integerParam, readJson } from "../../../_lib/http";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string }> };

export const PUT = handle(async (request: Request, context: Context) => {
  const { id } = await context.params;
  const baseVersion = integerParam(new URL(request.url), "base_version", { min: 1 });
  const bundle = await readJson(request, z.unknown());
  const runtime = await getRuntime();
  return Response.json(await runtime.projects.saveDefinitions(id, bundle, baseVersion));
});
