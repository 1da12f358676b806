import { describe, expect, it } from "vitest";
import { beginModelCall, enterModelCall, modelCallsInFlight } from "./in-flight";
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
    first();
    const releaseThird = await third;
    expect(admitted).toEqual([3]);
    expect(modelCallsInFlight().byProvider.limited).toBe(2);
    expect(modelCallsInFlight().queuedByProvider).toEqual({ limited: 1 });
    second();
    (await fourth)();
    releaseThird();
    expect(admitted).toEqual([3, 4]);
    expect(modelCallsInFlight().byProvider.limited).toBeUndefined();
    expect(modelCallsInFlight().queuedByProvider).toEqual({});
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
    held();
    expect(modelCallsInFlight().byProvider["limited-one"]).toBeUndefined();
  });
});

describe("providerConcurrency", () => {
  it("defaults to 256, takes the global setting and a per-provider override, and rejects bad values", () => {
    expect(providerConcurrency("openai", {})).toBe(256);
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
