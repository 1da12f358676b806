// The live-view reducer: one pure step from a state and an event to the next state, shared by the
// browser's SSE hook and the tests. Persisted events carry increasing log ids; one at or below the
// last applied id is a replay (a reconnect, a duplicate delivery) and is ignored, which makes the
// stream idempotent. Id-less events (token chunks, local snapshots) are applied as they come.
import { applyApproval, applyDivergence } from "./apply-approval";
import { applyChunk, applyMessage } from "./apply-message";
import { applyRegistry } from "./apply-registry";
import { applyTelemetry } from "./apply-telemetry";
import { applyThread } from "./apply-thread";
import { type LiveEvent, type LiveEventError, parseSseFrame, type SseFrame } from "./events";
import { type LiveState, MAX_PROBLEMS } from "./state";

export { initialLiveState } from "./state";

export function applyLiveEvent(state: LiveState, event: LiveEvent): LiveState {
  if (event.id !== null && event.id <= state.lastEventId) return state;
  const next = applyPayload(state, event);
  return event.id === null ? next : { ...next, lastEventId: event.id };
}

function applyPayload(state: LiveState, event: LiveEvent): LiveState {
  switch (event.type) {
    case "thread":
      return applyThread(state, event.thread);
    case "message":
      return applyMessage(state, event.threadId, event.message);
    case "message_chunk":
      return applyChunk(state, event.threadId, event.messageId, event.chunk, event.side);
    case "registry":
      return applyRegistry(state, event);
    case "telemetry":
      return applyTelemetry(state, event.threadId, event.timestamp, event.telemetry);
    case "approval":
      return applyApproval(state, event.approval);
    case "divergence":
      return applyDivergence(state, event.divergence);
  }
}

export function applyLiveEvents(state: LiveState, events: Iterable<LiveEvent>): LiveState {
  let next = state;
  for (const event of events) next = applyLiveEvent(next, event);
  return next;
}

/**
 * Records a malformed event so the UI can show it. Its id still moves the resume cursor: asking
 * the server for it again after a reconnect would only bring back the same bad event.
 */
export function recordProblem(state: LiveState, problem: LiveEventError): LiveState {
  if (problem.id !== null && problem.id <= state.lastEventId) return state;
  return {
    ...state,
    problems: [...state.problems.slice(-(MAX_PROBLEMS - 1)), problem],
    lastEventId: problem.id === null ? state.lastEventId : problem.id,
  };
}

/** Parses one SSE frame and applies it, or records why it could not be read. Never throws. */
export function applySseFrame(state: LiveState, frame: SseFrame): LiveState {
  const parsed = parseSseFrame(frame);
  return parsed.ok ? applyLiveEvent(state, parsed.event) : recordProblem(state, parsed.error);
}
