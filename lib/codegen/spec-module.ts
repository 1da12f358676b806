// The Standard Agents authoring API shipped inside every exported project as a local package
// (`standardagents/`, installed as `@standardagents/spec` through a `file:` dependency), so a zip
// installs and type-checks on a fresh machine without a registry package. Its types follow lib/standard's
// stored JSON form; exporting random bundles and running tsc on them (test/codegen) keeps them in step.

/** The versions an exported project pins: the ones this repository is built and tested with. */
export const EXPORT_DEPENDENCY_VERSIONS = { zod: "4.6.7", typescript: "7.0.2" } as const;

export const SPEC_MODULE_FOLDER = "standardagents";

const SPEC_MODULE_PACKAGE = {
  name: "@standardagents/spec",
  version: "0.1.0",
  private: true,
  description:
    "The Standard Agents 0.1.0 authoring API (define* functions and definition types), shipped with this project by Tandem.",
  type: "module",
  types: "./index.ts",
  exports: { ".": "./index.ts" },
};

const SPEC_MODULE_INDEX = `// The Standard Agents 0.1.0 authoring API, as Tandem stores definitions: each define* function
// returns its definition unchanged and gives it a type, so an editor and \`tsc\` check every field.
// Shipped with the project by Tandem (no registry package needed); models name their key's env
// variable (\`apiKeyEnv\`) and never hold the key.
import type { ZodType } from "zod";

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

/** A JSON Schema describing an object (or the same schema written with zod). */
export interface JsonSchemaObject {
  type?: "object";
  properties?: Record<string, boolean | JsonObject>;
  required?: string[];
  [keyword: string]: unknown;
}
export type ArgumentsSchema = JsonSchemaObject | ZodType;

/** Spec §4: a lifecycle tool name, or which of its arguments carry the message and attachments. */
export type SessionToolBinding =
  | string
  | { name: string; messageProperty?: string; attachmentsProperty?: string };

export interface SideConfig {
  prompt: string;
  label?: string;
  stopOnResponse?: boolean;
  stopTool?: string;
  stopToolResponseProperty?: string;
  maxSteps?: number;
  sessionStop?: SessionToolBinding;
  sessionFail?: SessionToolBinding;
  sessionStatus?: SessionToolBinding;
}

export interface AgentDefinition {
  name: string;
  type?: "ai_human" | "dual_ai";
  sideA: SideConfig;
  sideB?: SideConfig;
  maxSessionTurns?: number;
  title?: string;
  description?: string;
  icon?: string;
  exposeAsTool?: boolean;
  toolDescription?: string;
  env?: Record<string, string>;
  hooks?: string[];
  packageName?: string;
  version?: string;
  author?: string;
  license?: string;
}

export type PromptPart =
  | { type: "text"; content: string }
  | { type: "include"; prompt: string }
  | { type: "env"; property: string };

export interface ImmediateConfig {
  nameEnv?: string;
  descriptionEnv?: string;
  scopedEnv?: string[];
}

export interface ResumableConfig {
  receives_messages: "side_a" | "side_b";
  maxInstances?: number;
  parentCommunication?: "implicit" | "explicit";
}

/** A prompt's tools entry in object form: a tool, a prompt called as a tool, a subagent or a handoff. */
export interface PromptToolEntryObject {
  name: string;
  initUserMessageProperty?: string;
  initAttachmentsProperty?: string;
  includeTextResponse?: boolean;
  includeToolCalls?: boolean;
  includeErrors?: boolean;
  env?: Record<string, string>;
  options?: JsonObject;
  blocking?: boolean;
  initAgentNameProperty?: string;
  immediate?: boolean | ImmediateConfig;
  optional?: string;
  resumable?: false | ResumableConfig;
  /** Tandem extension: a model's call waits for a human's approval. */
  requiresApproval?: boolean;
}
export type PromptToolEntry = string | PromptToolEntryObject;

export interface VariableDefinition {
  name: string;
  description?: string;
  required?: boolean;
  type?: "text" | "secret";
}

export interface PromptDefinition {
  name: string;
  toolDescription: string;
  prompt: string | PromptPart[];
  model: string;
  includeChat?: boolean;
  includePastTools?: boolean;
  parallelToolCalls?: boolean;
  toolChoice?: "auto" | "none" | "required";
  requiredSchema?: ArgumentsSchema;
  tools?: PromptToolEntry[];
  variables?: VariableDefinition[];
  env?: Record<string, string>;
  reasoning?: {
    effort?: "low" | "medium" | "high";
    maxTokens?: number;
    include?: boolean;
    exclude?: boolean;
  };
  recentImageThreshold?: number;
  hooks?: string[];
}

/** One answer of Tandem's scripted test provider. */
export interface ScriptStep {
  text?: string;
  toolCalls?: Array<{ name: string; args: JsonObject }>;
  delayMs?: number;
  error?: string;
}

export interface ModelDefinition {
  name: string;
  provider: "openai" | "anthropic" | "openai-compatible" | "scripted";
  model: string;
  baseURL?: string;
  /** The NAME of the env variable holding the API key, never the key itself. */
  apiKeyEnv?: string;
  fallbacks?: string[];
  includedProviders?: string[];
  inputPrice?: number;
  outputPrice?: number;
  cachedPrice?: number;
  capabilities?: {
    vision?: boolean;
    functionCalling?: boolean;
    structuredOutputs?: boolean;
    maxContextTokens?: number;
    maxOutputTokens?: number;
  };
  providerOptions?: JsonObject;
  providerTools?: string[];
  script?: ScriptStep[];
  /** After the last step, continue from this step instead of answering "(script exhausted)". */
  scriptLoopFrom?: number;
}

interface ToolBase {
  name: string;
  description: string;
  args?: ArgumentsSchema;
}
export interface HttpToolDefinition extends ToolBase {
  kind: "http";
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  url: string;
  headers?: Record<string, string | { env: string; prefix?: string }>;
  timeoutMs?: number;
}
export interface BuiltinToolDefinition extends ToolBase {
  kind: "builtin";
  builtin: "fs_read" | "fs_write" | "fs_list" | "fs_delete" | "fs_grep";
}
export interface CodeToolDefinition extends ToolBase {
  kind: "code";
  /** The id of a server-side tool module (definitions never hold code). */
  module: string;
}
export interface McpToolDefinition extends ToolBase {
  kind: "mcp";
  /** The id of an MCP server configured on the running server (extensions/mcp.json). */
  server: string;
  /** One tool of that server; without it, every tool of the server. */
  tool?: string;
}
export type ToolDefinition =
  | HttpToolDefinition
  | BuiltinToolDefinition
  | CodeToolDefinition
  | McpToolDefinition;

export function defineAgent(definition: AgentDefinition): AgentDefinition {
  return definition;
}

export function definePrompt(definition: PromptDefinition): PromptDefinition {
  return definition;
}

export function defineModel(definition: ModelDefinition): ModelDefinition {
  return definition;
}

export function defineTool(definition: ToolDefinition): ToolDefinition {
  return definition;
}
`;

/** The local package's files, keyed by their path in the exported project. */
export const SPEC_MODULE_FILES: Readonly<Record<string, string>> = {
  [`${SPEC_MODULE_FOLDER}/package.json`]: `${JSON.stringify(SPEC_MODULE_PACKAGE, null, 2)}\n`,
  [`${SPEC_MODULE_FOLDER}/index.ts`]: SPEC_MODULE_INDEX,
};
