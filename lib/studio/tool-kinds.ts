// What a tool of each kind starts with (the palette's presets and the inspector's Kind switch use the
// same values), and switching a tool's kind without losing what the user wrote. Pure.
import type { Definition } from "./document-edits";

export type ToolKind = "builtin" | "http" | "code" | "mcp";

interface ToolKindDefaults {
  /** The kind's own fields (`builtin`, `method` and `url`, `module`, `server`). */
  settings: Definition;
  description: string;
  /** The JSON Schema of the arguments; absent when the kind has none of its own. */
  args?: Record<string, unknown>;
}

/** Until the user describes it, a tool's description is empty (required: Problems asks for it). */
const DESCRIBE_ME = "";

export const TOOL_KIND_DEFAULTS: Record<ToolKind, ToolKindDefaults> = {
  builtin: {
    settings: { builtin: "fs_read" },
    description: "Reads a file from the thread's filesystem.",
  },
  // A valid GET whose URL uses its one argument, so a new HTTP tool has no problem to fix first.
  http: {
    settings: { method: "GET", url: "https://api.example.com/search?q={query}" },
    description: "Searches the example API.",
    args: {
      type: "object",
      properties: { query: { type: "string", description: "What to search for." } },
      required: ["query"],
    },
  },
  code: { settings: { module: "" }, description: DESCRIBE_ME },
  mcp: { settings: { server: "" }, description: DESCRIBE_ME },
};

/** Same JSON, key order included: a schema the user rewrote in another order counts as theirs. */
const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

const isToolKind = (kind: unknown): kind is ToolKind =>
  typeof kind === "string" && Object.hasOwn(TOOL_KIND_DEFAULTS, kind);

/** A new tool of `kind` named `name`, with the kind's defaults. */
export function defaultTool(kind: ToolKind, name: string): Definition {
  const { settings, description, args } = TOOL_KIND_DEFAULTS[kind];
  return { name, kind, ...settings, description, ...(args ? { args } : {}) };
}

/**
 * The tool as a tool of kind `next`: the name stays; the previous kind's own fields go and the new
 * kind's defaults come; the description and the argument schema are replaced only while they are
 * empty or still the previous kind's defaults, so what the user wrote is kept.
 */
export function switchToolKind(tool: Definition, next: ToolKind): Definition {
  const previous = isToolKind(tool.kind) ? TOOL_KIND_DEFAULTS[tool.kind] : undefined;
  const defaults = TOOL_KIND_DEFAULTS[next];
  const description =
    typeof tool.description === "string" &&
    tool.description.trim() !== "" &&
    tool.description !== previous?.description
      ? tool.description
      : defaults.description;
  const argsUntouched =
    tool.args === undefined || (previous?.args !== undefined && sameJson(tool.args, previous.args));
  const args = argsUntouched ? defaults.args : tool.args;
  return {
    name: tool.name,
    kind: next,
    ...defaults.settings,
    description,
    ...(args !== undefined ? { args } : {}),
  };
}
