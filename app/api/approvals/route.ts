// GET /api/approvals?project_id=&state= — a project's tool approvals (the project-wide inbox), oldest
// first; `state` keeps one state's (pending, approved, denied, cancelled).
import { ProjectApprovalListQuerySchema } from "@/lib/contracts/approval";
import { getRuntime } from "@/runtime/runtime";
import { handle } from "../_lib/http";

export const dynamic = "force-dynamic";

export const GET = handle(async (request: Request) => {
  const params = new URL(request.url).searchParams;
  const query = ProjectApprovalListQuerySchema.parse({
    project_id: params.get("project_id") ?? undefined,
    state: params.get("state") ?? undefined,
  });
  const runtime = await getRuntime();
  return Response.json({ approvals: await runtime.approvals.listForProject(query.project_id, query.state) });
});
