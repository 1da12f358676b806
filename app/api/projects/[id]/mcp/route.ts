// /api/projects/:id/mcp — the project's `exposeAsTool` agents as an MCP server over the Streamable
// HTTP transport (POST for JSON-RPC messages; GET and DELETE answered as a stateless server does).
// Behind the API token like every route.
import { getRuntime } from "@/runtime/runtime";
import { handle } from "../../../_lib/http";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string }> };

const serve = handle(async (request: Request, context: Context) => {
  const { id } = await context.params;
  const runtime = await getRuntime();
  return runtime.mcpServer.handle(id, request);
});

export const POST = serve;
export const GET = serve;
export const DELETE = serve;
