// GET /api/projects/:id — the current version; PATCH — rename; DELETE — remove with all versions.
import { RenameProjectBodySchema } from "@/lib/contracts/project";
import { getRuntime } from "@/runtime/runtime";
import { handle, readJson } from "../../_lib/http";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string }> };

export const GET = handle(async (_request: Request, context: Context) => {
  const { id } = await context.params;
  const runtime = await getRuntime();
  return Response.json(await runtime.projects.get(id));
});

export const PATCH = handle(async (request: Request, context: Context) => {
  const { id } = await context.params;
  const body = await readJson(request, RenameProjectBodySchema);
  const runtime = await getRuntime();
  return Response.json(await runtime.projects.rename(id, body.name));
});

export const DELETE = handle(async (_request: Request, context: Context) => {
  const { id } = await context.params;
  const runtime = await getRuntime();
  await runtime.projects.delete(id);
  return Response.json({ deleted: true, id });
});
