// How many calls to one model provider this process makes at once (pure: it reads only the env it is
// given). TANDEM_PROVIDER_CONCURRENCY sets it for every provider (default 1,024);
// TANDEM_PROVIDER_CONCURRENCY_<PROVIDER> (the provider's name in capitals, other characters as "_",
// e.g. TANDEM_PROVIDER_CONCURRENCY_OPENAI) overrides it for one. A bad value is a clear error.
import { ModelError } from "./errors";

/**
 * The ceiling of the adaptive limit (in-flight.ts), not the defence against rate limits: a 429 halves
 * the limit and paces the endpoint whatever the ceiling. It bounds the sockets and answer buffers one
 * process holds per endpoint. 1,024 lets a burst of up to a thousand conversations (an eval run at
 * concurrency 500 with its simulated users, 1,000 chats) call at once; 256, the default before
 * session 41, queued half of a 500-case eval run's calls each turn and put a 4 s floor under 500
 * two-turn conversations of a 1 s model (docs/benchmarks.md).
 */
export const DEFAULT_PROVIDER_CONCURRENCY = 1_024;

/** The environment variable that sets `provider`'s own limit. */
export function providerConcurrencyVariable(provider: string): string {
  return `TANDEM_PROVIDER_CONCURRENCY_${provider.toUpperCase().replace(/[^A-Z0-9]/g, "_")}`;
}

function parseLimit(name: string, raw: string): number {
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(value) || value < 1)
    throw new ModelError("model_configuration_invalid", `${name} must be a whole number ≥ 1; got "${raw}".`, {
      variable: name,
    });
  return value;
}

export function providerConcurrency(provider: string, env: Record<string, string | undefined>): number {
  const own = providerConcurrencyVariable(provider);
  const ownRaw = env[own]?.trim();
  if (ownRaw) return parseLimit(own, ownRaw);
  const allRaw = env.TANDEM_PROVIDER_CONCURRENCY?.trim();
  if (allRaw) return parseLimit("TANDEM_PROVIDER_CONCURRENCY", allRaw);
  return DEFAULT_PROVIDER_CONCURRENCY;
}
