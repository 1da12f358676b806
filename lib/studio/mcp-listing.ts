// What the studio offers from the MCP servers this server configures: the inspector's pick lists of
// servers and their tools, and what to say when none is configured. Pure.
import { MCP_CONFIG_FILE, MCP_DOCS, type McpServerListing } from "@/lib/contracts/mcp";

/** Said wherever MCP tools would be listed (palette, command palette, tool inspector) when there are none. */
export const NO_MCP_SERVERS_TEXT = `No MCP servers are configured on this server. To use one, list it in ${MCP_CONFIG_FILE} (stdio or Streamable HTTP) and restart the server; see ${MCP_DOCS}.`;

/** Effects are server files, not definitions: what the command palette says when asked for them. */
export const EFFECTS_TEXT =
  "Effects are not drawn on the canvas: each is a file extensions/effects/<name>.ts on the server, scheduled from a code tool or hook with state.scheduleEffect(name, args, delayMs); see docs/runtime.md, “Effects”.";

export interface Option {
  value: string;
  label: string;
}

/** The server pick list: every configured server (an unreachable one says so); the current id is kept. */
export function mcpServerOptions(servers: readonly McpServerListing[]): Option[] {
  return [
    { value: "", label: "(choose a server)" },
    ...servers.map((server) => ({
      value: server.id,
      label:
        server.state === "error"
          ? `${server.id} (unavailable)`
          : `${server.id} (${server.tools.length} tool${server.tools.length === 1 ? "" : "s"})`,
    })),
  ];
}

/** The tool pick list of one server: "every tool" (empty), then the tools it lists. */
export function mcpToolOptions(servers: readonly McpServerListing[], serverId: string): Option[] {
  const server = servers.find((candidate) => candidate.id === serverId);
  return [
    { value: "", label: "(every tool of the server)" },
    ...(server?.tools ?? []).map((tool) => ({ value: tool.name, label: tool.name })),
  ];
}
