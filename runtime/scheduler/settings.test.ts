import { describe, expect, it } from "vitest";
import { SCHEDULER_DEFAULTS, schedulerSettingsFromEnv } from "./settings";

describe("schedulerSettingsFromEnv", () => {
  it("uses the documented defaults, which reclaim a killed process's threads within 10 s", () => {
    const settings = schedulerSettingsFromEnv({});
    // The local-take bound is left to the scheduler, which knows the database (Postgres or PGlite).
    expect(settings).toEqual({ runThreads: true, ...SCHEDULER_DEFAULTS, localTakeRounds: null });
    expect(settings.leaseMs + settings.pollMs).toBeLessThanOrEqual(10_000);
  });

  it("reads TANDEM_RUN_THREADS, and TANDEM_SCHEDULER=off as its older spelling", () => {
    expect(schedulerSettingsFromEnv({ TANDEM_RUN_THREADS: "false" }).runThreads).toBe(false);
    expect(schedulerSettingsFromEnv({ TANDEM_SCHEDULER: "off" }).runThreads).toBe(false);
    expect(schedulerSettingsFromEnv({ TANDEM_RUN_THREADS: "true", TANDEM_SCHEDULER: "off" }).runThreads).toBe(
      true,
    );
  });

  it("reads the limits and refuses values that are not whole milliseconds", () => {
    const settings = schedulerSettingsFromEnv({ TANDEM_MAX_RUN_MS: "60000", TANDEM_MAX_QUEUED_MS: "5000" });
    expect(settings.maxRunMs).toBe(60_000);
    expect(settings.maxQueuedMs).toBe(5_000);
    expect(() => schedulerSettingsFromEnv({ TANDEM_DRAIN_MS: "soon" })).toThrow(/TANDEM_DRAIN_MS/);
    expect(() => schedulerSettingsFromEnv({ TANDEM_LEASE_MS: "10" })).toThrow(/≥ 300/);
    expect(() => schedulerSettingsFromEnv({ TANDEM_RUN_THREADS: "maybe" })).toThrow(/true or false/);
    expect(schedulerSettingsFromEnv({ TANDEM_LOCAL_TAKE_ROUNDS: "16" }).localTakeRounds).toBe(16);
    expect(() => schedulerSettingsFromEnv({ TANDEM_LOCAL_TAKE_ROUNDS: "0" })).toThrow(
      /TANDEM_LOCAL_TAKE_ROUNDS.*≥ 1/,
    );
  });
});
