// GET /api/threads/:id/approvals?state= — the tool approvals of the thread and its whole subtree,
// oldest first (API.md "Approvals"); `state` keeps one state's (pending, approved, denied, cancelled).
import { ApprovalListQuerySchema } from "@/lib/contracts/approval";
import { getRuntime } from "@/runtime/runtime";
import { handle } from "../../../_lib/http";

export const dynamic = "force-dynamic";

export const GET = handle(async (request: Request, context: { params: Promise<{ id: string }> }) => {
  const { id } = await context.params;
  const query = ApprovalListQuerySchema.parse({
    state: new URL(request.url).searchParams.get("state") ?? undefined,
  });
  const runtime = await getRuntime();
  return Response.json({ approvals: await runtime.approvals.listForThread(id, query.state) });
});
