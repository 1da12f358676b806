// GET /api/projects/:id/evals — the project's eval suites, each with its case count and last run;
// POST — a new suite (API.md "Evaluations"; docs/evals.md). Bodies are checked by lib/contracts/evals.ts.
import { getRuntime } from "@/runtime/runtime";
import { handle, parseJsonBody, readBodyText } from "../../../_lib/http";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string }> };

export const GET = handle(async (_request: Request, context: Context) => {
  const { id } = await context.params;
  const runtime = await getRuntime();
  return Response.json(await runtime.evals.list(id));
});

export const POST = handle(async (request: Request, context: Context) => {
  const { id } = await context.params;
  const body = parseJsonBody(await readBodyText(request));
  const runtime = await getRuntime();
  return Response.json({ suite: await runtime.evals.create(id, body ?? null) }, { status: 201 });
});
