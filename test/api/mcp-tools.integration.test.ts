// MCP in (API.md "MCP"): tools of MCP servers configured in the server's extensions/mcp.json — one
// started over stdio by the server, one over Streamable HTTP started by this test, both written with
// the official SDK — served to a prompt through `kind: "mcp"` tools and called by a scripted model
// over real HTTP; the palette's listing; and the diagnostic for a server this server does not have.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { testServerForFile } from "../support/fixture";
import { startHttpMcpServer } from "../support/mcp-fixture-server.mjs";
import { threadHelpers } from "../support/thread-helpers";

const httpMcp = await startHttpMcpServer();
const extensions = fs.mkdtempSync(path.join(os.tmpdir(), "tandem-mcp-"));
fs.writeFileSync(
  path.join(extensions, "mcp.json"),
  JSON.stringify({
    servers: {
      calc: {
        transport: "stdio",
        command: process.execPath,
        args: [path.resolve(__dirname, "../support/mcp-fixture-server.mjs")],
      },
      web: { transport: "http", url: httpMcp.url },
    },
  }),
);
afterAll(async () => {
  await httpMcp.stop();
  fs.rmSync(extensions, { recursive: true, force: true });
});

const fixture = testServerForFile({ TANDEM_EXTENSIONS_DIR: extensions });
const { api } = fixture;
const { projectWith, startThread, waitFor, messagesOf } = threadHelpers(fixture);

function definitionsWith(script: unknown[], tools: unknown[], promptTools: unknown[]) {
  return {
    agents: [{ name: "assistant", sideA: { prompt: "assistant_chat" } }],
    prompts: [
      {
        name: "assistant_chat",
        toolDescription: "Chats",
        prompt: "Use your tools.",
        model: "demo",
        includeChat: true,
        tools: promptTools,
      },
    ],
    models: [{ name: "demo", provider: "scripted", model: "scripted", script }],
    tools,
  };
}

describe("MCP servers' tools in prompts", () => {
  it("offers every tool of a stdio server and one tool of an HTTP server, and runs the model's calls", async () => {
    const projectId = await projectWith(
      definitionsWith(
        [
          {
            toolCalls: [
              { name: "add", args: { a: 2, b: 3 } },
              { name: "web_shout", args: { text: "hello" } },
              { name: "refuse", args: {} },
            ],
          },
          { text: "Done: {{tool_result}}" },
        ],
        [
          { name: "calc_tools", description: "Every calculator tool.", kind: "mcp", server: "calc" },
          { name: "web_shout", description: "Shouts over HTTP.", kind: "mcp", server: "web", tool: "shout" },
        ],
        ["calc_tools", "web_shout"],
      ),
    );
    const threadId = await startThread(projectId, "assistant", "go");
    await waitFor(threadId, ["idle"]);
    const tools = (await messagesOf(threadId)).filter((message) => message.role === "tool");
    expect(tools.map((message) => [message.name, message.tool_status, message.content])).toEqual([
      ["add", "success", "5"],
      ["web_shout", "success", "HELLO (from http)"],
      ["refuse", "error", "Failed to execute tool: refused on purpose"],
    ]);
    // The model saw the servers' own schemas: every calc tool by its name, the HTTP one under the definition's.
    const logs = await api<{
      model_calls: { request: { tools: { name: string; inputSchema: unknown }[] } }[];
    }>("GET", `/api/threads/${threadId}/logs`);
    const offered = logs.body.model_calls[0]?.request.tools ?? [];
    expect(offered.map((tool) => tool.name).sort()).toEqual(["add", "refuse", "shout", "web_shout"]);
    expect(offered.find((tool) => tool.name === "add")?.inputSchema).toMatchObject({
      properties: { a: { type: "number" }, b: { type: "number" } },
      required: ["a", "b"],
    });
    expect(offered.find((tool) => tool.name === "web_shout")?.inputSchema).toMatchObject({
      properties: { text: { type: "string" } },
    });
  });

  it("lists the configured servers and their tools for the palette", async () => {
    const listed = await api<{
      servers: {
        id: string;
        transport: string;
        state: string;
        tools: { name: string; inputSchema: unknown }[];
      }[];
    }>("GET", "/api/mcp/tools");
    expect(listed.status).toBe(200);
    const byId = new Map(listed.body.servers.map((server) => [server.id, server]));
    expect(byId.get("calc")).toMatchObject({ transport: "stdio", state: "ready" });
    expect(byId.get("web")).toMatchObject({ transport: "http", state: "ready" });
    expect(
      byId
        .get("web")
        ?.tools.map((tool) => tool.name)
        .sort(),
    ).toEqual(["add", "refuse", "shout"]);
  });

  it("puts a diagnostic on a tool that names a server this server does not configure", async () => {
    const projectId = await projectWith(
      definitionsWith(
        [{ text: "hi" }],
        [{ name: "elsewhere", description: "Nope.", kind: "mcp", server: "nowhere" }],
        ["elsewhere"],
      ),
    );
    const project = await api<{
      diagnostics: { code: string; severity: string; path: string; message: string; node_id?: string }[];
    }>("GET", `/api/projects/${projectId}`);
    const diagnostic = project.body.diagnostics.find((entry) => entry.code === "unknown_mcp_server");
    expect(diagnostic).toMatchObject({ severity: "error", path: "tools[0].server" });
    expect(diagnostic?.message).toContain('MCP server "nowhere" is not configured');
    expect(diagnostic?.message).toContain("calc, web");
    expect(diagnostic?.node_id).toEqual(expect.any(String));
  });
});
