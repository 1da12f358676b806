// The MCP servers this server configures (extensions/mcp.json) and the tools each lists, as
// `GET /api/mcp/tools` answers them: read by the studio's palette, command palette and tool inspector.
import { z } from "zod";

export const ListedMcpToolSchema = z.object({
  name: z.string(),
  description: z.string().optional(),
  inputSchema: z.record(z.string(), z.unknown()),
});

export const McpServerListingSchema = z.object({
  id: z.string(),
  transport: z.string().optional(),
  /** "error": the server could not be reached; `error` says why and `tools` is empty. */
  state: z.enum(["ready", "error"]),
  error: z.string().optional(),
  tools: z.array(ListedMcpToolSchema),
});
export type McpServerListing = z.infer<typeof McpServerListingSchema>;

export const McpServerListSchema = z.object({ servers: z.array(McpServerListingSchema) });

/** Where an operator lists MCP servers, and the docs that say how (the studio says it when there are none). */
export const MCP_CONFIG_FILE = "extensions/mcp.json";
export const MCP_DOCS = "docs/runtime.md, “MCP in and out”";
