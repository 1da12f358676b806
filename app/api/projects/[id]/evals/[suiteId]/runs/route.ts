// GET  /api/projects/:id/evals/:suiteId/runs — the suite's runs, newest first, without their results
//      (a Tandem addition to API.md "Evaluations": the Evals view's history and pass-rate chart).
// POST /api/projects/:id/evals/:suiteId/runs — runs the suite against a saved version (the latest by
// default), each case `repetitions` times, `concurrency` conversations at once (API.md "Evaluations").
import { RunRequestSchema } from "@/lib/contracts/evals";
import { getRuntime } from "@/runtime/runtime";
import { handle, parseJsonBody, readBodyText } from "../../../../../_lib/http";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string; suiteId: string }> };

export const GET = handle(async (_request: Request, context: Context) => {
  const { id, suiteId } = await context.params;
  const runtime = await getRuntime();
  return Response.json({ runs: await runtime.evals.listRuns(id, suiteId) });
});

export const POST = handle(async (request: Request, context: Context) => {
  const { id, suiteId } = await context.params;
  // An empty body runs the latest version once.
  const body = RunRequestSchema.parse(parseJsonBody(await readBodyText(request)) ?? {});
  const runtime = await getRuntime();
  return Response.json({ run: await runtime.evals.startRun(id, suiteId, body) }, { status: 201 });
});
