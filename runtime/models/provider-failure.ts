// What a failed provider attempt means for the next one (pure): the kind of trouble (rate limited,
// unavailable, another transient failure, or one that repeats every time) and how long the provider
// asked us to wait, read from `retry-after-ms`, `retry-after` (seconds or an HTTP date), OpenAI's
// `x-ratelimit-reset-requests`/`-tokens` ("1s", "6m0s", "20ms") and Anthropic's
// `anthropic-ratelimit-*-reset` (an RFC 3339 time).
import { APICallError } from "ai";
import { ModelError } from "./errors";

/**
 * - `rate_limited`: HTTP 429: wait as the provider says, within the model's budget.
 * - `unavailable`: HTTP 5xx, 408, or no answer at all (connection refused or reset): counts toward
 *   the provider's circuit breaker.
 * - `failed`: anything else that may go away (a cut stream, a garbage body, HTTP 409).
 * - `fatal`: the same request fails the same way every time (HTTP 400/401/403/404/422, a missing
 *   key, an unknown model): go to the next model at once.
 */
export type FailureKind = "rate_limited" | "unavailable" | "failed" | "fatal";

const CONNECTION_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ENOTFOUND",
  "EAI_AGAIN",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "UND_ERR_CONNECT_TIMEOUT",
]);

function statusOf(error: unknown): number | undefined {
  return APICallError.isInstance(error) ? error.statusCode : undefined;
}

/** Whether a connection-level code sits on the error or somewhere along its causes. */
function isConnectionFailure(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && CONNECTION_CODES.has(code)) return true;
    current = current.cause;
  }
  return false;
}

export function classifyFailure(error: unknown): FailureKind {
  if (error instanceof ModelError) return error.retryable ? "failed" : "fatal";
  const status = statusOf(error);
  if (status === 429) return "rate_limited";
  if (status !== undefined && (status >= 500 || status === 408)) return "unavailable";
  if (status !== undefined && status >= 400 && status !== 409) return "fatal";
  // The AI SDK reports a request that got no response at all as an APICallError without a status.
  if ((APICallError.isInstance(error) && status === undefined) || isConnectionFailure(error))
    return "unavailable";
  return "failed";
}

/** "1s", "6m0s", "20ms", "1h2m3.5s" (OpenAI's reset headers) in ms. */
export function parseGoDuration(value: string): number | undefined {
  const text = value.trim();
  if (!/^(\d+(\.\d+)?(h|m|s|ms))+$/.test(text)) return undefined;
  let total = 0;
  for (const [, amount, unit] of text.matchAll(/(\d+(?:\.\d+)?)(ms|h|m|s)/g)) {
    const scale = unit === "h" ? 3_600_000 : unit === "m" ? 60_000 : unit === "s" ? 1000 : 1;
    total += Number(amount) * scale;
  }
  return total;
}

function positive(ms: number | undefined): number | undefined {
  return ms !== undefined && Number.isFinite(ms) && ms > 0 ? Math.ceil(ms) : undefined;
}

/** A date header ("Wed, 02 Dec 2026 03:00:00 GMT" or RFC 3339) as ms from `now`. */
function untilDate(value: string, now: number): number | undefined {
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : positive(at - now);
}

/**
 * How long the provider asked to wait before the next request, in ms, or undefined when it said
 * nothing usable. `retry-after-ms` wins, then `retry-after`, then the longest of the reset headers
 * of limits with nothing remaining (a request is refused until every exhausted limit has reset).
 */
export function providerWaitMs(error: unknown, now: number = Date.now()): number | undefined {
  if (!APICallError.isInstance(error)) return undefined;
  const headers = Object.fromEntries(
    Object.entries(error.responseHeaders ?? {}).map(([name, value]) => [name.toLowerCase(), value]),
  );
  const milliseconds = positive(Number(headers["retry-after-ms"]));
  if (milliseconds !== undefined) return milliseconds;
  const retryAfter = headers["retry-after"]?.trim();
  if (retryAfter) {
    const seconds = Number(retryAfter);
    const fromHeader = Number.isNaN(seconds) ? untilDate(retryAfter, now) : positive(seconds * 1000);
    if (fromHeader !== undefined) return fromHeader;
  }
  const resets: number[] = [];
  for (const [name, value] of Object.entries(headers)) {
    // A limit with some left did not refuse this request (absent: assume it did).
    const remaining = headers[name.replace(/-reset(-|$)/, "-remaining$1")];
    if (value === undefined || (remaining !== undefined && Number(remaining) > 0)) continue;
    if (/^x-ratelimit-reset-(requests|tokens)$/.test(name)) {
      const ms = positive(parseGoDuration(value));
      if (ms !== undefined) resets.push(ms);
    } else if (/^anthropic-ratelimit-[a-z-]+-reset$/.test(name)) {
      const ms = untilDate(value, now);
      if (ms !== undefined) resets.push(ms);
    }
  }
  return resets.length > 0 ? Math.max(...resets) : undefined;
}
