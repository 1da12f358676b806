// The node kinds the palette offers, with the presets worth a separate entry (an HTTP tool, a
// dual_ai agent): a label, a one-line description, search keywords and the definition a new node of
// that entry starts with. Pure data; addNode turns an entry into a node.
import type { DefinitionNodeKind } from "@/lib/graph";
import { type Definition, defaultDefinition, type StudioNodeKind } from "./document-edits";
import { defaultTool } from "./tool-kinds";

export interface NodePreset {
  id: string;
  kind: StudioNodeKind;
  label: string;
  /** One line (about 30 characters) under the label in the palette. */
  description: string;
  /** Extra words the palette's search matches. */
  keywords: string;
  /** The definition a new node starts with (absent for notes and for a kind's plain default). */
  definition?: (name: string) => Definition;
  /** The new node's name when it is free (an MCP tool's own name); `<kind>_<n>` otherwise. */
  baseName?: string;
}

const withDefault =
  (kind: DefinitionNodeKind, extra: Definition) =>
  (name: string): Definition => ({ ...defaultDefinition(kind, name), ...extra });

export const NODE_PRESETS: readonly NodePreset[] = [
  {
    id: "agent",
    kind: "agent",
    label: "Agent",
    description: "AI and human (ai_human)",
    keywords: "ai_human chat assistant thread",
  },
  {
    id: "agent-dual-ai",
    kind: "agent",
    label: "Dual-AI agent",
    description: "Two AI sides in a loop",
    keywords: "dual_ai two sides loop reviewer subagent",
    definition: withDefault("agent", { type: "dual_ai", sideA: { prompt: "" }, sideB: { prompt: "" } }),
  },
  {
    id: "prompt",
    kind: "prompt",
    label: "Prompt",
    description: "Instructions and tools",
    keywords: "system instructions llm",
  },
  {
    id: "tool-builtin",
    kind: "tool",
    label: "Built-in tool",
    description: "Reads and writes thread files",
    keywords: "tool builtin filesystem fs_read fs_write",
  },
  {
    id: "tool-http",
    kind: "tool",
    label: "HTTP tool",
    description: "Calls a URL with arguments",
    keywords: "tool http api request url fetch",
    definition: (name) => defaultTool("http", name),
  },
  {
    id: "model",
    kind: "model",
    label: "Model",
    description: "A provider and model id",
    keywords: "llm provider openai anthropic",
  },
  {
    id: "note",
    kind: "note",
    label: "Note",
    description: "A sticky note, not compiled",
    keywords: "comment text sticky",
  },
];

export function nodePreset(id: string): NodePreset {
  const preset = NODE_PRESETS.find((candidate) => candidate.id === id);
  if (!preset) throw new Error(`Unknown node preset "${id}".`);
  return preset;
}

/** A tool an MCP server configured on the server lists (GET /api/mcp/tools). */
export interface ListedMcpTool {
  name: string;
  description?: string;
  inputSchema: Record<string, unknown>;
}

/** The palette entry id of one MCP server's tool. */
export const mcpPresetId = (server: string, tool: string) => `mcp:${server}:${tool}`;

/**
 * A palette entry for one tool of an MCP server: a `kind: "mcp"` tool node naming the server and
 * the tool, with the server's description and argument schema (shown in the inspector).
 */
export function mcpToolPreset(server: string, tool: ListedMcpTool): NodePreset {
  const description = tool.description?.trim() || `The "${tool.name}" tool of MCP server "${server}".`;
  return {
    id: mcpPresetId(server, tool.name),
    kind: "tool",
    label: tool.name,
    description: `MCP · ${server}`,
    keywords: `mcp server ${server} ${description}`,
    baseName: tool.name.replace(/[^A-Za-z0-9_]/g, "_").replace(/^(?=[0-9])/, "_"),
    definition: (name) => ({
      name,
      kind: "mcp",
      server,
      tool: tool.name,
      description,
      args: tool.inputSchema,
    }),
  };
}
