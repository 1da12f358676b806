// GET /api/projects/:id/audit?limit=&action=&actor=&from=&to=&before= — the project's audit log,
// newest first: { entries: [{ id, at, actor: { type, id, name }, action, target, details }],
// next_before } (AuditQuerySchema in lib/contracts/access.ts says what each filter takes; a bad one is
// a 400 naming it). `next_before` is the cursor of the next page, null on the last.
import { AuditQuerySchema } from "@/lib/contracts/access";
import { getRuntime } from "@/runtime/runtime";
import { handle } from "../../../_lib/http";

export const dynamic = "force-dynamic";

export const GET = handle(async (request: Request, context: { params: Promise<{ id: string }> }) => {
  const { id } = await context.params;
  // An empty parameter (`?action=`) is no filter, as for the other list routes' integers.
  const params = [...new URL(request.url).searchParams].filter(([, value]) => value !== "");
  const query = AuditQuerySchema.parse(Object.fromEntries(params));
  const runtime = await getRuntime();
  return Response.json(
    await runtime.access.listAudit(id, {
      limit: query.limit ?? 100,
      ...(query.action ? { action: query.action } : {}),
      ...(query.actor ? { actor: query.actor } : {}),
      ...(query.from !== undefined ? { from: query.from } : {}),
      ...(query.to !== undefined ? { to: query.to } : {}),
      ...(query.before ? { before: query.before } : {}),
    }),
  );
});
