import { describe, expect, it } from "vitest";
import { computeCostUsd } from "./cost";

describe("computeCostUsd", () => {
  const usage = { inputTokens: 1_000_000, cachedInputTokens: 400_000, outputTokens: 200_000 };

  it("prices uncached input, cached input and output per million tokens", () => {
    const cost = computeCostUsd({ inputPrice: 3, cachedPrice: 0.3, outputPrice: 15 }, usage);
    expect(cost).toBeCloseTo(0.6 * 3 + 0.4 * 0.3 + 0.2 * 15, 10);
  });

  it("charges cached input at the input price when no cached price is given", () => {
    expect(computeCostUsd({ inputPrice: 2, outputPrice: 10 }, usage)).toBeCloseTo(2 + 2, 10);
  });

  it("costs nothing without prices", () => {
    expect(computeCostUsd({}, usage)).toBe(0);
  });
});
