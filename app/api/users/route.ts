// GET /api/users — the server's users (id, email, name, admin; for adding members); POST /api/users
// { email, password, name, admin? } — an admin creates a user: 201 { user }, 409 for a taken email.
import { CreateUserBodySchema } from "@/lib/contracts/access";
import { getRuntime } from "@/runtime/runtime";
import { handle, readJson } from "../_lib/http";

export const dynamic = "force-dynamic";

export const GET = handle(async () => {
  const runtime = await getRuntime();
  return Response.json({ users: await runtime.access.listUsers() });
});

export const POST = handle(async (request: Request) => {
  const body = await readJson(request, CreateUserBodySchema);
  const runtime = await getRuntime();
  return Response.json({ user: await runtime.access.createUser(body) }, { status: 201 });
});
