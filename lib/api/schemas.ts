// Response shapes of Tandem's HTTP API as the browser sees them, parsed with zod so a contract
// drift shows up as a clear error instead of a blank screen.
import { z } from "zod";
import { ProjectSummarySchema } from "@/lib/contracts/project";
import { LiveThreadSchema } from "../live/events";

export const ApiErrorBodySchema = z.looseObject({ error: z.string(), code: z.string().optional() });

export { type ProjectSummary, ProjectSummarySchema } from "@/lib/contracts/project";

export const ProjectListSchema = z.object({ projects: z.array(ProjectSummarySchema) });

export const DiagnosticSchema = z.looseObject({
  severity: z.enum(["error", "warning"]),
  path: z.string(),
  message: z.string(),
  code: z.string().optional(),
  node_id: z.string().optional(),
  edge_id: z.string().optional(),
});
export type ApiDiagnostic = z.infer<typeof DiagnosticSchema>;

export const ProjectDetailSchema = ProjectSummarySchema.extend({
  graph: z.looseObject({ nodes: z.array(z.unknown()) }),
  definitions: z.looseObject({}),
  diagnostics: z.array(DiagnosticSchema),
});
export type ProjectDetail = z.infer<typeof ProjectDetailSchema>;

/** A thread as `GET /api/threads` and `GET /api/threads/:id` answer it (the live view's thread shape). */
export const ThreadSummarySchema = LiveThreadSchema.extend({
  /** The thread's first user message (cut to 200 characters), listed by `GET /api/threads`. */
  title: z.string().nullable().optional(),
});
export type ThreadSummary = z.infer<typeof ThreadSummarySchema>;

export const ThreadListSchema = z.object({
  threads: z.array(ThreadSummarySchema),
  total: z.number().int(),
  hasMore: z.boolean(),
});
export type ThreadList = z.infer<typeof ThreadListSchema>;

export const CreatedThreadSchema = z.object({ threadId: z.string(), agent_id: z.string() });

export const QueuedMessageSchema = z.looseObject({
  status: z.literal("queued"),
  queueId: z.string(),
  messageId: z.string(),
});

export const ThreadActionSchema = z.looseObject({ status: z.string() });

export const SavedGraphSchema = z.looseObject({
  version: z.number().int(),
  definitions: z.looseObject({}),
  diagnostics: z.array(DiagnosticSchema),
});
export type SavedGraph = z.infer<typeof SavedGraphSchema>;

/** A tool call a model asked for, as logged in a model call's request or response. */
export const LoggedToolCallSchema = z.looseObject({
  id: z.string().optional(),
  name: z.string(),
  args: z.unknown(),
});
export type LoggedToolCall = z.infer<typeof LoggedToolCallSchema>;

/** One message of a logged model request (provider-neutral: system, user, assistant, tool). */
export const LoggedMessageSchema = z.looseObject({
  role: z.string(),
  content: z.unknown(),
  toolCalls: z.array(LoggedToolCallSchema).optional(),
  toolName: z.string().optional(),
  toolCallId: z.string().optional(),
  isError: z.boolean().optional(),
});
export type LoggedMessage = z.infer<typeof LoggedMessageSchema>;

export const LoggedModelRequestSchema = z.looseObject({
  messages: z.array(LoggedMessageSchema),
  tools: z.array(z.looseObject({ name: z.string(), description: z.string().optional() })),
});

export const LoggedModelResponseSchema = z.looseObject({
  text: z.string().optional(),
  toolCalls: z.array(LoggedToolCallSchema).optional(),
});

/** One row of `GET /api/threads/:id/logs` model_calls. */
export const ModelCallLogSchema = z.looseObject({
  id: z.string(),
  side: z.string(),
  model_name: z.string(),
  answered_by: z.string().nullable(),
  provider_model_id: z.string().nullable(),
  request: LoggedModelRequestSchema.nullable(),
  response: LoggedModelResponseSchema.nullable(),
  error: z.string().nullable(),
  input_tokens: z.coerce.number(),
  output_tokens: z.coerce.number(),
  cost_usd: z.number(),
  latency_ms: z.coerce.number(),
  created_at: z.number(),
});
export type ModelCallLog = z.infer<typeof ModelCallLogSchema>;

/** One row of `GET /api/threads/:id/logs` tool_calls. */
export const ToolCallLogSchema = z.looseObject({
  id: z.string(),
  tool_call_id: z.string(),
  name: z.string(),
  args: z.unknown(),
  status: z.string(),
  result: z.string().nullable(),
  started_at: z.number(),
  finished_at: z.number().nullable(),
  duration_ms: z.number().nullable(),
});
export type ToolCallLog = z.infer<typeof ToolCallLogSchema>;

export const ThreadLogsSchema = z.object({
  model_calls: z.array(ModelCallLogSchema),
  tool_calls: z.array(ToolCallLogSchema),
});
export type ThreadLogs = z.infer<typeof ThreadLogsSchema>;

/** One entry of `GET /api/threads/:id/fs` (a file, or a directory standing for the files below it). */
export const ThreadFileEntrySchema = z.looseObject({
  path: z.string(),
  name: z.string(),
  mimeType: z.string(),
  size: z.number(),
  isDirectory: z.boolean(),
});
export type ThreadFileEntry = z.infer<typeof ThreadFileEntrySchema>;

export const ThreadFileListSchema = z.object({ path: z.string(), entries: z.array(ThreadFileEntrySchema) });

/** One entry of `GET /api/projects/:id/versions` (newest first). */
export const VersionEntrySchema = z.object({
  version: z.number().int(),
  created_at: z.number(),
  summary: z.object({
    agents: z.number().int(),
    prompts: z.number().int(),
    models: z.number().int(),
    tools: z.number().int(),
    errors: z.number().int(),
    warnings: z.number().int(),
  }),
});
export type VersionEntry = z.infer<typeof VersionEntrySchema>;

export const VersionListSchema = z.object({ versions: z.array(VersionEntrySchema) });

/** `GET /api/projects/:id/versions/:version`: one stored version's canvas document. */
export const VersionDetailSchema = z.looseObject({
  version: z.number().int(),
  graph: z.looseObject({ nodes: z.array(z.unknown()) }),
});
export type VersionDetail = z.infer<typeof VersionDetailSchema>;

const NamesByKindSchema = z.object({
  agents: z.array(z.string()),
  prompts: z.array(z.string()),
  models: z.array(z.string()),
  tools: z.array(z.string()),
});

/** `GET /api/projects/:id/versions/:version/diff`: definition names per kind. */
/** One changed property of a definition (lib/versions/bundle-diff.ts): absent before = added. */
export const FieldChangeSchema = z.object({
  path: z.string(),
  before: z.unknown().optional(),
  after: z.unknown().optional(),
});
const FieldChangesSchema = z.record(z.string(), z.array(FieldChangeSchema));

export const VersionDiffSchema = z.object({
  added: NamesByKindSchema,
  removed: NamesByKindSchema,
  changed: NamesByKindSchema,
  fields: z
    .object({
      agents: FieldChangesSchema,
      prompts: FieldChangesSchema,
      models: FieldChangesSchema,
      tools: FieldChangesSchema,
    })
    .optional(),
});
export type VersionDiff = z.infer<typeof VersionDiffSchema>;

/** A diagnostic of a refused import: a source position (line, column, maybe a file) or a bundle path. */
export const ImportDiagnosticSchema = z.looseObject({
  severity: z.enum(["error", "warning"]),
  message: z.string(),
  path: z.string().optional(),
  code: z.string().optional(),
  file: z.string().optional(),
  line: z.number().optional(),
  column: z.number().optional(),
});
export type ImportDiagnostic = z.infer<typeof ImportDiagnosticSchema>;

export const ImportRefusalSchema = z.looseObject({ diagnostics: z.array(ImportDiagnosticSchema) });

/** `GET /api/providers`: what the server can run, named by env variable, never by value. */
export const ProviderStatusSchema = z.object({
  provider: z.enum(["openai", "anthropic", "openai-compatible", "scripted"]),
  available: z.boolean(),
  /** The env variables that make this provider available (names only). */
  requires: z.array(z.string()),
  /** The variable models should name in `apiKeyEnv`, when one is set. */
  apiKeyEnv: z.string().optional(),
  /** openai-compatible: the configured endpoint, without credentials, query or fragment. */
  baseURL: z.string().optional(),
});
export type ProviderStatus = z.infer<typeof ProviderStatusSchema>;
export const ProviderListSchema = z.object({ providers: z.array(ProviderStatusSchema) });
