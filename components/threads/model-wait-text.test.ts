import { describe, expect, it } from "vitest";
import { modelWaitText } from "./model-wait-text";

const at = 1_000_000_000; // µs: 1,000,000 ms

describe("modelWaitText", () => {
  it("names the provider and counts down whole seconds, rounding up", () => {
    const wait = {
      reason: "rate_limited",
      provider: "openai at api.openai.com",
      model: "gpt",
      at,
      delayMs: 4200,
    } as const;
    expect(modelWaitText(wait, 1_000_000)).toBe("Rate limited by openai at api.openai.com, retrying in 5 s");
    expect(modelWaitText(wait, 1_003_500)).toBe("Rate limited by openai at api.openai.com, retrying in 1 s");
    expect(modelWaitText(wait, 1_004_200)).toBe("Rate limited by openai at api.openai.com, retrying now…");
  });

  it("says a provider is unavailable, and which model failed otherwise", () => {
    const base = { provider: "anthropic", model: "claude", at, delayMs: 30_000 };
    expect(modelWaitText({ ...base, reason: "unavailable" }, 1_000_000)).toBe(
      "anthropic unavailable, retrying in 30 s",
    );
    expect(modelWaitText({ ...base, reason: "error" }, 1_010_000)).toBe(
      "Model claude failed, retrying in 20 s",
    );
  });
});
