// Applies `telemetry` events to the per-thread facts the live view shows (current step, model,
// errors, fallbacks, a wait on the provider, last tool, stop reason, handoffs). Unknown kinds leave the state untouched.
import type { Telemetry } from "./events";
import { getEntry, setEntry } from "./persistent-map";
import { EMPTY_TELEMETRY, type LiveState, type ThreadTelemetry } from "./state";

export function applyTelemetry(
  state: LiveState,
  threadId: string,
  timestamp: number,
  telemetry: Telemetry,
): LiveState {
  const current = getEntry(state.telemetry, threadId) ?? EMPTY_TELEMETRY;
  const next = nextTelemetry(current, timestamp, telemetry);
  if (next === current) return state;
  return { ...state, telemetry: setEntry(state.telemetry, threadId, next) };
}

function nextTelemetry(facts: ThreadTelemetry, at: number, telemetry: Telemetry): ThreadTelemetry {
  switch (telemetry.type) {
    case "step_started":
      return { ...facts, step: { number: telemetry.step, side: telemetry.side, at } };
    case "llm_request":
      if (facts.modelWait !== null) return { ...facts, model: telemetry.model, modelWait: null };
      return facts.model === telemetry.model ? facts : { ...facts, model: telemetry.model };
    case "llm_response":
      return { ...facts, model: telemetry.model, lastLatencyMs: telemetry.latency, modelWait: null };
    case "model_wait": {
      const { reason, provider, model, delay_ms: delayMs } = telemetry;
      return { ...facts, modelWait: { reason, provider, model, at, delayMs } };
    }
    case "llm_error":
      return { ...facts, modelErrors: facts.modelErrors + 1, lastModelError: telemetry.error };
    case "fallback_triggered":
      return { ...facts, fallbacks: facts.fallbacks + 1, model: telemetry.to };
    case "tool_started":
      return { ...facts, lastTool: { name: telemetry.tool, status: null } };
    case "tool_completed":
      return { ...facts, lastTool: { name: telemetry.tool, status: telemetry.status } };
    case "stopped":
      return { ...facts, stop: { reason: telemetry.reason, side: telemetry.side, at }, modelWait: null };
    case "agent_handoff": {
      const handoff = { toAgentId: telemetry.new_agent_id, toAgentTitle: telemetry.new_agent_title, at };
      return { ...facts, handoffs: [...facts.handoffs, handoff] };
    }
    case "step_completed":
    case "other":
      return facts;
  }
}
