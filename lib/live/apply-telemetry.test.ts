// Pins what each telemetry kind does to a thread's facts (step, model, waits, errors, tools, stop, handoffs) and what it leaves alone.
import { describe, expect, it } from "vitest";
import { EventScript, stateFromFrames, T0, uuid } from "../../test/support/live-support";
import { applyTelemetry } from "./apply-telemetry";
import { initialLiveState } from "./reducer";
import { selectTelemetry } from "./selectors";
import { EMPTY_TELEMETRY } from "./state";

const ROOT = uuid("telemetry-root");
const OTHER = uuid("telemetry-other");

/** The facts of ROOT after these telemetry records, each one µs after the last. */
function factsAfter(...records: Record<string, unknown>[]) {
  const script = new EventScript();
  for (const [index, record] of records.entries()) script.telemetry(ROOT, record, T0 + index);
  return selectTelemetry(stateFromFrames(ROOT, script.frames), ROOT);
}

const wait = {
  type: "model_wait",
  model: "m1",
  provider: "openai (api.openai.com)",
  reason: "rate_limited",
  attempt: 1,
  delay_ms: 2000,
};

describe("telemetry facts", () => {
  it("starts empty", () => {
    expect(EMPTY_TELEMETRY).toEqual({
      step: null,
      model: null,
      lastLatencyMs: null,
      modelErrors: 0,
      lastModelError: null,
      fallbacks: 0,
      lastTool: null,
      stop: null,
      handoffs: [],
      modelWait: null,
    });
    expect(selectTelemetry(initialLiveState(ROOT), ROOT)).toEqual(EMPTY_TELEMETRY);
  });

  it("keeps the latest step with its side and time", () => {
    expect(
      factsAfter({ type: "step_started", step: 1, side: "a" }, { type: "step_started", step: 2, side: "b" })
        .step,
    ).toEqual({ number: 2, side: "b", at: T0 + 1 });
  });

  it("records a wait on the provider, and clears it at the next request, response or stop", () => {
    expect(factsAfter(wait).modelWait).toEqual({
      reason: "rate_limited",
      provider: "openai (api.openai.com)",
      model: "m1",
      at: T0,
      delayMs: 2000,
    });
    expect(factsAfter(wait, { type: "llm_request", model: "m1", attempt: 2 })).toMatchObject({
      model: "m1",
      modelWait: null,
    });
    expect(
      factsAfter({ type: "llm_request", model: "m0", attempt: 0 }, wait, {
        type: "llm_request",
        model: "m2",
        attempt: 2,
      }),
    ).toMatchObject({
      model: "m2",
      modelWait: null,
    });
    expect(factsAfter(wait, { type: "llm_response", model: "m1", tokens: 5, latency: 820 })).toMatchObject({
      model: "m1",
      lastLatencyMs: 820,
      modelWait: null,
    });
    expect(factsAfter(wait, { type: "stopped", reason: "error", side: "a" })).toMatchObject({
      stop: { reason: "error", side: "a", at: T0 + 1 },
      modelWait: null,
    });
  });

  it("follows the model of each request", () => {
    expect(factsAfter({ type: "llm_request", model: "m1", attempt: 0 }).model).toBe("m1");
    expect(
      factsAfter(
        { type: "llm_request", model: "m1", attempt: 0 },
        { type: "llm_request", model: "m2", attempt: 0 },
      ).model,
    ).toBe("m2");
  });

  it("counts model errors and fallbacks, keeping the last error and the model fallen back to", () => {
    expect(
      factsAfter(
        { type: "llm_error", model: "m1", attempt: 0, error: "timeout" },
        { type: "llm_error", model: "m1", attempt: 1, error: "rate limited" },
        { type: "fallback_triggered", from: "m1", to: "m2" },
        { type: "fallback_triggered", from: "m2", to: "m3" },
      ),
    ).toMatchObject({ modelErrors: 2, lastModelError: "rate limited", fallbacks: 2, model: "m3" });
  });

  it("keeps the last tool, running (no status) until it completes", () => {
    expect(factsAfter({ type: "tool_started", tool: "search" }).lastTool).toEqual({
      name: "search",
      status: null,
    });
    expect(
      factsAfter(
        { type: "tool_started", tool: "search" },
        { type: "tool_completed", tool: "search", status: "error" },
      ).lastTool,
    ).toEqual({ name: "search", status: "error" });
  });

  it("keeps a stop without a side as null", () => {
    expect(factsAfter({ type: "stopped", reason: "maxSteps" }).stop).toEqual({
      reason: "maxSteps",
      side: null,
      at: T0,
    });
  });

  it("lists every handoff in order", () => {
    expect(
      factsAfter(
        { type: "agent_handoff", new_agent_id: "writer", new_agent_title: "Writer" },
        { type: "agent_handoff", new_agent_id: "editor" },
      ).handoffs,
    ).toEqual([
      { toAgentId: "writer", toAgentTitle: "Writer", at: T0 },
      { toAgentId: "editor", toAgentTitle: null, at: T0 + 1 },
    ]);
  });

  it("keeps facts per thread", () => {
    const script = new EventScript();
    script.telemetry(ROOT, { type: "llm_error", model: "m1", attempt: 0, error: "x" });
    script.telemetry(OTHER, { type: "tool_started", tool: "t" });
    const state = stateFromFrames(ROOT, script.frames);
    expect(selectTelemetry(state, ROOT)).toMatchObject({ modelErrors: 1, lastTool: null });
    expect(selectTelemetry(state, OTHER)).toMatchObject({
      modelErrors: 0,
      lastTool: { name: "t", status: null },
    });
  });

  it("answers the very same state when a record changes no fact", () => {
    const state = stateFromFrames(
      ROOT,
      (() => {
        const script = new EventScript();
        script.telemetry(ROOT, { type: "llm_request", model: "m1", attempt: 0 });
        return script.frames;
      })(),
    );
    expect(applyTelemetry(state, ROOT, T0, { type: "step_completed", step: 1, side: "a" })).toBe(state);
    expect(applyTelemetry(state, ROOT, T0, { type: "other", name: "cache_hit" })).toBe(state);
    expect(applyTelemetry(state, ROOT, T0, { type: "llm_request", model: "m1", attempt: 1 })).toBe(state);
    expect(applyTelemetry(state, ROOT, T0, { type: "llm_request", model: "m2", attempt: 1 })).not.toBe(state);
  });
});
