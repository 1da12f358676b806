// Percentiles and summaries of latency samples (nearest-rank percentiles, so every reported figure
// is a value that was actually measured).

export interface Summary {
  count: number;
  mean: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
}

/** Nearest-rank percentile of `sorted` (ascending); NaN for no samples. */
export function percentile(sorted: readonly number[], fraction: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil(fraction * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}

export function summarize(samples: readonly number[]): Summary {
  const sorted = [...samples].sort((left, right) => left - right);
  const total = sorted.reduce((sum, value) => sum + value, 0);
  return {
    count: sorted.length,
    mean: sorted.length > 0 ? total / sorted.length : Number.NaN,
    p50: percentile(sorted, 0.5),
    p90: percentile(sorted, 0.9),
    p99: percentile(sorted, 0.99),
    max: sorted.length > 0 ? sorted[sorted.length - 1]! : Number.NaN,
  };
}

/** Differences between consecutive values (n values → n−1 intervals). */
export function intervals(values: readonly number[]): number[] {
  return values.slice(1).map((value, index) => value - values[index]!);
}
