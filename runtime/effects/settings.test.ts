import { describe, expect, it } from "vitest";
import { EFFECT_DEFAULTS, effectSettingsFromEnv, MAX_RETRY_DELAY_MS, retryDelayMs } from "./settings";

describe("effect settings", () => {
  it("reads defaults and overrides from the environment, refusing nonsense", () => {
    expect(effectSettingsFromEnv({})).toEqual({ ...EFFECT_DEFAULTS, leaseMs: 6_000 });
    expect(
      effectSettingsFromEnv({
        TANDEM_EFFECT_MAX_ATTEMPTS: "2",
        TANDEM_EFFECT_RETRY_MS: "50",
        TANDEM_LEASE_MS: "900",
      }),
    ).toMatchObject({ maxAttempts: 2, retryMs: 50, leaseMs: 900 });
    expect(() => effectSettingsFromEnv({ TANDEM_EFFECT_MAX_ATTEMPTS: "0" })).toThrow(
      "TANDEM_EFFECT_MAX_ATTEMPTS must be a whole number ≥ 1",
    );
    expect(() => effectSettingsFromEnv({ TANDEM_EFFECT_TIMEOUT_MS: "soon" })).toThrow(
      "TANDEM_EFFECT_TIMEOUT_MS",
    );
  });

  it("backs off exponentially from the base, capped at ten minutes", () => {
    expect([1, 2, 3, 4].map((attempt) => retryDelayMs(1_000, attempt))).toEqual([1_000, 2_000, 4_000, 8_000]);
    expect(retryDelayMs(1_000, 30)).toBe(MAX_RETRY_DELAY_MS);
    expect(retryDelayMs(0, 3)).toBe(0);
  });
});
