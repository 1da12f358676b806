// POST /api/approvals/:approvalId { decision: "approve" | "deny", args?, reason? } — decide a tool
// approval once (API.md "Approvals"): 200 with the approval, 409 when it was decided already, 404 for
// an unknown id, 400 for a bad body, 422 for edited args that do not fit the tool's schema.
import { ApprovalDecisionSchema } from "@/lib/contracts/approval";
import { getRuntime } from "@/runtime/runtime";
import { handle, readJson } from "../../_lib/http";

export const dynamic = "force-dynamic";

export const POST = handle(async (request: Request, context: { params: Promise<{ approvalId: string }> }) => {
  const { approvalId } = await context.params;
  const body = await readJson(request, ApprovalDecisionSchema);
  const runtime = await getRuntime();
  return Response.json({ approval: await runtime.approvals.decide(approvalId, body) });
});
