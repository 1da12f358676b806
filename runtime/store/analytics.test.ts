import { describe, expect, it } from "vitest";
import { binValue, histogramPercentile } from "./analytics";

/** Postgres's percentile_cont: linear interpolation between the order statistics. */
function exact(values: number[], fraction: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const position = fraction * (sorted.length - 1);
  const low = Math.floor(position);
  const lowValue = sorted[low] ?? 0;
  return lowValue + ((sorted[Math.ceil(position)] ?? 0) - lowValue) * (position - low);
}

/** The SQL's bin of a latency (runtime/store/analytics.ts binOf). */
const bin = (ms: number) => (ms < 64 ? Math.floor(ms) : 64 + Math.floor(Math.log(ms / 64) / Math.log(1.05)));

function histogram(values: number[]): [number, number][] {
  const counts = new Map<number, number>();
  for (const value of values) counts.set(bin(value), (counts.get(bin(value)) ?? 0) + 1);
  return [...counts.entries()];
}

describe("histogramPercentile", () => {
  it("equals percentile_cont for whole milliseconds below 64", () => {
    const values = Array.from({ length: 101 }, (_, index) => (index * 37) % 64);
    for (const fraction of [0, 0.5, 0.95, 1])
      expect(histogramPercentile(histogram(values), fraction)).toBeCloseTo(exact(values, fraction), 9);
    expect(histogramPercentile(histogram([3, 4]), 0.5)).toBe(3.5);
    expect(histogramPercentile(histogram([7]), 0.95)).toBe(7);
  });

  it("is within 2.5 % of percentile_cont above 64 ms, and null without values", () => {
    const values = Array.from({ length: 999 }, (_, index) => 200 + ((index * 7919) % 2800));
    for (const fraction of [0.5, 0.95]) {
      const approximate = histogramPercentile(histogram(values), fraction) ?? 0;
      expect(Math.abs(approximate - exact(values, fraction)) / exact(values, fraction)).toBeLessThan(0.025);
    }
    expect(histogramPercentile([], 0.5)).toBeNull();
    expect(binValue(bin(1000))).toBeGreaterThan(975);
    expect(binValue(bin(1000))).toBeLessThan(1025);
  });
});
