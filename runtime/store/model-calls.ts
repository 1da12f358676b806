// The model_calls log, as a step writes and reads it: one call logged (deferred, it goes out with
// the step's next statement), how many successful calls a side made with a model, and a replay
// source's recorded calls of a side.
import type { SqlExecutor } from "@/lib/db/sql-client";

/** One model call as its row stores it; `request` is already encoded (runtime/engine/request-log.ts). */
export interface ModelCallRow {
  id: string;
  threadId: string;
  side: string;
  modelName: string;
  /** The model that answered (a fallback's, or the recording's); null when the call failed. */
  answeredBy: string | null;
  providerModelId: string | null;
  /** The stored request (JSON text). */
  request: string;
  /** The reply's text, tool calls and usage (JSON text); null when the call failed. */
  response: string | null;
  error: string | null;
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
  latencyMs: number;
  /** When the call started (microseconds). */
  createdAt: number;
  /** In a replay: the recorded call that answered this one. */
  replayedFrom: string | null;
  projectId: string;
  agentName: string;
}

/** Logs one model call in the transaction, deferred (sent with the transaction's next statement). */
export function insertModelCallDeferred(tx: SqlExecutor, call: ModelCallRow): Promise<void> {
  return tx.defer(
    `INSERT INTO model_calls (id, thread_id, side, model_name, answered_by, provider_model_id, request, response, error,
         input_tokens, output_tokens, cost_usd, latency_ms, created_at, replayed_from, project_id, agent_name)
       VALUES ($1, $2, $3, $4, $5, $6, $7::text::json, $8::text::json, $9, $10, $11, $12, $13, $14, $15, $16, $17)`,
    [
      call.id,
      call.threadId,
      call.side,
      call.modelName,
      call.answeredBy,
      call.providerModelId,
      call.request,
      call.response,
      call.error,
      call.inputTokens,
      call.outputTokens,
      call.costUsd,
      call.latencyMs,
      call.createdAt,
      call.replayedFrom,
      call.projectId,
      call.agentName,
    ],
  );
}

/** Successful calls the thread's side made with the model (the copied ones of a fork not included). */
export async function countSuccessfulModelCalls(
  db: SqlExecutor,
  threadId: string,
  side: string,
  modelName: string,
): Promise<number> {
  const rows = await db.query<{ count: number }>(
    "SELECT count(*)::int AS count FROM model_calls WHERE thread_id = $1 AND side = $2 AND model_name = $3 AND error IS NULL",
    [threadId, side, modelName],
  );
  return Number(rows[0]?.count ?? 0);
}

/** A recorded model call of a replay's source, as the replay answers from it. */
export interface RecordedCall {
  id: string;
  model_name: string;
  answered_by: string | null;
  provider_model_id: string | null;
  request: unknown;
  response: unknown;
  error: string | null;
  latency_ms: number;
}

/** The recorded calls of a thread's side, in the order they were made. */
export function recordedCallsOf(db: SqlExecutor, threadId: string, side: string): Promise<RecordedCall[]> {
  return db.query<RecordedCall>(
    `SELECT id, model_name, answered_by, provider_model_id, request, response, error, latency_ms
       FROM model_calls WHERE thread_id = $1 AND side = $2 ORDER BY created_at, id`,
    [threadId, side],
  );
}
