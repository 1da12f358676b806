// A project's `exposeAsTool` agents served as an MCP server (API.md "MCP"), called over real HTTP by
// the official TypeScript SDK's client and Streamable HTTP transport: the tool list, a call that
// runs a thread and answers its reply or its sessionStop result, bad arguments, unknown tools and
// projects, and the API token.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterEach, describe, expect, it } from "vitest";
import { type ServerFixture, testServerForFile } from "../support/fixture";
import { requestJson } from "../support/http";
import { threadHelpers } from "../support/thread-helpers";

const TOKEN = "mcp-token-8c1d";
const authorised = { authorization: `Bearer ${TOKEN}` };

const server = testServerForFile({ TANDEM_API_TOKEN: TOKEN });
const fixture: ServerFixture = {
  get server() {
    return server.server;
  },
  get databaseUrl() {
    return server.databaseUrl;
  },
  api: (method, url, body) => requestJson(server.server.baseUrl, method, url, body, { headers: authorised }),
};
const { projectWith } = threadHelpers(fixture);

const definitions = {
  agents: [
    {
      name: "summariser",
      exposeAsTool: true,
      toolDescription: "Summarises a text in one line.",
      sideA: { prompt: "summarise" },
    },
    {
      name: "researcher",
      type: "dual_ai",
      exposeAsTool: true,
      description: "Researches a topic and reports.",
      sideA: { prompt: "research", sessionStop: { name: "report", messageProperty: "findings" } },
      sideB: { prompt: "nudge", stopOnResponse: true },
      maxSessionTurns: 4,
    },
    { name: "internal", sideA: { prompt: "summarise" } },
  ],
  prompts: [
    {
      name: "summarise",
      toolDescription: "Summarises",
      prompt: "Summarise the user's text.",
      model: "summary_model",
      includeChat: true,
      tools: [],
    },
    {
      name: "research",
      toolDescription: "Researches",
      prompt: "Research the topic, then report.",
      model: "research_model",
      requiredSchema: {
        type: "object",
        properties: { topic: { type: "string" } },
        required: ["topic"],
      },
      tools: [],
    },
    { name: "nudge", toolDescription: "Nudges", prompt: "Say go on.", model: "summary_model", tools: [] },
  ],
  models: [
    {
      name: "summary_model",
      provider: "scripted",
      model: "scripted",
      script: [{ text: "Summary: {{input}}" }],
      scriptLoopFrom: 0,
    },
    {
      name: "research_model",
      provider: "scripted",
      model: "scripted",
      script: [{ toolCalls: [{ name: "report", args: { findings: "Found three papers on {{input}}" } }] }],
    },
  ],
};

const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

async function connect(projectId: string, headers: Record<string, string> = authorised): Promise<Client> {
  const client = new Client({ name: "tandem-test", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(
    new URL(`${server.server.baseUrl}/api/projects/${projectId}/mcp`),
    { requestInit: { headers } },
  );
  await client.connect(transport);
  clients.push(client);
  return client;
}

describe("a project's exposed agents as an MCP server", () => {
  it("lists only the exposeAsTool agents, with their descriptions and argument schemas", async () => {
    const client = await connect(await projectWith(definitions));
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(["researcher", "summariser"]);
    const summariser = tools.find((tool) => tool.name === "summariser");
    expect(summariser?.description).toBe("Summarises a text in one line.");
    expect(summariser?.inputSchema).toMatchObject({
      type: "object",
      properties: { message: { type: "string" } },
      required: ["message"],
    });
    const researcher = tools.find((tool) => tool.name === "researcher");
    expect(researcher?.inputSchema).toMatchObject({ required: ["topic"] });
  });

  it("runs an ai_human agent's thread for a call and answers its reply; the thread is in the project", async () => {
    const projectId = await projectWith(definitions);
    const client = await connect(projectId);
    const result = await client.callTool({ name: "summariser", arguments: { message: "a long essay" } });
    expect(result.isError).toBeFalsy();
    expect(result.content).toEqual([{ type: "text", text: "Summary: a long essay" }]);
    const threadId = (result._meta as { threadId: string }).threadId;
    const thread = await fixture.api<{ thread: { agent_id: string; project_id: string; status: string } }>(
      "GET",
      `/api/threads/${threadId}`,
    );
    expect(thread.body.thread).toMatchObject({
      agent_id: "summariser",
      project_id: projectId,
      status: "idle",
    });
  });

  it("answers a dual_ai agent's sessionStop result, its arguments checked against the requiredSchema", async () => {
    const client = await connect(await projectWith(definitions));
    const result = await client.callTool({ name: "researcher", arguments: { topic: "durable agents" } });
    expect(result.isError).toBeFalsy();
    expect(result.content).toEqual([
      { type: "text", text: expect.stringContaining("Found three papers on") },
    ]);
    const invalid = await client.callTool({ name: "researcher", arguments: { subject: "oops" } });
    expect(invalid.isError).toBe(true);
    expect(invalid.content).toEqual([
      { type: "text", text: "Tool argument validation failed: [topic] Required" },
    ]);
  });

  it("refuses an agent that is not exposed, an unknown project, and a request without the token", async () => {
    const projectId = await projectWith(definitions);
    const client = await connect(projectId);
    const hidden = await client.callTool({ name: "internal", arguments: { message: "hi" } });
    expect(hidden.isError).toBe(true);
    expect(hidden.content).toEqual([
      { type: "text", text: 'Tool "internal" is not an exposed agent of this project.' },
    ]);
    const initialize = {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
    };
    const post = (id: string, headers: Record<string, string>) =>
      fetch(`${server.server.baseUrl}/api/projects/${id}/mcp`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          ...headers,
        },
        body: JSON.stringify(initialize),
      });
    const unknown = await post("00000000-0000-4000-8000-000000000000", authorised);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ code: "project_not_found" });
    const anonymous = await post(projectId, {});
    expect(anonymous.status).toBe(401);
    const ok = await post(projectId, authorised);
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ result: { serverInfo: { name: "tandem" } } });
  });
});
