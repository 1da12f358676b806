// The `load` object of GET /api/health (issue 19, "backpressure you can see"): declared once for the
// server and the studio's status line.
import { z } from "zod";

export const runtimeLoadSchema = z.object({
  threads: z.object({
    /** Runnable threads no scheduler holds (across every process on the database). */
    waiting: z.number().int().nonnegative(),
    /** How long the longest-waiting of them has waited, or null when none waits. */
    oldest_waiting_ms: z.number().nonnegative().nullable(),
    /** Threads a scheduler holds now (across every process). */
    running: z.number().int().nonnegative(),
  }),
  this_process: z.object({
    /** Threads this process holds: running a step, waiting for a step slot or on a model call. */
    running: z.number().int().nonnegative(),
    /** Most threads it holds at once (TANDEM_MAX_CLAIMED_THREADS). */
    max_claimed: z.number().int().positive(),
    /** Steps doing CPU and database work now (a thread waiting on a model holds no slot). */
    steps_active: z.number().int().nonnegative(),
    /** Most steps at once (TANDEM_CONCURRENCY). */
    concurrency: z.number().int().positive(),
  }),
  model_calls: z.object({
    /** Model calls this process is waiting on. */
    in_flight: z.number().int().nonnegative(),
    by_provider: z.record(z.string(), z.number().int().positive()),
    /** Calls waiting for their provider's concurrency limit (TANDEM_PROVIDER_CONCURRENCY). */
    queued: z.number().int().nonnegative(),
    queued_by_provider: z.record(z.string(), z.number().int().positive()),
  }),
});

export type RuntimeLoad = z.infer<typeof runtimeLoadSchema>;
