import { describe, expect, it, vi } from "vitest";
import { beginModelCall, enterModelCall, modelCallsInFlight, providerUnavailableForMs } from "./in-flight";
import { providerConcurrency, providerConcurrencyVariable } from "./provider-limits";

describe("model calls in flight", () => {
  it("counts calls per provider until each is released, once", () => {
    const base = modelCallsInFlight().total;
    const first = beginModelCall("openai");
    const second = beginModelCall("openai");
    const third = beginModelCall("scripted");
    expect(modelCallsInFlight().total).toBe(base + 3);
    expect(modelCallsInFlight().byProvider.openai).toBe(2);
    first();
    first();
    expect(modelCallsInFlight().byProvider.openai).toBe(1);
    second();
    third();
    expect(modelCallsInFlight().byProvider.openai).toBeUndefined();
    expect(modelCallsInFlight().total).toBe(base);
  });

  it("queues calls beyond the provider's limit, first come first served, and admits one per release", async () => {
    const env = { TANDEM_PROVIDER_CONCURRENCY: "2" };
    const first = await enterModelCall("limited", undefined, env);
    const second = await enterModelCall("limited", undefined, env);
    const admitted: number[] = [];
    const third = enterModelCall("limited", undefined, env).then((release) => {
      admitted.push(3);
      return release;
    });
    const fourth = enterModelCall("limited", undefined, env).then((release) => {
      admitted.push(4);
      return release;
    });
    await Promise.resolve();
    expect(modelCallsInFlight().byProvider.limited).toBe(2);
    expect(modelCallsInFlight().queuedByProvider).toEqual({ limited: 2 });
    first.release();
    const releaseThird = await third;
    expect(admitted).toEqual([3]);
    expect(modelCallsInFlight().byProvider.limited).toBe(2);
    expect(modelCallsInFlight().queuedByProvider).toEqual({ limited: 1 });
    second.release();
    (await fourth).release();
    releaseThird.release();
    expect(admitted).toEqual([3, 4]);
    expect(modelCallsInFlight().byProvider.limited).toBeUndefined();
    expect(modelCallsInFlight().queuedByProvider).toEqual({});
  });

  it("follows a raised setting at once when no 429 lowered the limit", async () => {
    const low = { TANDEM_PROVIDER_CONCURRENCY: "2" };
    for (const ticket of [
      await enterModelCall("raised", undefined, low),
      await enterModelCall("raised", undefined, low),
    ])
      ticket.release();
    const high = { TANDEM_PROVIDER_CONCURRENCY: "5" };
    const tickets = [];
    for (let call = 0; call < 5; call++) tickets.push(enterModelCall("raised", undefined, high));
    await Promise.resolve();
    expect(modelCallsInFlight().byProvider.raised).toBe(5);
    expect(modelCallsInFlight().queuedByProvider).toEqual({});
    for (const ticket of await Promise.all(tickets)) ticket.release();
  });

  it("leaves the queue when the call is aborted while waiting", async () => {
    const env = { TANDEM_PROVIDER_CONCURRENCY_LIMITED_ONE: "1" };
    const held = await enterModelCall("limited-one", undefined, env);
    const controller = new AbortController();
    const waiting = enterModelCall("limited-one", controller.signal, env);
    await Promise.resolve();
    expect(modelCallsInFlight().queuedByProvider).toEqual({ "limited-one": 1 });
    controller.abort(new Error("stopped"));
    await expect(waiting).rejects.toThrow("stopped");
    expect(modelCallsInFlight().queuedByProvider).toEqual({});
    held.release();
    expect(modelCallsInFlight().byProvider["limited-one"]).toBeUndefined();
  });
});

describe("the adaptive limit and the circuit breaker", () => {
  const target = (name: string) => ({ provider: "openai", identity: name, label: `openai at ${name}` });
  const env = { TANDEM_PROVIDER_CONCURRENCY: "8" };

  it("halves the limit on a 429 (once per round), pauses admissions for the provider's wait, and climbs back by 1/limit per success", async () => {
    vi.useFakeTimers();
    try {
      const endpoint = target("aimd.example");
      const tickets = await Promise.all(
        Array.from({ length: 8 }, () => enterModelCall(endpoint, undefined, env, "gpt")),
      );
      // Two 429s of the same round: the limit drops once, 8 → 4.
      tickets[0]!.release("rate_limited", 500);
      tickets[1]!.release("rate_limited", 500);
      let view = modelCallsInFlight().endpoints.find((row) => row.label === "openai at aimd.example")!;
      // … and, with no call back fine yet, the pace drops to half the calls in flight: (7 + 1) / 2, then (6 + 1) / 2.
      expect(view).toMatchObject({
        limit: 4,
        max_limit: 8,
        rate_limited: 2,
        state: "paused",
        in_flight: 6,
        pace_per_second: 3.5,
      });
      for (const ticket of tickets.slice(2)) ticket.release("ok");
      // Paused: a new call to that model queues until the provider's wait is over, though under
      // the limit; another model's call goes at once (rate limits are per model).
      let admitted = false;
      const other = await enterModelCall(endpoint, undefined, env, "another-model");
      other.release("ok");
      // Paced: the six successes came while nothing waited, so the pace is still 3.5 calls/s and the
      // next call goes 1000 / 3.5 ≈ 286 ms after the last.
      let paced = false;
      const second = enterModelCall(endpoint, undefined, env, "another-model").then((ticket) => {
        paced = true;
        return ticket;
      });
      await vi.advanceTimersByTimeAsync(250);
      expect(paced).toBe(false);
      await vi.advanceTimersByTimeAsync(50);
      expect(paced).toBe(true);
      (await second).release("ok");
      const next = enterModelCall(endpoint, undefined, env, "gpt").then((ticket) => {
        admitted = true;
        return ticket;
      });
      await vi.advanceTimersByTimeAsync(100);
      expect(admitted).toBe(false);
      expect(modelCallsInFlight().queuedByProvider).toEqual({ openai: 1 });
      await vi.advanceTimersByTimeAsync(200);
      expect(admitted).toBe(true);
      (await next).release("ok");
      view = modelCallsInFlight().endpoints.find((row) => row.label === "openai at aimd.example")!;
      // 1/limit per success after the drop: four of 1/4, then five of 1/5: 9 successes → 6.
      expect(view.limit).toBe(6);
      expect(view.state).toBe("ok");
    } finally {
      vi.useRealTimers();
    }
  });

  it("opens the breaker after repeated outages, lets one probe through once it has cooled down, and closes on success", async () => {
    const endpoint = target("down.example");
    const breaker = { failures: 3, openMs: 10_000 };
    for (let failure = 0; failure < 3; failure++) {
      expect(providerUnavailableForMs(endpoint, "m", breaker)).toBe(0);
      (await enterModelCall(endpoint, undefined, {}, "m")).release("unavailable", undefined, breaker);
    }
    const now = Date.now();
    expect(providerUnavailableForMs(endpoint, "m", breaker, now)).toBeGreaterThan(9_000);
    // Another model at the same endpoint has its own breaker: still closed.
    expect(providerUnavailableForMs(endpoint, "another", breaker, now)).toBe(0);
    expect(modelCallsInFlight().endpoints.find((row) => row.label === "openai at down.example")?.state).toBe(
      "unavailable",
    );
    // Cooled down: one probe goes, the others wait on it.
    expect(providerUnavailableForMs(endpoint, "m", breaker, now + 10_001)).toBe(0);
    expect(providerUnavailableForMs(endpoint, "m", breaker, now + 10_002)).toBe(1000);
    (await enterModelCall(endpoint, undefined, {}, "m")).release("ok", undefined, breaker);
    expect(providerUnavailableForMs(endpoint, "m", breaker)).toBe(0);
  });
});

describe("providerConcurrency", () => {
  it("defaults to 1,024, takes the global setting and a per-provider override, and rejects bad values", () => {
    expect(providerConcurrency("openai", {})).toBe(1024);
    expect(providerConcurrency("openai", { TANDEM_PROVIDER_CONCURRENCY: "40" })).toBe(40);
    expect(providerConcurrencyVariable("openai-compatible")).toBe(
      "TANDEM_PROVIDER_CONCURRENCY_OPENAI_COMPATIBLE",
    );
    expect(
      providerConcurrency("openai-compatible", {
        TANDEM_PROVIDER_CONCURRENCY: "40",
        TANDEM_PROVIDER_CONCURRENCY_OPENAI_COMPATIBLE: "3",
      }),
    ).toBe(3);
    expect(() => providerConcurrency("openai", { TANDEM_PROVIDER_CONCURRENCY: "0" })).toThrow(
      'TANDEM_PROVIDER_CONCURRENCY must be a whole number ≥ 1; got "0".',
    );
    expect(() => providerConcurrency("openai", { TANDEM_PROVIDER_CONCURRENCY_OPENAI: "lots" })).toThrow(
      "TANDEM_PROVIDER_CONCURRENCY_OPENAI",
    );
  });
});
