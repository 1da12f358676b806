// GET /api/eval-runs/:runId — an eval run: status, progress, summary and every finished result
// (API.md "Evaluations").
import { getRuntime } from "@/runtime/runtime";
import { handle } from "../../_lib/http";

export const dynamic = "force-dynamic";

export const GET = handle(async (_request: Request, context: { params: Promise<{ runId: string }> }) => {
  const { runId } = await context.params;
  const runtime = await getRuntime();
  return Response.json({ run: await runtime.evals.getRun(runId) });
});
