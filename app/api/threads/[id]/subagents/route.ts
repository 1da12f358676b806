// GET /api/threads/:id/subagents — the thread's child registry (SubagentRegistryEntry[]).
import { getRuntime } from "@/runtime/runtime";
import { handle } from "../../../_lib/http";

export const dynamic = "force-dynamic";

export const GET = handle(async (_request: Request, context: { params: Promise<{ id: string }> }) => {
  const { id } = await context.params;
  const runtime = await getRuntime();
  return Response.json({ subagents: await runtime.threads.children(id) });
});
