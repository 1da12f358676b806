// POST /api/eval-runs/:runId/cancel — stops a running eval run; the conversations in flight get a user
// stop (they stay usable) and the run answers `status: "cancelled"` (API.md "Evaluations").
import { getRuntime } from "@/runtime/runtime";
import { handle } from "../../../_lib/http";

export const dynamic = "force-dynamic";

export const POST = handle(async (_request: Request, context: { params: Promise<{ runId: string }> }) => {
  const { runId } = await context.params;
  const runtime = await getRuntime();
  return Response.json({ run: await runtime.evals.cancel(runId) });
});
