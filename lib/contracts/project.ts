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
});
export type ProjectSummary = z.infer<typeof ProjectSummarySchema>;
