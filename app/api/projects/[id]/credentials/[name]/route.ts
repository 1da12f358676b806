// PUT /api/projects/:id/credentials/:name { value } — store (or replace) a credential, encrypted with
// AES-256-GCM under TANDEM_SECRETS_KEY: { credential: { name, created_at, updated_at } } (never the
// value); DELETE — remove it: { deleted, name }. A model uses one with `apiKeyCredential: "<name>"`.
import { CredentialBodySchema, CredentialNameSchema } from "@/lib/contracts/access";
import { getRuntime } from "@/runtime/runtime";
import { handle, readJson } from "../../../../_lib/http";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string; name: string }> };

export const PUT = handle(async (request: Request, context: Context) => {
  const { id, name } = await context.params;
  const credentialName = CredentialNameSchema.parse(name);
  const body = await readJson(request, CredentialBodySchema);
  const runtime = await getRuntime();
  return Response.json({ credential: await runtime.access.putCredential(id, credentialName, body.value) });
});

export const DELETE = handle(async (_request: Request, context: Context) => {
  const { id, name } = await context.params;
  const runtime = await getRuntime();
  await runtime.access.deleteCredential(id, name);
  return Response.json({ deleted: true, name });
});
