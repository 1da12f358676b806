// A project on the wire: what `/api/projects` and `/api/projects/:id` (and its graph) take and
// answer, declared once for the routes, the server (runtime/services/project-service.ts) and the
// browser's client (lib/api/client.ts).
import { z } from "zod";
import { GraphSchema } from "./graph-document";

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

/** `POST /api/projects`: a name, and optionally definitions and/or a canvas to start from. */
export const CreateProjectBodySchema = z.object({
  name: z.string({ error: "name is required (a string)" }),
  definitions: z.unknown().optional(),
  graph: GraphSchema.optional(),
});

/** `PATCH /api/projects/:id`. */
export const RenameProjectBodySchema = z.object({ name: z.string({ error: "name is required (a string)" }) });

/** `PUT /api/projects/:id/graph`: the canvas; 409 when `base_version` is not the current version. */
export const SaveGraphBodySchema = z.object({
  graph: GraphSchema,
  base_version: z.number().int().min(1).optional(),
});

/** `GET /api/projects`. */
export const ProjectListSchema = z.object({ projects: z.array(ProjectSummarySchema) });

/** A validation problem of the definitions, pointing at the field and, on a canvas, its node or edge. */
export const DiagnosticSchema = z.looseObject({
  severity: z.enum(["error", "warning"]),
  path: z.string(),
  message: z.string(),
  code: z.string().optional(),
  node_id: z.string().optional(),
  edge_id: z.string().optional(),
});
export type ApiDiagnostic = z.infer<typeof DiagnosticSchema>;

/** `GET /api/projects/:id`: the current version with its canvas, definitions and diagnostics. */
export const ProjectDetailSchema = ProjectSummarySchema.extend({
  graph: z.looseObject({ nodes: z.array(z.unknown()) }),
  definitions: z.looseObject({}),
  diagnostics: z.array(DiagnosticSchema),
});
export type ProjectDetail = z.infer<typeof ProjectDetailSchema>;

/** What a save (graph, import, restore) answers: the new version, its definitions and diagnostics. */
export const SavedGraphSchema = z.looseObject({
  version: z.number().int(),
  definitions: z.looseObject({}),
  diagnostics: z.array(DiagnosticSchema),
});
export type SavedGraph = z.infer<typeof SavedGraphSchema>;

/** `DELETE /api/projects/:id`. */
export const DeletedProjectSchema = z.object({ deleted: z.literal(true), id: z.string() });

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

/** The 422 body of a refused `POST /api/projects/:id/import`. */
export const ImportRefusalSchema = z.looseObject({ diagnostics: z.array(ImportDiagnosticSchema) });
