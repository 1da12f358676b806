// Model calls in flight in this process, per provider: the backpressure /api/health reports. A call
// counts from its request to its answer or error (each attempt once; the wait between retries is
// not a call in flight).
const inFlight = new Map<string, number>();

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
  };
}

export interface ModelCallsInFlight {
  total: number;
  byProvider: Record<string, number>;
}

export function modelCallsInFlight(): ModelCallsInFlight {
  const byProvider = Object.fromEntries([...inFlight].sort(([left], [right]) => left.localeCompare(right)));
  return { total: [...inFlight.values()].reduce((sum, count) => sum + count, 0), byProvider };
}
