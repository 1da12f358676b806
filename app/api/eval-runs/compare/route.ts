// GET /api/eval-runs/compare?a=:runId&b=:runId — two runs case by case: fixed, regressed or the same,
// with each side's pass and score (API.md "Evaluations"). A static segment: Next resolves it before
// the sibling [runId] route.
import { EvalRunCompareQuerySchema } from "@/lib/contracts/evals";
import { getRuntime } from "@/runtime/runtime";
import { handle } from "../../_lib/http";

export const dynamic = "force-dynamic";

export const GET = handle(async (request: Request) => {
  const url = new URL(request.url);
  const query = EvalRunCompareQuerySchema.parse({
    a: url.searchParams.get("a") ?? undefined,
    b: url.searchParams.get("b") ?? undefined,
  });
  const runtime = await getRuntime();
  return Response.json(await runtime.evals.compare(query.a, query.b));
});
