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
    /**
     * Each provider endpoint (provider, base URL, key) with calls, a queue, a limit lowered by rate
     * limits, a pause after a 429 or an open circuit breaker (docs/runtime.md "Provider trouble").
     */
    providers: z
      .array(
        z.object({
          provider: z.string(),
          /** The provider and its base URL's host ("openai-compatible at 127.0.0.1:11434"). */
          label: z.string(),
          in_flight: z.number().int().nonnegative(),
          queued: z.number().int().nonnegative(),
          /** The adaptive concurrency limit now, and the configured one it climbs back to. */
          limit: z.number().int().positive(),
          max_limit: z.number().int().positive(),
          /** HTTP 429s this process has seen from it. */
          rate_limited: z.number().int().nonnegative(),
          /** Calls it admits per second at most, learnt from its 429s (null: none yet). */
          pace_per_second: z.number().positive().nullable().default(null),
          state: z.enum(["ok", "paused", "unavailable"]),
          /** For `paused` and `unavailable`: ms until calls go out again. */
          retry_in_ms: z.number().nonnegative().nullable(),
        }),
      )
      .default([]),
  }),
  /**
   * Group commit in this process since it started (docs/runtime.md "Group commit"): one-statement
   * step commits of several threads sharing one transaction.
   */
  commits: z.object({
    /** Whether group commit is on (TANDEM_GROUP_COMMIT; never on the embedded database). */
    grouped: z.boolean(),
    /** Transactions that committed two or more threads' commits together. */
    batches: z.number().int().nonnegative(),
    /** The commits those transactions held (parts / batches: the mean group size). */
    parts: z.number().int().nonnegative(),
    /** The most commits one transaction held. */
    largest: z.number().int().nonnegative(),
    /** Commits sent alone (nothing else ready at that moment, or after a group failed). */
    alone: z.number().int().nonnegative(),
    /** Groups that failed as a whole (one part's own check failing, or a server error). */
    retried: z.number().int().nonnegative(),
    /** Failed groups whose commits then ran alone each. */
    fallbacks: z.number().int().nonnegative(),
  }),
});

export type RuntimeLoad = z.infer<typeof runtimeLoadSchema>;
