// This process's connections to the MCP servers of `extensions/mcp.json`, through the official SDK's
// client (stdio and Streamable HTTP transports). A server is connected on first use and kept for the
// process's life; its tool list is cached (refreshed when the server says it changed) so building a
// step's tool catalog stays synchronous. Only configured servers ever run: callers pass server ids.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import type { McpConfig, McpServerConfig } from "./mcp-config";

/** How long connecting and listing a server's tools may take before the server counts as down. */
const CONNECT_TIMEOUT_MS = 10_000;

export interface McpRemoteTool {
  name: string;
  description?: string;
  inputSchema: Record<string, unknown>;
}

export interface McpCallOutcome {
  status: "success" | "error";
  /** The text parts of the result joined (other parts described), or why the call failed. */
  content: string;
}

export interface McpServerStatus {
  id: string;
  transport: McpServerConfig["transport"];
  state: "ready" | "error";
  error?: string;
  tools: McpRemoteTool[];
}

function transportFor(config: McpServerConfig, env: NodeJS.ProcessEnv): Transport {
  if (config.transport === "stdio") {
    return new StdioClientTransport({
      command: config.command,
      args: config.args ?? [],
      env: { ...getDefaultEnvironment(), ...(config.env ?? {}) },
      stderr: "pipe",
    });
  }
  const headers: Record<string, string> = {};
  for (const [header, variable] of Object.entries(config.headersEnv ?? {})) {
    const value = env[variable];
    if (value !== undefined) headers[header] = value;
  }
  return new StreamableHTTPClientTransport(new URL(config.url), { requestInit: { headers } });
}

function describePart(part: { type: string; text?: unknown; mimeType?: unknown; uri?: unknown }): string {
  if (part.type === "text" && typeof part.text === "string") return part.text;
  if (part.type === "resource_link" && typeof part.uri === "string") return `[resource ${part.uri}]`;
  const mime = typeof part.mimeType === "string" ? ` ${part.mimeType}` : "";
  return `[${part.type}${mime} content]`;
}

export class McpClients {
  private readonly clients = new Map<string, Promise<Client>>();
  private readonly tools = new Map<string, McpRemoteTool[]>();

  constructor(
    private readonly config: McpConfig,
    private readonly env: NodeJS.ProcessEnv = process.env,
  ) {}

  serverIds(): string[] {
    return [...this.config.servers.keys()];
  }

  has(serverId: string): boolean {
    return this.config.servers.has(serverId);
  }

  /** The server's tools as last listed, or undefined when never listed (see `prepare`). */
  cachedTools(serverId: string): readonly McpRemoteTool[] | undefined {
    return this.tools.get(serverId);
  }

  /** Lists the tools of these servers that are not cached yet; a server that is down is logged and skipped. */
  async prepare(serverIds: Iterable<string>): Promise<void> {
    const missing = [...new Set(serverIds)].filter((id) => this.has(id) && !this.tools.has(id));
    await Promise.all(
      missing.map((id) =>
        this.listTools(id).catch((error: unknown) =>
          console.warn(`[tandem] MCP server "${id}" is unavailable: ${(error as Error).message}`),
        ),
      ),
    );
  }

  async listTools(serverId: string): Promise<McpRemoteTool[]> {
    const client = await this.connect(serverId);
    const listed: McpRemoteTool[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor ? { cursor } : {}, { timeout: CONNECT_TIMEOUT_MS });
      for (const tool of page.tools) {
        listed.push({
          name: tool.name,
          ...(tool.description ? { description: tool.description } : {}),
          inputSchema: tool.inputSchema as Record<string, unknown>,
        });
      }
      cursor = page.nextCursor;
    } while (cursor);
    this.tools.set(serverId, listed);
    return listed;
  }

  async callTool(
    serverId: string,
    name: string,
    args: Record<string, unknown>,
    options: { signal?: AbortSignal; timeoutMs: number },
  ): Promise<McpCallOutcome> {
    if (!this.has(serverId)) {
      return { status: "error", content: `MCP server "${serverId}" is not configured on this server.` };
    }
    try {
      const client = await this.connect(serverId);
      const result = await client.callTool({ name, arguments: args }, undefined, {
        timeout: options.timeoutMs,
        ...(options.signal ? { signal: options.signal } : {}),
      });
      const parts = Array.isArray(result.content)
        ? (result.content as Parameters<typeof describePart>[0][])
        : [];
      const text = parts.map(describePart).join("\n");
      const structured =
        text === "" && result.structuredContent !== undefined
          ? JSON.stringify(result.structuredContent)
          : text;
      return { status: result.isError ? "error" : "success", content: structured };
    } catch (error) {
      return { status: "error", content: `MCP server "${serverId}": ${(error as Error).message}` };
    }
  }

  /** Every configured server with its tools, connecting where needed (the studio's palette). */
  async status(): Promise<McpServerStatus[]> {
    return Promise.all(
      [...this.config.servers].map(async ([id, config]) => {
        try {
          return {
            id,
            transport: config.transport,
            state: "ready" as const,
            tools: await this.listTools(id),
          };
        } catch (error) {
          return {
            id,
            transport: config.transport,
            state: "error" as const,
            error: (error as Error).message,
            tools: [],
          };
        }
      }),
    );
  }

  async close(): Promise<void> {
    const open = [...this.clients.values()];
    this.clients.clear();
    this.tools.clear();
    await Promise.all(open.map((pending) => pending.then((client) => client.close()).catch(() => {})));
  }

  private connect(serverId: string): Promise<Client> {
    const existing = this.clients.get(serverId);
    if (existing) return existing;
    const config = this.config.servers.get(serverId);
    if (!config)
      return Promise.reject(new Error(`MCP server "${serverId}" is not configured on this server.`));
    const connecting = (async () => {
      const client = new Client({ name: "tandem", version: "0.1.0" });
      client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
        this.tools.delete(serverId);
      });
      // A closed connection (the process exited, the server went away) is opened again on next use.
      client.onclose = () => {
        if (this.clients.get(serverId) === connecting) this.clients.delete(serverId);
        this.tools.delete(serverId);
      };
      await client.connect(transportFor(config, this.env), { timeout: CONNECT_TIMEOUT_MS });
      return client;
    })();
    this.clients.set(serverId, connecting);
    connecting.catch(() => {
      if (this.clients.get(serverId) === connecting) this.clients.delete(serverId);
    });
    return connecting;
  }
}
