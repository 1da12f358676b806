// POST /api/projects/:id/keys { name, scopes } — a project API key: 201 { key, secret }, the secret
// shown this once (only its hash is kept); GET — the project's keys, never a secret: { keys }.
import { CreateKeyBodySchema } from "@/lib/contracts/access";
import { currentPrincipal, getRuntime } from "@/runtime/runtime";
import { handle, readJson } from "../../../_lib/http";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string }> };

export const GET = handle(async (_request: Request, context: Context) => {
  const { id } = await context.params;
  const runtime = await getRuntime();
  return Response.json({ keys: await runtime.access.listKeys(id) });
});

export const POST = handle(async (request: Request, context: Context) => {
  const { id } = await context.params;
  const body = await readJson(request, CreateKeyBodySchema);
  const runtime = await getRuntime();
  const created = await runtime.access.createKey(id, body, currentPrincipal());
  return Response.json(created, { status: 201, headers: { "cache-control": "no-store" } });
});
