// GET /api/mcp/tools — the MCP servers configured on this server (extensions/mcp.json) and the tools
// each lists, with their argument schemas: what the studio's palette offers as `kind: "mcp"` tools.
import { McpServerListSchema } from "@/lib/contracts/mcp";
import { getRuntime } from "@/runtime/runtime";
import { handle } from "../../_lib/http";

export const dynamic = "force-dynamic";

export const GET = handle(async () => {
  const runtime = await getRuntime();
  return Response.json(McpServerListSchema.parse({ servers: await runtime.mcpServers() }));
});
