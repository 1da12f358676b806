// `GET /api/threads/:id/logs` on the wire: a thread's model calls (full request, response, usage,
// latency) and tool calls with timings, as the thread page's logs tab reads them.
import { z } from "zod";

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
