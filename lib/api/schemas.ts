// Response shapes of Tandem's HTTP API as the browser sees them, parsed with zod so a contract
// drift shows up as a clear error instead of a blank screen.
import { z } from "zod";
import { LiveThreadSchema } from "../live/events";

export const ApiErrorBodySchema = z.looseObject({ error: z.string(), code: z.string().optional() });

export const ProjectSummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  version: z.number().int(),
  updated_at: z.number(),
  created_at: z.number().optional(),
});
export type ProjectSummary = z.infer<typeof ProjectSummarySchema>;

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
export const ThreadSummarySchema = LiveThreadSchema;
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
