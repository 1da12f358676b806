// Types of mcp-fixture-server.mjs (kept as plain JavaScript so the server can run as a process).
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";

export function fixtureServer(label: string): McpServer;
export function startHttpMcpServer(): Promise<{ url: string; stop: () => Promise<void> }>;
