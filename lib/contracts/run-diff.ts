// The wire shapes of fork and diff (API.md "Replay, fork and diff"): what `POST
// /api/threads/:id/fork` and `GET /api/threads/diff` take and answer, parsed by the browser (lib/api). The
// server builds them in runtime/services/thread-fork.ts and thread-diff.ts with lib/runs/run-diff.ts.
import { z } from "zod";
import { ThreadViewSchema, UsageSchema } from "./thread";

/** `POST /api/threads/:id/fork`: cut at a message, optionally followed (or replaced) by `content`. */
export const ForkRequestSchema = z.object({
  at_message_id: z.string({ error: "at_message_id is required (a message id)" }).min(1),
  content: z.string({ error: "content must be a string" }).optional(),
  /** Tandem extension: copy the history before the message, and `content` takes its place. */
  replace: z.boolean({ error: "replace must be a boolean" }).optional(),
});

/** `GET /api/threads/diff?a=&b=`: the two threads to align. */
export const ThreadDiffQuerySchema = z.object({
  a: z.string({ error: "a is required (a thread id)" }).trim().min(1, "a is required (a thread id)"),
  b: z.string({ error: "b is required (a thread id)" }).trim().min(1, "b is required (a thread id)"),
});

export const ForkedThreadSchema = z.object({
  threadId: z.string().min(1),
  thread: ThreadViewSchema,
  forked_from: z.object({
    thread_id: z.string(),
    at_message_id: z.string(),
    through_message_id: z.string().nullable(),
  }),
  copied_messages: z.number().int().nonnegative(),
  copied_files: z.number().int().nonnegative(),
});
export type ForkedThread = z.infer<typeof ForkedThreadSchema>;

export const RunMessageSchema = z.object({
  id: z.string(),
  thread_id: z.string(),
  seq: z.number().int(),
  role: z.enum(["system", "user", "assistant", "tool"]),
  side: z.enum(["a", "b"]).nullable(),
  content: z.string().nullable(),
  name: z.string().nullable(),
  tool_calls: z.array(z.object({ id: z.string(), name: z.string(), arguments: z.string() })).nullable(),
  tool_call_id: z.string().nullable(),
  tool_status: z.enum(["success", "error"]).nullable(),
  silent: z.boolean(),
  attachments: z.array(z.string()),
});
export type RunMessageWire = z.infer<typeof RunMessageSchema>;

const RunThreadSchema = z.object({
  thread_id: z.string(),
  agent: z.string(),
  name: z.string().nullable(),
  status: z.string(),
});

export const RunSummarySchema = z.object({
  id: z.string(),
  project_id: z.string(),
  agent_id: z.string(),
  name: z.string().nullable(),
  status: z.string(),
  created_at: z.number(),
  updated_at: z.number(),
  threads: z.number().int(),
  usage: UsageSchema,
  subtree_usage: UsageSchema,
  model_calls: z.number().int(),
  model_latency_ms: z.number(),
  duration_ms: z.number(),
});
export type RunSummary = z.infer<typeof RunSummarySchema>;

export const ThreadDiffSchema = z.object({
  steps: z.array(
    z.object({
      index: z.number().int(),
      a: RunMessageSchema.nullable(),
      b: RunMessageSchema.nullable(),
      same: z.boolean(),
      path: z.array(z.number().int()),
      differences: z.array(z.string()),
    }),
  ),
  first_divergence: z.number().int().nullable(),
  children: z.array(
    z.object({
      path: z.array(z.number().int()),
      a: RunThreadSchema.nullable(),
      b: RunThreadSchema.nullable(),
      first_step: z.number().int().nullable(),
    }),
  ),
  threads: z.object({ a: RunSummarySchema, b: RunSummarySchema }),
});
export type ThreadDiffWire = z.infer<typeof ThreadDiffSchema>;
export type DiffStepWire = ThreadDiffWire["steps"][number];
