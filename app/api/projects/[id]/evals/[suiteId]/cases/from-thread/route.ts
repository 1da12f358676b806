// POST /api/projects/:id/evals/:suiteId/cases/from-thread — a new case from a real conversation: the
// thread's user turns become its fixed `input.messages` (API.md "Evaluations").
import { CaseFromThreadSchema } from "@/lib/contracts/evals";
import { getRuntime } from "@/runtime/runtime";
import { handle, readJson } from "../../../../../../_lib/http";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string; suiteId: string }> };

export const POST = handle(async (request: Request, context: Context) => {
  const { id, suiteId } = await context.params;
  const body = await readJson(request, CaseFromThreadSchema);
  const runtime = await getRuntime();
  return Response.json(
    { case: await runtime.evals.caseFromThread(id, suiteId, body.thread_id) },
    { status: 201 },
  );
});
