// Diagnostics: the one shape every definition problem is reported in (schema issues, unknown properties, cross-reference rules).
import { z } from "zod";

/** Every machine code a diagnostic can carry. Stable: clients (studio, API, tests) match on these. */
export const DIAGNOSTIC_CODES = [
  // shape (reported by parseBundle from the zod schemas)
  "invalid_bundle",
  "missing_property",
  "invalid_type",
  "invalid_value",
  "invalid_format",
  "empty_value",
  "out_of_range",
  "unknown_property",
  "deprecated_property",
  "conflicting_alias",
  "literal_secret",
  "forbidden_property",
  "empty_script_step",
  // names
  "invalid_name",
  "duplicate_name",
  "callable_name_conflict",
  "reserved_name",
  "invalid_env_name",
  "invalid_hook_id",
  // agents and sides
  "missing_side_b",
  "unexpected_side_b",
  "missing_max_session_turns",
  "missing_tool_description",
  "subagent_without_session_stop",
  "unknown_prompt",
  "stop_tool_not_callable",
  "side_cannot_stop",
  "stop_tool_response_property_without_stop_tool",
  "conflicting_session_bindings",
  "binding_property_not_in_tool_args",
  "binding_default_property_missing",
  // prompts
  "unknown_model",
  "unknown_include",
  "include_cycle",
  "duplicate_variable",
  "model_lacks_function_calling",
  // the server (the studio's own check against GET /api/providers, not a bundle rule)
  "provider_not_configured",
  "required_property_not_defined",
  // prompt tool entries
  "unknown_tool_reference",
  "reserved_tool_reference",
  "duplicate_tool_entry",
  "agent_not_exposed",
  "subagent_config_on_non_subagent",
  "tool_entry_field_ignored",
  "invalid_max_instances",
  "missing_receiving_side",
  "init_property_not_in_schema",
  // models
  "unknown_fallback_model",
  "fallback_self_reference",
  "fallback_cycle",
  "duplicate_fallback",
  "missing_base_url",
  "missing_script",
  "script_ignored",
  "script_loop_out_of_range",
  // tools
  "invalid_url",
  "unknown_url_placeholder",
  "literal_secret_header",
  "builtin_args_ignored",
  "unknown_mcp_server",
] as const;

export const DiagnosticCodeSchema = z.enum(DIAGNOSTIC_CODES);
export type DiagnosticCode = z.infer<typeof DiagnosticCodeSchema>;

export const EntityKindSchema = z.enum(["agent", "prompt", "model", "tool"]);
export type EntityKind = z.infer<typeof EntityKindSchema>;

export const DiagnosticSchema = z.object({
  severity: z.enum(["error", "warning"]),
  /** JS-style path into the bundle: `agents[0].sideB`, `prompts[2].tools[1].resumable.maxInstances`. "" is the bundle itself. */
  path: z.string(),
  message: z.string(),
  code: DiagnosticCodeSchema,
  entity: z.object({ kind: EntityKindSchema, name: z.string() }).optional(),
});
export type Diagnostic = z.infer<typeof DiagnosticSchema>;
export type DiagnosticSeverity = Diagnostic["severity"];
export type DiagnosticEntity = NonNullable<Diagnostic["entity"]>;

export type PathSegment = string | number;

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** `["agents", 0, "env", "MY-VAR"]` → `agents[0].env["MY-VAR"]`. */
export function formatPath(segments: readonly PathSegment[]): string {
  let path = "";
  for (const segment of segments) {
    if (typeof segment === "number") path += `[${segment}]`;
    else if (IDENTIFIER.test(segment)) path += path === "" ? segment : `.${segment}`;
    else path += `[${JSON.stringify(segment)}]`;
  }
  return path;
}

/** Splits a formatted path into comparable tokens so that `tools[2]` sorts before `tools[10]`. */
function pathTokens(path: string): Array<string | number> {
  // Each match is an index (group 1), a quoted key (group 2) or a plain name (group 3).
  return Array.from(path.matchAll(/\[(\d+)\]|\["((?:[^"\\]|\\.)*)"\]|([^.[\]]+)/g), (match) =>
    match[1] !== undefined ? Number(match[1]) : (match[2] ?? match[3])!,
  );
}

function compareTokens(left: Array<string | number>, right: Array<string | number>): number {
  const length = Math.min(left.length, right.length);
  for (let index = 0; index < length; index++) {
    const a = left[index]!;
    const b = right[index]!;
    if (a === b) continue;
    if (typeof a === "number" && typeof b === "number") return a - b;
    if (typeof a === "number") return -1;
    if (typeof b === "number") return 1;
    return a < b ? -1 : 1;
  }
  return left.length - right.length;
}

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Deterministic order: by path (array indexes numerically), then errors before warnings, then code, then message. */
export function compareDiagnostics(left: Diagnostic, right: Diagnostic): number {
  return (
    compareTokens(pathTokens(left.path), pathTokens(right.path)) ||
    compareStrings(left.severity === "error" ? "0" : "1", right.severity === "error" ? "0" : "1") ||
    compareStrings(left.code, right.code) ||
    compareStrings(left.message, right.message)
  );
}

export function sortDiagnostics(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  return [...diagnostics].sort(compareDiagnostics);
}

export function hasErrors(diagnostics: readonly Diagnostic[]): boolean {
  return diagnostics.some((diagnostic) => diagnostic.severity === "error");
}

const COLLECTION_KINDS: Record<string, EntityKind> = {
  agents: "agent",
  prompts: "prompt",
  models: "model",
  tools: "tool",
};

/** The definition a path points into (`prompts[2].tools[1]` → that prompt), read from a parsed or raw bundle. */
export function entityAtPath(
  bundle: unknown,
  segments: readonly PathSegment[],
): DiagnosticEntity | undefined {
  const [collection, index] = segments;
  // A numeric index means a first segment too; only the four collection names are own keys of
  // COLLECTION_KINDS, so a numeric first segment has no kind.
  if (typeof index !== "number") return undefined;
  const kind = Object.hasOwn(COLLECTION_KINDS, collection!) ? COLLECTION_KINDS[collection!] : undefined;
  if (kind === undefined || typeof bundle !== "object" || bundle === null) return undefined;
  const list: unknown = Reflect.get(bundle, collection!);
  if (!Array.isArray(list)) return undefined;
  const item: unknown = list[index];
  if (typeof item !== "object" || item === null) return undefined;
  const name: unknown = Reflect.get(item, "name");
  return typeof name === "string" && name !== "" ? { kind, name } : undefined;
}

const KIND_LABELS: Record<EntityKind, string> = {
  agent: "Agent",
  prompt: "Prompt",
  model: "Model",
  tool: "Tool",
};

/**
 * `the agent` for a path into a definition of a known collection (`agents[3].name` → "agent"), named
 * or not; undefined elsewhere.
 */
export function entityKindAtPath(segments: readonly PathSegment[]): EntityKind | undefined {
  const [collection, index] = segments;
  if (typeof index !== "number") return undefined;
  return Object.hasOwn(COLLECTION_KINDS, collection!) ? COLLECTION_KINDS[collection!] : undefined;
}

/** `Agent "asset_subagent"`, or `agents[3]` while the definition has no name. */
export function describeEntity(bundle: unknown, segments: readonly PathSegment[]): string {
  const entity = entityAtPath(bundle, segments);
  if (entity !== undefined) return `${KIND_LABELS[entity.kind]} "${entity.name}"`;
  return formatPath(segments.slice(0, 2)) || "The bundle";
}

/** `"a", "b" and "c"` — for human messages. */
export function listNames(names: readonly string[], conjunction = "and"): string {
  const quoted = names.map((name) => `"${name}"`);
  if (quoted.length <= 1) return quoted[0] ?? "";
  return `${quoted.slice(0, -1).join(", ")} ${conjunction} ${quoted.at(-1)}`;
}
