// The tools one side offers its model: the prompt's tools entries plus the side's session-binding
// tools (offered automatically, synthesized when no tool of that name is defined). Pure.
import {
  type AgentDefinition,
  type BundleIndex,
  classifyToolEntry,
  type PromptDefinition,
  type PromptToolEntryObject,
  type ResolvedSessionBinding,
  type ResolvedSideConfig,
  resolveSubagentToolConfig,
  type ToolDefinition,
  toolEntryRequiresApproval,
} from "@/lib/standard";
import type { McpRemoteTool } from "../extensions/mcp-clients";
import type { ModelToolSpec } from "../models/types";
import {
  branchDescription,
  createToolDescription,
  createToolSchema,
  type EnvLookup,
  MESSAGE_TOOL_DESCRIPTION,
  MESSAGE_TOOL_SCHEMA,
  SUBAGENT_CREATE_TOOL,
  SUBAGENT_MESSAGE_TOOL,
  type SubagentBranch,
  subagentBranches,
  subagentToolSchema,
} from "../subagents/branches";
import { BUILTIN_TOOL_SCHEMAS } from "../tools/builtin-tools";

export type CatalogEntry =
  | {
      kind: "binding";
      name: string;
      binding: ResolvedSessionBinding;
      role: "sessionStop" | "sessionFail" | "sessionStatus";
      tool?: ToolDefinition;
    }
  /** `remoteName`: the MCP server's name of the tool, when the model sees it under another. */
  | { kind: "tool"; name: string; tool: ToolDefinition; remoteName?: string }
  | { kind: "handoff"; name: string; agent: AgentDefinition; config: PromptToolEntryObject }
  | { kind: "subprompt"; name: string; prompt: PromptDefinition; config: PromptToolEntryObject }
  | { kind: "subagent"; name: string; branch: SubagentBranch }
  | { kind: "subagent_create"; name: string; branches: SubagentBranch[] }
  | { kind: "subagent_message"; name: string; branches: SubagentBranch[] };

export interface ToolCatalog {
  specs: ModelToolSpec[];
  entries: ReadonlyMap<string, CatalogEntry>;
  /**
   * Names whose calls by the model wait for a human's approval (tools entries marked
   * `requiresApproval`; `subagent_create` when a resumable branch is). Absent: none.
   */
  approvals?: ReadonlySet<string>;
}

const EMPTY_OBJECT_SCHEMA = { type: "object", properties: {} };

function bindingSchema(binding: ResolvedSessionBinding): Record<string, unknown> {
  const properties: Record<string, unknown> = {
    [binding.messageProperty]: { type: "string", description: "The message to report." },
  };
  if (binding.attachmentsProperty) {
    properties[binding.attachmentsProperty] = {
      type: "array",
      items: { type: "string" },
      description: "Paths of files in this thread's filesystem to hand over.",
    };
  }
  return { type: "object", properties, required: [binding.messageProperty] };
}

function bindingDescription(role: "sessionStop" | "sessionFail" | "sessionStatus"): string {
  if (role === "sessionStop") return "Finish this session successfully and report the result.";
  if (role === "sessionFail") return "End this session as failed and report why.";
  return "Publish a short status update without ending the session.";
}

/** The JSON Schema of a code tool's arguments, from the module installed on this server. */
export type CodeToolSchemas = (moduleId: string) => Record<string, unknown> | undefined;

/** The tools an MCP server listed (undefined: not listed, e.g. the server is down). */
export type McpToolLists = (serverId: string) => readonly McpRemoteTool[] | undefined;

/** The MCP servers a prompt's tools name: list them (async) before building its catalog. */
export function mcpServersOf(prompt: PromptDefinition, index: BundleIndex): string[] {
  const servers: string[] = [];
  for (const raw of prompt.tools ?? []) {
    const entry = classifyToolEntry(raw, index, prompt.name);
    if (entry.kind === "tool" && entry.tool.kind === "mcp") servers.push(entry.tool.server);
  }
  return servers;
}

function toolSchema(tool: ToolDefinition, codeToolSchemas?: CodeToolSchemas): Record<string, unknown> {
  if (tool.kind === "builtin") return BUILTIN_TOOL_SCHEMAS[tool.builtin];
  // A code tool's zod schema is authoritative (it validates the call); the definition's args document it.
  const installed = tool.kind === "code" ? codeToolSchemas?.(tool.module) : undefined;
  return installed ?? (tool.args as Record<string, unknown> | undefined) ?? EMPTY_OBJECT_SCHEMA;
}

// Long (~150 lines) on purpose: one pass that offers the prompt's tools (MCP ones included), its
// handoffs, session bindings and subagent branches in the reference runtime's order; each section
// fills the same specs list and entry map, and split apart they would pass both around.
export function buildToolCatalog(
  prompt: PromptDefinition,
  side: ResolvedSideConfig,
  index: BundleIndex,
  codeToolSchemas?: CodeToolSchemas,
  /** The thread's env: `optional` subagent branches are offered only when their flag is on. */
  env: EnvLookup = () => undefined,
  mcpTools: McpToolLists = () => undefined,
): ToolCatalog {
  const entries = new Map<string, CatalogEntry>();
  const specs: ModelToolSpec[] = [];
  const add = (entry: CatalogEntry, spec: ModelToolSpec) => {
    if (entries.has(entry.name)) return;
    entries.set(entry.name, entry);
    specs.push(spec);
  };
  const bindings = [
    ["sessionStop", side.sessionStop],
    ["sessionFail", side.sessionFail],
    ["sessionStatus", side.sessionStatus],
  ] as const;
  const enabledBranches = subagentBranches(prompt, index, env);
  const bindingByName = new Map(
    bindings.flatMap(([role, binding]) => (binding ? [[binding.name, { role, binding }] as const] : [])),
  );

  const approvals = new Set<string>();
  for (const raw of prompt.tools ?? []) {
    const entry = classifyToolEntry(raw, index, prompt.name);
    const binding = bindingByName.get(entry.name);
    if (binding) continue; // offered below with binding semantics
    if (toolEntryRequiresApproval(raw) && entry.kind !== "unknown" && entry.kind !== "session_binding") {
      const resumable = entry.kind === "subagent" && resolveSubagentToolConfig(entry.config).resumable;
      approvals.add(resumable ? SUBAGENT_CREATE_TOOL : entry.name);
    }
    if (entry.kind === "tool" && entry.tool.kind === "mcp") {
      const tool = entry.tool;
      const listed = mcpTools(tool.server);
      if (tool.tool !== undefined) {
        // One tool, offered under the definition's name with the server's schema (or the definition's).
        const remote = listed?.find((candidate) => candidate.name === tool.tool);
        add(
          { kind: "tool", name: entry.name, tool, remoteName: tool.tool },
          {
            name: entry.name,
            description: tool.description,
            inputSchema:
              remote?.inputSchema ??
              (tool.args as Record<string, unknown> | undefined) ??
              EMPTY_OBJECT_SCHEMA,
          },
        );
      } else {
        // Every tool of the server, each under its own name (none while the server is unavailable).
        for (const remote of listed ?? []) {
          if (toolEntryRequiresApproval(raw)) approvals.add(remote.name);
          add(
            { kind: "tool", name: remote.name, tool, remoteName: remote.name },
            {
              name: remote.name,
              description: remote.description ?? tool.description,
              inputSchema: remote.inputSchema,
            },
          );
        }
      }
    } else if (entry.kind === "tool") {
      add(
        { kind: "tool", name: entry.name, tool: entry.tool },
        {
          name: entry.name,
          description: entry.tool.description,
          inputSchema: toolSchema(entry.tool, codeToolSchemas),
        },
      );
    } else if (entry.kind === "handoff") {
      // The tool's arguments are the target's side-A prompt requiredSchema (spec notes §2.5).
      const targetPrompt = index.prompts.get(entry.agent.sideA.prompt)?.definition;
      add(
        { kind: "handoff", name: entry.name, agent: entry.agent, config: entry.config },
        {
          name: entry.name,
          description:
            entry.agent.toolDescription ??
            entry.agent.description ??
            `Hand the conversation to ${entry.name}.`,
          inputSchema:
            (targetPrompt?.requiredSchema as Record<string, unknown> | undefined) ?? EMPTY_OBJECT_SCHEMA,
        },
      );
    } else if (entry.kind === "prompt") {
      add(
        { kind: "subprompt", name: entry.name, prompt: entry.prompt, config: entry.config },
        {
          name: entry.name,
          description: entry.prompt.toolDescription,
          inputSchema:
            (entry.prompt.requiredSchema as Record<string, unknown> | undefined) ?? EMPTY_OBJECT_SCHEMA,
        },
      );
    } else if (entry.kind === "subagent") {
      // A disabled optional branch is neither offered nor callable (spec §7.5).
      const branch = enabledBranches.find((candidate) => candidate.name === entry.name);
      if (!branch || branch.config.resumable) continue;
      add(
        { kind: "subagent", name: entry.name, branch },
        {
          name: entry.name,
          description: branchDescription(branch),
          inputSchema: subagentToolSchema(branch, index),
        },
      );
    }
  }
  // Resumable branches are reached through the lifecycle tools (spec §7.7).
  const resumable = enabledBranches.filter((branch) => branch.config.resumable);
  if (resumable.length > 0) {
    add(
      { kind: "subagent_create", name: SUBAGENT_CREATE_TOOL, branches: resumable },
      {
        name: SUBAGENT_CREATE_TOOL,
        description: createToolDescription(resumable),
        inputSchema: createToolSchema(resumable),
      },
    );
    add(
      { kind: "subagent_message", name: SUBAGENT_MESSAGE_TOOL, branches: resumable },
      {
        name: SUBAGENT_MESSAGE_TOOL,
        description: MESSAGE_TOOL_DESCRIPTION,
        inputSchema: MESSAGE_TOOL_SCHEMA,
      },
    );
  }
  for (const [role, binding] of bindings) {
    if (!binding) continue;
    const defined = index.tools.get(binding.name)?.definition;
    add(
      { kind: "binding", name: binding.name, binding, role, ...(defined ? { tool: defined } : {}) },
      {
        name: binding.name,
        description: defined?.description ?? bindingDescription(role),
        inputSchema: defined ? toolSchema(defined, codeToolSchemas) : bindingSchema(binding),
      },
    );
  }
  return { specs, entries, ...(approvals.size > 0 ? { approvals } : {}) };
}
