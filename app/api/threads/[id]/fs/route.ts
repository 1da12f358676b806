// GET /api/threads/:id/fs — the root of the thread's filesystem (?path=/dir lists a directory).
import { getRuntime } from "@/runtime/runtime";
import { handle } from "../../../_lib/http";
import { asThreadPathError } from "./path-errors";

export const dynamic = "force-dynamic";

export const GET = handle(async (request: Request, context: { params: Promise<{ id: string }> }) => {
  const { id } = await context.params;
  const runtime = await getRuntime();
  await runtime.threads.require(id);
  const directory = new URL(request.url).searchParams.get("path") ?? "/";
  const entries = await runtime.files.list(id, directory).catch(asThreadPathError);
  return Response.json({ path: directory, entries });
});
