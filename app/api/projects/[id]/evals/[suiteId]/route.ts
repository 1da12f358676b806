// GET | PUT | DELETE /api/projects/:id/evals/:suiteId — one eval suite with its cases (API.md
// "Evaluations"). PUT replaces it; a case sent with its id keeps it (runs compare cases by id).
import { getRuntime } from "@/runtime/runtime";
import { handle, parseJsonBody, readBodyText } from "../../../../_lib/http";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string; suiteId: string }> };

export const GET = handle(async (_request: Request, context: Context) => {
  const { id, suiteId } = await context.params;
  const runtime = await getRuntime();
  return Response.json({ suite: await runtime.evals.get(id, suiteId) });
});

export const PUT = handle(async (request: Request, context: Context) => {
  const { id, suiteId } = await context.params;
  const body = parseJsonBody(await readBodyText(request));
  const runtime = await getRuntime();
  return Response.json({ suite: await runtime.evals.update(id, suiteId, body ?? null) });
});

export const DELETE = handle(async (_request: Request, context: Context) => {
  const { id, suiteId } = await context.params;
  const runtime = await getRuntime();
  return Response.json({ suite: await runtime.evals.delete(id, suiteId) });
});
