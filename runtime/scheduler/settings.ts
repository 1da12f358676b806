// The scheduler's settings, read from the environment in one place (pure: it reads only the object it
// is given). Every default is documented in docs/deploy.md; change them together.
import { z } from "zod";

export const SCHEDULER_DEFAULTS = {
  /**
   * Threads one process runs at once. Model calls are I/O, and more threads in flight than pooled
   * connections pipeline their commits on each connection: 200 × 10 dialogue steps ran at 1,597
   * steps/s with 64 and 1,373 with 16 (docs/benchmarks.md item 14).
   */
  concurrency: 64,
  /**
   * Threads one process holds at once. Most of them wait on model calls, which take no step slot (see
   * concurrency) and no connection: this bounds memory (a claimed thread keeps its history cached),
   * not CPU. 1,000 threads waiting on a 1 s model answer in about 2 s at concurrency 64
   * (docs/benchmarks.md, 10a).
   */
  maxClaimed: 10_000,
  /**
   * Lease length. A killed process's threads run elsewhere once its leases expire, so this plus one
   * poll bounds the reclaim time (6 s + 1 s, inside the 10 s target with room for a loaded machine);
   * a process renews all its leases in one statement every third of it, so it must stall for more
   * than 4 s to lose one (and then only the step in flight is redone elsewhere).
   */
  leaseMs: 6_000,
  /** Fallback poll: missed notifications, expired leases, threads waiting too long. */
  pollMs: 1_000,
  /** SIGTERM: how long in-flight steps may run before they are aborted and handed back. */
  drainMs: 10_000,
  /** Wall clock of one run (input drained → parked); 0 = no limit. */
  maxRunMs: 0,
  /** How long a runnable thread may wait unclaimed before it fails; 0 = no limit. */
  maxQueuedMs: 0,
  /**
   * Rounds of steps (TANDEM_CONCURRENCY each) a process takes for itself of the threads it makes
   * runnable, counting the running ones, before it leaves the rest to any process (a NOTIFY and a
   * claim each). On Postgres, where other app servers and workers may share the work. An embedded
   * PGlite database belongs to one process, so there it takes them all (up to maxClaimed).
   */
  localTakeRounds: 2,
} as const;

export interface SchedulerSettings {
  runThreads: boolean;
  concurrency: number;
  maxClaimed: number;
  leaseMs: number;
  pollMs: number;
  drainMs: number;
  maxRunMs: number;
  maxQueuedMs: number;
  /** TANDEM_LOCAL_TAKE_ROUNDS when set; otherwise the default for the database (Scheduler). */
  localTakeRounds: number | null;
}

export class SchedulerSettingError extends Error {
  readonly code = "scheduler_setting_invalid";
}

const milliseconds = z.coerce.number().int().min(0);

function number(env: Record<string, string | undefined>, name: string, fallback: number, min = 0): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const parsed = milliseconds.safeParse(raw);
  if (!parsed.success || parsed.data < min)
    throw new SchedulerSettingError(`${name} must be a whole number ≥ ${min}; got "${raw}".`);
  return parsed.data;
}

function flag(env: Record<string, string | undefined>, name: string): boolean | null {
  const raw = env[name]?.trim().toLowerCase();
  if (!raw) return null;
  if (["true", "1", "yes", "on"].includes(raw)) return true;
  if (["false", "0", "no", "off"].includes(raw)) return false;
  throw new SchedulerSettingError(`${name} must be true or false; got "${env[name]}".`);
}

export function schedulerSettingsFromEnv(env: Record<string, string | undefined>): SchedulerSettings {
  // TANDEM_SCHEDULER=off is the older spelling of TANDEM_RUN_THREADS=false.
  const runThreads = flag(env, "TANDEM_RUN_THREADS") ?? flag(env, "TANDEM_SCHEDULER") ?? true;
  return {
    runThreads,
    concurrency: number(env, "TANDEM_CONCURRENCY", SCHEDULER_DEFAULTS.concurrency, 1),
    maxClaimed: number(env, "TANDEM_MAX_CLAIMED_THREADS", SCHEDULER_DEFAULTS.maxClaimed, 1),
    leaseMs: number(env, "TANDEM_LEASE_MS", SCHEDULER_DEFAULTS.leaseMs, 300),
    pollMs: number(env, "TANDEM_POLL_MS", SCHEDULER_DEFAULTS.pollMs, 50),
    drainMs: number(env, "TANDEM_DRAIN_MS", SCHEDULER_DEFAULTS.drainMs),
    maxRunMs: number(env, "TANDEM_MAX_RUN_MS", SCHEDULER_DEFAULTS.maxRunMs),
    maxQueuedMs: number(env, "TANDEM_MAX_QUEUED_MS", SCHEDULER_DEFAULTS.maxQueuedMs),
    localTakeRounds: env.TANDEM_LOCAL_TAKE_ROUNDS?.trim()
      ? number(env, "TANDEM_LOCAL_TAKE_ROUNDS", SCHEDULER_DEFAULTS.localTakeRounds, 1)
      : null,
  };
}

/** The reason a thread's run was ended by a time limit (its `stop_reason`, and a child's report). */
export function runLimitReason(maxRunMs: number): string {
  return `Run time limit reached: the run took longer than ${maxRunMs} ms (TANDEM_MAX_RUN_MS)`;
}

/** The failure of a thread that waited too long for a scheduler. */
export function queuedLimitReason(maxQueuedMs: number): string {
  return `Queued too long: no worker picked the thread up within ${maxQueuedMs} ms (TANDEM_MAX_QUEUED_MS)`;
}
