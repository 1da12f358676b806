// Clocks for the benchmarks and the tests that share their fixtures: a monotonic millisecond timer,
// and a microsecond wall clock aligned to Date.now() so client-side instants can be compared with the
// runtime's persisted `created_at` (which the runtime writes as Date.now() × 1000, i.e. with millisecond resolution).

/** Monotonic milliseconds (fractional). */
export const monotonicMs = (): number => performance.now();

/**
 * A microsecond wall clock: performance.now() shifted onto Date.now(). The offset is taken at the
 * instant Date.now() ticks over, so it is exact to a few microseconds rather than to a millisecond.
 * Re-create it before each benchmark (the system clock may be slewed over a long run).
 */
export function alignedWallClockUs(): () => number {
  const start = Date.now();
  let tick = start;
  let atTick = performance.now();
  while (tick === start) {
    atTick = performance.now();
    tick = Date.now();
  }
  const offsetUs = tick * 1000 - atTick * 1000;
  return () => performance.now() * 1000 + offsetUs;
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
