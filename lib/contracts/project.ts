// A project in lists and headers (`GET /api/projects`, the project detail's head), declared once for
// the server (runtime/services/project-service.ts) and the browser (lib/api/schemas.ts).
import { z } from "zod";

export const ProjectSummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  version: z.number().int(),
  updated_at: z.number(),
  /** Always sent by the server; optional when parsed so an older answer still reads. */
  created_at: z.number().optional(),
  /**
   * The project's runs (root threads) at a glance, in the list only (`GET /api/projects`): how many,
   * and the latest one's start and status; and how many tool calls of its threads wait for approval.
   */
  activity: z
    .object({
      runs: z.number().int().nonnegative(),
      last_run: z.object({ id: z.string(), created_at: z.number(), status: z.string() }).nullable(),
      pending_approvals: z.number().int().nonnegative(),
    })
    .optional(),
});
export type ProjectSummary = z.infer<typeof ProjectSummarySchema>;
