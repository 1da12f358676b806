import { describe, expect, it } from "vitest";
import { beginModelCall, modelCallsInFlight } from "./in-flight";

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
});
