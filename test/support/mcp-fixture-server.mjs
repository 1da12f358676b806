// A small MCP server for tests, written with the official SDK: `add`, `shout` and `refuse` tools.
// Run as a process it serves stdio; `startHttpMcpServer()` serves the same tools over Streamable
// HTTP on 127.0.0.1 (stateless) for the HTTP transport tests.
import http from "node:http";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { z } from "zod";

export function fixtureServer(label) {
  const server = new McpServer({ name: `fixture-${label}`, version: "1.0.0" });
  server.registerTool(
    "add",
    { description: "Adds two numbers.", inputSchema: { a: z.number(), b: z.number() } },
    async ({ a, b }) => ({ content: [{ type: "text", text: String(a + b) }] }),
  );
  server.registerTool(
    "shout",
    { description: "Upper-cases a text.", inputSchema: { text: z.string() } },
    async ({ text }) => ({ content: [{ type: "text", text: `${text.toUpperCase()} (from ${label})` }] }),
  );
  server.registerTool("refuse", { description: "Always fails.", inputSchema: {} }, async () => ({
    content: [{ type: "text", text: "refused on purpose" }],
    isError: true,
  }));
  return server;
}

/** Serves the fixture tools over Streamable HTTP; answers the URL and a stop function. */
export async function startHttpMcpServer() {
  const httpServer = http.createServer(async (request, response) => {
    const chunks = [];
    for await (const chunk of request) chunks.push(chunk);
    const body = chunks.length > 0 ? JSON.parse(Buffer.concat(chunks).toString("utf8")) : undefined;
    const server = fixtureServer("http");
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    response.on("close", () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(request, response, body);
  });
  await new Promise((resolve) => httpServer.listen(0, "127.0.0.1", resolve));
  const { port } = httpServer.address();
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    stop: () => new Promise((resolve) => httpServer.close(resolve)),
  };
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  await fixtureServer("stdio").connect(new StdioServerTransport());
}
