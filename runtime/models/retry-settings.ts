// How long a model call keeps trying (pure: it reads only the env it is given). Each model of a
// chain gets TANDEM_MODEL_RETRY_BUDGET_MS (default 60 s) of waiting between its attempts before its
// fallback (or the failure); a provider's circuit breaker opens after TANDEM_PROVIDER_BREAKER_FAILURES
// outage failures in a row (default 5) for TANDEM_PROVIDER_BREAKER_MS (default 30 s). A bad value
// is a clear error.
import { ModelError } from "./errors";
import { type BreakerSettings, DEFAULT_BREAKER } from "./in-flight";

export interface ModelRetrySettings {
  budgetMs: number;
  breaker: BreakerSettings;
}

export const DEFAULT_RETRY_BUDGET_MS = 60_000;

function read(
  env: Record<string, string | undefined>,
  name: string,
  fallback: number,
  minimum: number,
): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(value) || value < minimum)
    throw new ModelError(
      "model_configuration_invalid",
      `${name} must be a whole number ≥ ${minimum}; got "${raw}".`,
      { variable: name },
    );
  return value;
}

export function modelRetrySettingsFromEnv(env: Record<string, string | undefined>): ModelRetrySettings {
  return {
    budgetMs: read(env, "TANDEM_MODEL_RETRY_BUDGET_MS", DEFAULT_RETRY_BUDGET_MS, 0),
    breaker: {
      failures: read(env, "TANDEM_PROVIDER_BREAKER_FAILURES", DEFAULT_BREAKER.failures, 1),
      openMs: read(env, "TANDEM_PROVIDER_BREAKER_MS", DEFAULT_BREAKER.openMs, 0),
    },
  };
}
