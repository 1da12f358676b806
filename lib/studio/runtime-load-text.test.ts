import { describe, expect, it } from "vitest";
import type { RuntimeLoad } from "@/lib/contracts/runtime-load";
import { runtimeLoadText } from "./runtime-load-text";

function load(
  overrides: Partial<RuntimeLoad["threads"]> = {},
  inFlight: Record<string, number> = {},
  queued: Record<string, number> = {},
): RuntimeLoad {
  const total = Object.values(inFlight).reduce((sum, count) => sum + count, 0);
  const queuedTotal = Object.values(queued).reduce((sum, count) => sum + count, 0);
  return {
    threads: { waiting: 0, oldest_waiting_ms: null, running: 0, ...overrides },
    this_process: {
      running: overrides.running ?? 0,
      max_claimed: 10_000,
      steps_active: Math.min(overrides.running ?? 0, 64),
      concurrency: 64,
    },
    model_calls: {
      in_flight: total,
      by_provider: inFlight,
      queued: queuedTotal,
      queued_by_provider: queued,
      providers: [],
    },
    commits: { grouped: false, batches: 0, parts: 0, largest: 0, alone: 0, retried: 0, fallbacks: 0 },
  };
}

describe("runtimeLoadText", () => {
  it("says idle when nothing runs or waits", () => {
    const text = runtimeLoadText(load());
    expect(text.short).toBe("Runtime idle");
    expect(text.backlogged).toBe(false);
    expect(text.full).toContain("Threads running: 0 (this server holds 0 of up to 10000)");
    expect(text.full).toContain("Steps working on this server: 0 of 64 at once");
    expect(text.full).not.toContain("queued");
  });

  it("counts running, waiting with the oldest wait, and model calls, with providers in the tooltip", () => {
    const text = runtimeLoadText(
      load({ running: 64, waiting: 12, oldest_waiting_ms: 4200 }, { openai: 40, anthropic: 2 }),
    );
    expect(text.short).toBe("Runtime: 64 running · 12 waiting (oldest 4 s) · 42 model calls");
    expect(text.full).toContain("Model calls in flight on this server: 42 (openai 40, anthropic 2)");
    expect(text.full).toContain("Threads waiting for a scheduler: 12, the oldest for 4 s");
    expect(text.backlogged).toBe(false);
  });

  it("flags a backlog once the oldest thread has waited five seconds", () => {
    expect(runtimeLoadText(load({ waiting: 1, oldest_waiting_ms: 4999 })).backlogged).toBe(false);
    const text = runtimeLoadText(load({ waiting: 3, oldest_waiting_ms: 125_000 }, { scripted: 1 }));
    expect(text.backlogged).toBe(true);
    expect(text.short).toBe("Runtime: 3 waiting (oldest 2 min) · 1 model call");
  });

  it("shows calls queued behind a provider's concurrency limit", () => {
    const text = runtimeLoadText(load({ running: 300 }, { openai: 256 }, { openai: 44 }));
    expect(text.short).toBe("Runtime: 300 running · 256 model calls · 44 queued for a provider");
    expect(text.full).toContain("Model calls queued for a provider's limit: 44 (openai 44)");
  });

  it("names a rate-limited or unavailable provider, with its lowered limit in the tooltip", () => {
    const base = load({ running: 80 }, { openai: 3 }, { openai: 77 });
    const endpoint = {
      provider: "openai",
      label: "openai at api.openai.com",
      in_flight: 3,
      queued: 77,
      limit: 3,
      max_limit: 256,
      rate_limited: 12,
      pace_per_second: 45.5,
      state: "paused" as const,
      retry_in_ms: 2400,
    };
    const text = runtimeLoadText({ ...base, model_calls: { ...base.model_calls, providers: [endpoint] } });
    expect(text.short).toBe(
      "Runtime: 80 running · 3 model calls · 77 queued for a provider · openai rate limited",
    );
    expect(text.full).toContain(
      "openai at api.openai.com: 3 in flight, 77 queued, limit lowered to 3 of 256 by rate limits, paced at 45.5/s, rate limited: paused for 2 s",
    );
    const down = {
      ...endpoint,
      limit: 256,
      pace_per_second: null,
      state: "unavailable" as const,
      retry_in_ms: 12_000,
    };
    const outage = runtimeLoadText({ ...base, model_calls: { ...base.model_calls, providers: [down] } });
    expect(outage.short).toContain("openai unavailable");
    expect(outage.full).toContain(
      "openai at api.openai.com: 3 in flight, 77 queued, limit 256, unavailable: retrying in 12 s",
    );
  });

  it("says how step commits were grouped when group commit is on, and nothing when it is off", () => {
    expect(runtimeLoadText(load()).full).not.toContain("grouped");
    const none = { ...load(), commits: { ...load().commits, grouped: true } };
    expect(runtimeLoadText(none).full).toContain("Step commits grouped on this server: none yet");
    const some = {
      ...load(),
      commits: { grouped: true, batches: 4, parts: 30, largest: 12, alone: 7, retried: 1, fallbacks: 0 },
    };
    expect(runtimeLoadText(some).full).toContain(
      "Step commits grouped on this server: 30 in 4 transactions (7.5 on average, largest 12)",
    );
  });
});
