// Replay's model answer (docs/runtime.md "Replay"): in a thread of a replayed tree
// (`execution.replayOf` names the source thread), the k-th model call of a side is answered from the
// source's k-th recorded call of that side when the request still matches the recorded one (ids
// aside, lib/runs/replay-match.ts) and asks the same model. The first call that does not match is the
// thread's divergence: recorded once (thread_replays.divergence) with a `divergence` event on the
// root's stream, and from then on the real model answers every call of that thread.

import type { DivergenceWire } from "@/lib/contracts/replay";
import { compareRequests, type RequestDifference } from "@/lib/runs/replay-match";
import type { ModelCallResult, ModelToolCall, ModelUsage } from "../../models/types";
import { appendEvents } from "../../store/event-log";
import type { Side } from "../../store/messages";
import { type RecordedCall, recordedCallsOf } from "../../store/model-calls";
import { recordDivergenceOnce, replayCallState, replayPairsOf } from "../../store/replay-progress";
import { nowMicroseconds, type ThreadRow } from "../../store/thread-row";
import type { StepContext } from "./types";

export type ReplayAnswer =
  /** The recording answers: the result it stored, and the recorded call's id. */
  | { kind: "recorded"; result: ModelCallResult; sourceCallId: string }
  /** The recorded call failed: the replay fails the same way. */
  | { kind: "recorded_failure"; error: string; sourceCallId: string }
  /** Ask the real model (the thread diverged, now or earlier); `divergence` when it diverged now. */
  | { kind: "live"; divergence?: DivergenceWire };

const json = (value: unknown) => (typeof value === "string" ? JSON.parse(value) : value);

/** How a replayed thread's next model call is answered; live for every thread that is not a replay. */
export async function replayAnswer(
  ctx: StepContext,
  row: ThreadRow,
  side: Side,
  modelName: string,
  request: { messages: unknown[]; tools: unknown[] },
): Promise<ReplayAnswer> {
  const sourceId = row.execution.replayOf;
  if (!sourceId) return { kind: "live" };
  const state = await replayCallState(ctx.db, row.id, side);
  if (!state || state.diverged) return { kind: "live" };
  const callIndex = state.made;
  const recording = await ctx.memory.replayRecordings.covering(sourceId, side, callIndex, () =>
    recordedCallsOf(ctx.db, sourceId, side),
  );
  const call = recording.calls[callIndex];
  const diverge = (reason: DivergenceWire["reason"], difference: RequestDifference | null) =>
    recordDivergence(ctx, row, {
      thread_id: row.id,
      source_thread_id: sourceId,
      agent_id: row.agent_name,
      thread_name: row.name,
      side,
      call_index: callIndex,
      model: modelName,
      reason,
      path: difference?.path ?? null,
      ...(difference ? { recorded: difference.recorded, replayed: difference.replayed } : {}),
      at: nowMicroseconds(),
    });
  const live = (divergence: DivergenceWire | null): ReplayAnswer =>
    divergence ? { kind: "live", divergence } : { kind: "live" };
  if (!call) return live(await diverge("no_recording", null));
  if (call.model_name !== modelName)
    return live(
      await diverge("model_changed", { path: "model", recorded: call.model_name, replayed: modelName }),
    );
  const difference = compareRequests(recording.request(call.id), request);
  if (difference) return live(await diverge("request_changed", difference));
  if (call.error !== null) return { kind: "recorded_failure", error: call.error, sourceCallId: call.id };
  const response = (await inReplayIds(ctx, row.root_id, json(call.response) ?? {})) as RecordedResponse;
  return { kind: "recorded", sourceCallId: call.id, result: recordedResult(call, response) };
}

/** A recorded call's response, its ids already those of the replayed tree (`inReplayIds`). */
interface RecordedResponse {
  text?: string;
  toolCalls?: ModelToolCall[];
  usage?: ModelUsage;
}

/** The model call's result as the recording answers it. */
function recordedResult(call: RecordedCall, response: RecordedResponse): ModelCallResult {
  return {
    text: response.text ?? "",
    toolCalls: response.toolCalls ?? [],
    usage: response.usage ?? { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0 },
    // Nothing was spent: no provider was called.
    costUsd: 0,
    modelName: call.answered_by ?? call.model_name,
    providerModelId: call.provider_model_id ?? "",
    provider: "replay",
    latencyMs: 0,
  };
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
const HAS_UUID = new RegExp(UUID.source, "i");

/**
 * A recorded response names the source tree's threads (a reply that quotes a child's reference, a
 * call that messages a child): those ids become the replay's own threads that follow them.
 */
async function inReplayIds(ctx: StepContext, rootId: string, response: unknown): Promise<unknown> {
  const text = JSON.stringify(response);
  if (!HAS_UUID.test(text)) return response;
  const rows = await replayPairsOf(ctx.db, rootId);
  const replayIdOf = new Map(
    rows.map((entry) => [String(entry.source_thread_id).toLowerCase(), String(entry.thread_id)]),
  );
  return JSON.parse(text.replace(UUID, (id) => replayIdOf.get(id.toLowerCase()) ?? id));
}

/**
 * Records the thread's first divergence (once: a re-run step finds it set) and tells the root's
 * stream; returns it when this call recorded it (its `chat` span carries it), else null.
 */
async function recordDivergence(
  ctx: StepContext,
  row: ThreadRow,
  divergence: DivergenceWire,
): Promise<DivergenceWire | null> {
  return ctx.db.transaction(async (tx) => {
    if (!(await recordDivergenceOnce(tx, row.id, divergence))) return null;
    await appendEvents(tx, [
      { rootId: row.root_id, threadId: row.id, type: "divergence", data: { thread_id: row.id, divergence } },
    ]);
    return divergence;
  });
}
