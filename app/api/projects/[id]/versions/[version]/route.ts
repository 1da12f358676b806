// GET /api/projects/:id/versions/:version — one stored version (graph, definitions, diagnostics).
import { getRuntime } from "@/runtime/runtime";
import { handle } from "../../../../_lib/http";
import { parseVersion } from "../version-param";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string; version: string }> };

export const GET = handle(async (_request: Request, context: Context) => {
  const { id, version } = await context.params;
  const number = parseVersion(version);
  const runtime = await getRuntime();
  return Response.json(await runtime.projects.getVersion(id, number));
});
