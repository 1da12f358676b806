// What a project's threads are doing right now (`GET /api/projects/:id/activity`), declared once for
// the server (runtime/services/activity-service.ts) and the studio's run overlay (lib/studio/run-activity.ts).
import { z } from "zod";
import { THREAD_STATUSES, type ThreadStatus } from "./thread";

const count = z.number().int().nonnegative();

export const StatusCountsSchema = z.object(
  Object.fromEntries(THREAD_STATUSES.map((status) => [status, count])) as Record<ThreadStatus, typeof count>,
);
export type StatusCounts = z.infer<typeof StatusCountsSchema>;

export const AgentActivitySchema = z.object({
  agent_id: z.string(),
  /** Every thread of the project that runs this agent now (after handoffs), by status. */
  counts: StatusCountsSchema,
  /** Prompts of this agent's running threads (the current side's prompt), with how many run it. */
  active_prompts: z.array(z.object({ prompt: z.string(), running: count })),
});
export type AgentActivity = z.infer<typeof AgentActivitySchema>;

export const ProjectActivitySchema = z.object({
  project_id: z.string(),
  agents: z.array(AgentActivitySchema),
  /** Server time of the answer, µs since the epoch. */
  at: z.number(),
});
export type ProjectActivity = z.infer<typeof ProjectActivitySchema>;

export function emptyStatusCounts(): StatusCounts {
  return Object.fromEntries(THREAD_STATUSES.map((status) => [status, 0])) as StatusCounts;
}
