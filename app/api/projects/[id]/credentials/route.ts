// GET /api/projects/:id/credentials — the project's credentials by name with their dates, never a
// value: { credentials: [{ name, created_at, updated_at }] }.
import { getRuntime } from "@/runtime/runtime";
import { handle } from "../../../_lib/http";

export const dynamic = "force-dynamic";

export const GET = handle(async (_request: Request, context: { params: Promise<{ id: string }> }) => {
  const { id } = await context.params;
  const runtime = await getRuntime();
  return Response.json({ credentials: await runtime.access.listCredentials(id) });
});
