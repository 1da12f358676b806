// The effect runner's settings, read from the environment in one place (pure: it reads only the
// object it is given). Defaults are documented in docs/runtime.md ("Effects"); change them together.
import { z } from "zod";

export const EFFECT_DEFAULTS = {
  /** Effects one process runs at once (their handlers are I/O: messages, HTTP calls). */
  concurrency: 32,
  /** Runs of one effect before it ends `failed` (the first run and its retries). */
  maxAttempts: 5,
  /** Back-off before retry n is retryMs × 2^(n−1), at most 10 minutes. */
  retryMs: 1_000,
  /** A handler still running after this counts as a failed attempt. */
  timeoutMs: 300_000,
  /**
   * Backup poll for a lost NOTIFY (a timer for the next due time and NOTIFY on every new effect do
   * the real work).
   */
  pollMs: 10_000,
} as const;

export const MAX_RETRY_DELAY_MS = 10 * 60_000;

export interface EffectSettings {
  concurrency: number;
  maxAttempts: number;
  retryMs: number;
  timeoutMs: number;
  pollMs: number;
  /** The thread lease length (TANDEM_LEASE_MS) is the effect lease length too. */
  leaseMs: number;
}

export class EffectSettingError extends Error {
  readonly code = "effect_setting_invalid";
}

const whole = z.coerce.number().int().min(0);

function number(env: Record<string, string | undefined>, name: string, fallback: number, min = 0): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const parsed = whole.safeParse(raw);
  if (!parsed.success || parsed.data < min)
    throw new EffectSettingError(`${name} must be a whole number ≥ ${min}; got "${raw}".`);
  return parsed.data;
}

export function effectSettingsFromEnv(env: Record<string, string | undefined>): EffectSettings {
  return {
    concurrency: number(env, "TANDEM_EFFECT_CONCURRENCY", EFFECT_DEFAULTS.concurrency, 1),
    maxAttempts: number(env, "TANDEM_EFFECT_MAX_ATTEMPTS", EFFECT_DEFAULTS.maxAttempts, 1),
    retryMs: number(env, "TANDEM_EFFECT_RETRY_MS", EFFECT_DEFAULTS.retryMs),
    timeoutMs: number(env, "TANDEM_EFFECT_TIMEOUT_MS", EFFECT_DEFAULTS.timeoutMs, 1),
    pollMs: number(env, "TANDEM_EFFECT_POLL_MS", EFFECT_DEFAULTS.pollMs, 50),
    leaseMs: number(env, "TANDEM_LEASE_MS", 6_000, 300),
  };
}

/** The wait before the retry that follows failed attempt `attempt` (1-based): exponential, capped. */
export function retryDelayMs(retryMs: number, attempt: number): number {
  return Math.min(MAX_RETRY_DELAY_MS, retryMs * 2 ** Math.max(0, attempt - 1));
}
