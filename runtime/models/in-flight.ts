// Model calls in flight in this process, per provider: the backpressure /api/health reports, and the
// per-provider concurrency limit (TANDEM_PROVIDER_CONCURRENCY, TANDEM_PROVIDER_CONCURRENCY_<PROVIDER>):
// a call beyond it waits, first come first served, until one to the same provider ends. A call counts
// from its request to its answer or error (each attempt once; the wait between retries is not a call
// in flight, nor is the wait for the limit: that is `queued`).
import { providerConcurrency } from "./provider-limits";

const inFlight = new Map<string, number>();
const queues = new Map<string, Array<() => void>>();
/** Each provider's limit as its latest call read it (the setting is read per call). */
const limits = new Map<string, number>();

/** Counts one call to `provider` until the returned release is called (a second call is a no-op). */
export function beginModelCall(provider: string): () => void {
  inFlight.set(provider, (inFlight.get(provider) ?? 0) + 1);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    const left = (inFlight.get(provider) ?? 1) - 1;
    if (left > 0) inFlight.set(provider, left);
    else inFlight.delete(provider);
    admitQueued(provider);
  };
}

/** Lets the calls queued for `provider` start while it is under its limit (as its last caller read it). */
function admitQueued(provider: string): void {
  const queue = queues.get(provider);
  if (!queue) return;
  const limit = limits.get(provider) ?? Number.POSITIVE_INFINITY;
  while (queue.length > 0 && (inFlight.get(provider) ?? 0) < limit) queue.shift()?.();
  if (queue.length === 0) queues.delete(provider);
}

/**
 * Waits until `provider` is under its concurrency limit, then counts one call to it (as
 * `beginModelCall`). Rejects with the signal's reason, leaving the queue, when it aborts meanwhile.
 */
export function enterModelCall(
  provider: string,
  signal?: AbortSignal,
  env: Record<string, string | undefined> = process.env,
): Promise<() => void> {
  const limit = providerConcurrency(provider, env);
  limits.set(provider, limit);
  if (signal?.aborted) return Promise.reject(signal.reason);
  if ((inFlight.get(provider) ?? 0) < limit && !queues.get(provider)?.length)
    return Promise.resolve(beginModelCall(provider));
  return new Promise((resolve, reject) => {
    const queue = queues.get(provider) ?? [];
    queues.set(provider, queue);
    const onAbort = () => {
      const at = queue.indexOf(admit);
      if (at >= 0) queue.splice(at, 1);
      if (queue.length === 0 && queues.get(provider) === queue) queues.delete(provider);
      reject(signal?.reason);
    };
    const admit = () => {
      signal?.removeEventListener("abort", onAbort);
      resolve(beginModelCall(provider));
    };
    queue.push(admit);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

export interface ModelCallsInFlight {
  total: number;
  byProvider: Record<string, number>;
  /** Calls waiting for their provider's concurrency limit, per provider (providers with none omitted). */
  queuedByProvider: Record<string, number>;
}

export function modelCallsInFlight(): ModelCallsInFlight {
  const byProvider = Object.fromEntries([...inFlight].sort(([left], [right]) => left.localeCompare(right)));
  const queuedByProvider = Object.fromEntries(
    [...queues]
      .filter(([, queue]) => queue.length > 0)
      .map(([provider, queue]) => [provider, queue.length] as const)
      .sort(([left], [right]) => left.localeCompare(right)),
  );
  return {
    total: [...inFlight.values()].reduce((sum, count) => sum + count, 0),
    byProvider,
    queuedByProvider,
  };
}
