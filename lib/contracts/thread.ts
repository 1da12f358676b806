// The thread's wire shape, declared once for the server (runtime/store/thread-row.ts builds it) and
// the browser (lib/live, lib/api parse it): its statuses, usage and view.
import { z } from "zod";

export const THREAD_STATUSES = [
  "idle",
  "queued",
  "running",
  "waiting_approval",
  "completed",
  "failed",
  "stopped",
  "terminated",
] as const;
export const ThreadStatusSchema = z.enum(THREAD_STATUSES);
export type ThreadStatus = z.infer<typeof ThreadStatusSchema>;

const microseconds = z.number().finite();

export const UsageSchema = z.object({
  input_tokens: z.number().finite(),
  output_tokens: z.number().finite(),
  cost_usd: z.number().finite(),
});
export type Usage = z.infer<typeof UsageSchema>;

/**
 * A thread on the wire (API.md `thread`): the `thread` event payload and what `GET /api/threads/:id`
 * answers. Its `children` is always empty on the wire, so it is dropped.
 */
export const ThreadViewSchema = z.object({
  id: z.string().min(1),
  project_id: z.string(),
  version: z.number().int(),
  agent_id: z.string(),
  parent_id: z.string().min(1).nullable(),
  root_id: z.string().min(1),
  depth: z.number().int().nonnegative(),
  name: z.string().nullable(),
  status: ThreadStatusSchema,
  status_text: z.string().nullable().default(null),
  stop_reason: z.string().nullable().default(null),
  terminated: microseconds.nullable(),
  created_at: microseconds,
  updated_at: microseconds,
  result: z.string().nullable(),
  failure: z.string().nullable(),
  usage: UsageSchema,
});
export type ThreadViewWire = z.infer<typeof ThreadViewSchema>;

/**
 * One thread in `GET /api/threads/:id/tree` (API.md additions): its registry entry's status and mode
 * when it is a subagent, its own usage and its subtree's, and its children.
 */
export interface ThreadTreeNode {
  id: string;
  agent_id: string;
  name: string | null;
  status: ThreadStatus;
  registry_status: string | null;
  blocking: boolean | null;
  resumable: boolean | null;
  parent_id: string | null;
  depth: number;
  usage: Usage;
  subtree_usage: Usage;
  children: ThreadTreeNode[];
}
