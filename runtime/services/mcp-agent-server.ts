// A project's `exposeAsTool` agents served as Model Context Protocol tools over the Streamable HTTP
// transport (`/api/projects/:id/mcp`, API.md "MCP"): each tool call starts a root thread of that
// agent with the call's arguments as its first message and answers the thread's result once it
// rests. Stateless: every HTTP request gets a fresh MCP server and transport (the official SDK's
// web-standard transport), so any process of a deployment can answer any request.
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import {
  CallToolRequestSchema,
  type CallToolResult,
  ListToolsRequestSchema,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import type { SqlExecutor } from "@/lib/db/sql-client";
import { type AgentDefinition, resolveSubagentToolConfig } from "@/lib/standard";
import { NotFoundError } from "../errors";
import type { DefinitionsCache, LoadedDefinitions } from "../store/definitions";
import { currentProjectVersion } from "../store/project-versions";
import { childInputFromArgs, type SubagentBranch, subagentToolSchema } from "../subagents/branches";
import { checkJsonSchema, formatSchemaIssues } from "../tools/json-schema-check";
import { isUuid } from "./project-service";
import type { ThreadService } from "./thread-service";

/** Statuses a thread rests in: the call is answered from there (a model still running is waited for). */
const RESTING = new Set(["idle", "completed", "failed", "stopped", "terminated"]);

/** How often the wait re-reads the thread when no event arrived (events normally wake it sooner). */
const POLL_MS = 1_000;

export interface McpAgentServerDeps {
  db: SqlExecutor;
  definitions: DefinitionsCache;
  threads: ThreadService;
  /** Calls `onEvents` whenever new events of the root's tree are persisted; answers the unsubscribe. */
  watchRoot: (rootId: string, onEvents: () => void) => Promise<() => void>;
}

function exposedBranch(agent: AgentDefinition): SubagentBranch {
  return { name: agent.name, agent, config: resolveSubagentToolConfig({ name: agent.name }) };
}

function toolFor(agent: AgentDefinition, definitions: LoadedDefinitions): Tool {
  return {
    name: agent.name,
    ...(agent.title ? { title: agent.title } : {}),
    description:
      agent.toolDescription ??
      agent.description ??
      `Run the Tandem agent "${agent.name}" and answer its result.`,
    inputSchema: subagentToolSchema(exposedBranch(agent), definitions.index) as Tool["inputSchema"],
  };
}

function textResult(text: string, isError = false): CallToolResult {
  return { content: [{ type: "text", text }], ...(isError ? { isError: true } : {}) };
}

export class McpAgentServer {
  constructor(private readonly deps: McpAgentServerDeps) {}

  /** Answers one Streamable HTTP request (POST, GET or DELETE) for the project's MCP endpoint. */
  async handle(projectId: string, request: Request): Promise<Response> {
    await this.exposedAgents(projectId); // 404 for an unknown project before any protocol work
    const server = new Server(
      { name: "tandem", version: "0.1.0" },
      { capabilities: { tools: { listChanged: false } } },
    );
    server.setRequestHandler(ListToolsRequestSchema, async () => {
      const { agents, definitions } = await this.exposedAgents(projectId);
      return { tools: agents.map((agent) => toolFor(agent, definitions)) };
    });
    server.setRequestHandler(CallToolRequestSchema, async (call) =>
      this.callTool(projectId, call.params.name, call.params.arguments ?? {}, request.signal),
    );
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    await server.connect(transport);
    try {
      return await transport.handleRequest(request);
    } finally {
      // The JSON response is complete once handleRequest resolves; nothing outlives the request.
      void server.close();
    }
  }

  /** The agents a project exposes, in its current version. */
  private async exposedAgents(
    projectId: string,
  ): Promise<{ agents: AgentDefinition[]; definitions: LoadedDefinitions }> {
    if (!isUuid(projectId)) throw new NotFoundError("Project", projectId);
    const version = await currentProjectVersion(this.deps.db, projectId);
    if (version === null) throw new NotFoundError("Project", projectId);
    const definitions = await this.deps.definitions.load(projectId, version);
    if (!definitions) throw new NotFoundError("Project", projectId);
    const agents = definitions.bundle.agents.filter((agent) => agent.exposeAsTool === true);
    return { agents, definitions };
  }

  private async callTool(
    projectId: string,
    name: string,
    args: Record<string, unknown>,
    signal: AbortSignal,
  ): Promise<CallToolResult> {
    const { agents, definitions } = await this.exposedAgents(projectId);
    const agent = agents.find((candidate) => candidate.name === name);
    if (!agent) return textResult(`Tool "${name}" is not an exposed agent of this project.`, true);
    const branch = exposedBranch(agent);
    const issues = checkJsonSchema(subagentToolSchema(branch, definitions.index), args);
    if (issues.length > 0) {
      return textResult(`Tool argument validation failed: ${formatSchemaIssues(issues)}`, true);
    }
    const input = childInputFromArgs(branch.config, args);
    let threadId: string;
    try {
      ({ threadId } = await this.deps.threads.create({
        projectId,
        agentName: agent.name,
        message: input.message,
        name: `${agent.name} (MCP call)`,
      }));
    } catch (error) {
      return textResult(error instanceof Error ? error.message : String(error), true);
    }
    return this.answerWhenResting(threadId, signal);
  }

  /** Waits for the thread to rest (woken by its events, re-read every second), then answers it. */
  private async answerWhenResting(threadId: string, signal: AbortSignal): Promise<CallToolResult> {
    let wake: () => void = () => {};
    const unsubscribe = await this.deps.watchRoot(threadId, () => wake());
    try {
      for (;;) {
        const thread = await this.deps.threads.get(threadId);
        if (RESTING.has(thread.status)) return await this.answer(threadId, thread);
        if (signal.aborted) return textResult(`The request was cancelled; thread ${threadId} goes on.`, true);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, POLL_MS);
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      }
    } finally {
      unsubscribe();
    }
  }

  private async answer(
    threadId: string,
    thread: { status: string; result: string | null; failure: string | null; status_text?: string | null },
  ): Promise<CallToolResult> {
    const meta = { _meta: { threadId, status: thread.status } };
    if (thread.status === "failed" || thread.status === "terminated" || thread.status === "stopped") {
      const why = thread.failure ?? thread.status_text ?? `The thread ended ${thread.status}.`;
      return { ...textResult(why, true), ...meta };
    }
    if (thread.result !== null && thread.result !== "") return { ...textResult(thread.result), ...meta };
    // An ai_human agent rests idle after its reply: its last visible assistant message is the answer.
    const { messages } = await this.deps.threads.messages(threadId, { includeSilent: false });
    const reply = [...messages].reverse().find((message) => message.role === "assistant" && message.content);
    return { ...textResult(reply?.content ?? "(no reply)"), ...meta };
  }
}
