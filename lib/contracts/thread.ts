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
  /**
   * When it last stopped working (Tandem extension, docs/live.md "Durations"): null while it works
   * or before it ever worked. A settled thread's duration ends here, not at `updated_at`, which a
   * later terminate or stop of its tree also moves.
   */
  finished_at: microseconds.nullable().optional(),
  result: z.string().nullable(),
  failure: z.string().nullable(),
  usage: UsageSchema,
  /**
   * The thread this one is a fork copy of (Tandem extension, docs/live.md "Fork and diff"): the fork
   * root names the message it was cut at; a copied child, copied whole, names none.
   * `GET /api/threads/:id` adds the source's name and the message's position (`ForkOriginSchema`).
   */
  forked_from: z
    .object({
      thread_id: z.string().min(1),
      message_id: z.string().min(1).nullable(),
      thread_name: z.string().optional(),
      message_number: z.number().int().positive().nullable().optional(),
    })
    .nullable()
    .optional(),
});
export type ThreadViewWire = z.infer<typeof ThreadViewSchema>;
/** Where a fork copy comes from (`forked_from` of the thread view). */
export type ForkOrigin = NonNullable<ThreadViewWire["forked_from"]>;

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
