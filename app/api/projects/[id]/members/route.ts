// GET /api/projects/:id/members — who has which role on the project: { members }.
import { getRuntime } from "@/runtime/runtime";
import { handle } from "../../../_lib/http";

export const dynamic = "force-dynamic";

export const GET = handle(async (_request: Request, context: { params: Promise<{ id: string }> }) => {
  const { id } = await context.params;
  const runtime = await getRuntime();
  return Response.json({ members: await runtime.access.listMembers(id) });
});
