// ToolDefinition in its JSON form: function tools as data (HTTP call, built-in filesystem tool, or a server module id).
import { z } from "zod";
import { JsonSchemaObjectSchema } from "./json-schema";
import { literalSecretFields } from "./secrets";

const nonEmptyString = z.string().min(1);

const secretAdvice =
  'Store the secret in an env variable and send it with an env header, e.g. "headers": { "Authorization": { "env": "MY_API_TOKEN", "prefix": "Bearer " } }.';

const toolBase = {
  name: nonEmptyString,
  /** Shown to the model; the spec requires a non-empty description. */
  description: z.string().refine((text) => text.trim() !== "", {
    error: "A tool needs a description: say what it does, when to use it and what it returns.",
    params: { code: "empty_value" },
  }),
  args: JsonSchemaObjectSchema.optional(),
  ...literalSecretFields(secretAdvice),
};

/** A header value read from an env variable at call time, so secrets never sit in the definition. */
export const EnvHeaderValueSchema = z.object({
  env: nonEmptyString,
  prefix: z.string().optional(),
});
export type EnvHeaderValue = z.infer<typeof EnvHeaderValueSchema>;

export const HeaderValueSchema = z.union([z.string(), EnvHeaderValueSchema]);
export type HeaderValue = z.infer<typeof HeaderValueSchema>;

export const HTTP_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

export const HttpToolDefinitionSchema = z.object({
  ...toolBase,
  kind: z.literal("http"),
  method: z.enum(HTTP_METHODS),
  /** URL template: `{argName}` is replaced by the URI-encoded argument. */
  url: nonEmptyString,
  headers: z
    .record(
      z
        .string()
        .regex(HEADER_NAME, { error: "Header names may only contain letters, digits and -_!#$%&'*+.^`|~." }),
      HeaderValueSchema,
    )
    .optional(),
  timeoutMs: z.int().positive().optional(),
});
export type HttpToolDefinition = z.infer<typeof HttpToolDefinitionSchema>;

export const BUILTIN_TOOLS = ["fs_read", "fs_write", "fs_list", "fs_delete", "fs_grep"] as const;
export const BuiltinToolNameSchema = z.enum(BUILTIN_TOOLS);
export type BuiltinToolName = z.infer<typeof BuiltinToolNameSchema>;

/** A thread-filesystem tool implemented by the runtime; its arguments are fixed, so `args` is ignored. */
export const BuiltinToolDefinitionSchema = z.object({
  ...toolBase,
  kind: z.literal("builtin"),
  builtin: BuiltinToolNameSchema,
});
export type BuiltinToolDefinition = z.infer<typeof BuiltinToolDefinitionSchema>;

/** Module ids are paths inside the server's tool folder: no dots (no `..`, no extensions), never code. */
export const MODULE_ID_PATTERN = /^[A-Za-z0-9_-]+(\/[A-Za-z0-9_-]+)*$/;

export const CodeToolDefinitionSchema = z.object({
  ...toolBase,
  kind: z.literal("code"),
  module: z.string().regex(MODULE_ID_PATTERN, {
    error:
      '"module" must be the id of a server-side tool module, like "weather" or "billing/create_invoice" (letters, digits, _ and -, separated by /). Definitions never hold code.',
  }),
});
export type CodeToolDefinition = z.infer<typeof CodeToolDefinitionSchema>;

/** Server ids of `extensions/mcp.json`: a definition names a configured server, never a command. */
export const MCP_SERVER_ID_PATTERN = /^[A-Za-z0-9_-]+$/;

/**
 * One tool of a Model Context Protocol server configured on this server (`extensions/mcp.json`), or
 * with no `tool` every tool of it, each offered under its own name.
 */
export const McpToolDefinitionSchema = z.object({
  ...toolBase,
  kind: z.literal("mcp"),
  server: z.string().regex(MCP_SERVER_ID_PATTERN, {
    error:
      '"server" must be the id of an MCP server configured in the server\'s extensions/mcp.json (letters, digits, _ and -). Definitions never hold commands.',
  }),
  tool: nonEmptyString.optional(),
});
export type McpToolDefinition = z.infer<typeof McpToolDefinitionSchema>;

export const TOOL_KINDS = ["http", "builtin", "code", "mcp"] as const;

export const ToolDefinitionSchema = z.discriminatedUnion(
  "kind",
  [HttpToolDefinitionSchema, BuiltinToolDefinitionSchema, CodeToolDefinitionSchema, McpToolDefinitionSchema],
  { error: 'A tool\'s "kind" must be "http", "builtin", "code" or "mcp".' },
);
export type ToolDefinition = z.infer<typeof ToolDefinitionSchema>;
export type ToolDefinitionInput = z.input<typeof ToolDefinitionSchema>;
export type ToolKind = ToolDefinition["kind"];

/** The `{argName}` placeholders of a URL template, in order of appearance. */
export function urlPlaceholders(url: string): string[] {
  return [...url.matchAll(/\{([^{}]*)\}/g)].map((match) => match[1] ?? "");
}
