// A project's versions on the wire: `/api/projects/:id/versions` (the list, one version, a diff of
// two) and what `POST …/versions/:version/restore` takes. `FieldChange` is declared here once for
// the comparison (lib/versions/bundle-diff.ts) and the browser.
import { z } from "zod";

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

/**
 * One changed property of a definition: its path ("sideA.prompt", "tools"), the value before and the
 * value after. An absent `before` means the property was added, an absent `after` that it was removed.
 */
export const FieldChangeSchema = z.object({
  path: z.string(),
  before: z.unknown().optional(),
  after: z.unknown().optional(),
});
export type FieldChange = z.infer<typeof FieldChangeSchema>;
const FieldChangesSchema = z.record(z.string(), z.array(FieldChangeSchema));

/** `GET /api/projects/:id/versions/:version/diff`: definition names per kind, and changed fields. */
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

/** `POST /api/projects/:id/versions/:version/restore` (the body is optional). */
export const RestoreVersionBodySchema = z.object({ base_version: z.number().int().min(1).optional() });
