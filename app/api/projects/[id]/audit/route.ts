// GET /api/projects/:id/audit?limit=&action=&before= — the project's audit log, newest first:
// { entries: [{ id, at, actor: { type, id, name }, action, target, details }] }. `action` keeps one
// action ("thread.stop") or a family ("thread"); `before` (epoch ms) pages back.
import { z } from "zod";
import { getRuntime } from "@/runtime/runtime";
import { handle, integerParam } from "../../../_lib/http";

export const dynamic = "force-dynamic";

const Action = z
  .string()
  .max(100)
  .regex(/^[a-z_.]+$/, "action is letters, '_' and '.'")
  .optional();

export const GET = handle(async (request: Request, context: { params: Promise<{ id: string }> }) => {
  const { id } = await context.params;
  const url = new URL(request.url);
  const limit = integerParam(url, "limit", { min: 1, max: 1000 }) ?? 100;
  const before = integerParam(url, "before", { min: 0 });
  const action = Action.parse(url.searchParams.get("action") ?? undefined);
  const runtime = await getRuntime();
  return Response.json({
    entries: await runtime.access.listAudit(id, {
      limit,
      ...(action ? { action } : {}),
      ...(before !== undefined ? { before } : {}),
    }),
  });
});
