// PUT /api/projects/:id/members/:userId { role } — add a user or change their role; DELETE — remove
// them. Both answer { members }; a project keeps at least one owner (409 last_owner).
import { MemberRoleBodySchema } from "@/lib/contracts/access";
import { getRuntime } from "@/runtime/runtime";
import { handle, readJson } from "../../../../_lib/http";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string; userId: string }> };

export const PUT = handle(async (request: Request, context: Context) => {
  const { id, userId } = await context.params;
  const body = await readJson(request, MemberRoleBodySchema);
  const runtime = await getRuntime();
  return Response.json({ members: await runtime.access.setMember(id, userId, body.role) });
});

export const DELETE = handle(async (_request: Request, context: Context) => {
  const { id, userId } = await context.params;
  const runtime = await getRuntime();
  return Response.json({ members: await runtime.access.removeMember(id, userId) });
});
