// GET /api/projects — list; POST /api/projects — create from a name, definitions and/or a graph.
import { CreateProjectBodySchema } from "@/lib/contracts/project";
import { currentPrincipal, getRuntime } from "@/runtime/runtime";
import { handle, readJson } from "../_lib/http";

export const dynamic = "force-dynamic";

export const GET = handle(async () => {
  const runtime = await getRuntime();
  const projects = await runtime.projects.list();
  // With accounts, only the caller's projects (admins and the API token see all).
  const visible = await runtime.access.visibleProjectIds(currentPrincipal());
  return Response.json({
    projects: visible ? projects.filter((project) => visible.has(project.id)) : projects,
  });
});

export const POST = handle(async (request: Request) => {
  const body = await readJson(request, CreateProjectBodySchema);
  const runtime = await getRuntime();
  const project = await runtime.projects.create(body);
  // The creator becomes its owner.
  await runtime.access.projectCreated(currentPrincipal(), project.id);
  return Response.json(project, { status: 201 });
});
