// Scheduled effects as `GET /api/threads/:id/effects` answers them, declared once for the server
// (runtime/services/effect-service.ts) and the thread page's effects panel.
import { z } from "zod";

export const EFFECT_STATUSES = ["scheduled", "running", "done", "failed", "cancelled"] as const;
export type EffectStatus = (typeof EFFECT_STATUSES)[number];

export const EffectViewSchema = z.object({
  id: z.string(),
  name: z.string(),
  args: z.record(z.string(), z.unknown()),
  /** When it is (or was last) due, µs since the epoch; a retry moves it on. */
  run_at: z.number(),
  status: z.enum(EFFECT_STATUSES),
  /** Runs started so far. */
  attempts: z.number().int().nonnegative(),
  /** The last failure: while a retry waits, and once failed. */
  error: z.string().optional(),
});
export type EffectView = z.infer<typeof EffectViewSchema>;

export const EffectListSchema = z.object({ effects: z.array(EffectViewSchema) });

/** What `DELETE /api/threads/:id/effects/:effectId` answers. */
export const EffectCancelledSchema = z.object({ cancelled: z.literal(true) });

/** `?name=`: an effect name (path under extensions/effects without the extension); empty means all. */
export const EffectListQuerySchema = z.object({
  name: z
    .string()
    .max(200, "name is at most 200 characters")
    .optional()
    .transform((value) => (value ? value : undefined)),
});
