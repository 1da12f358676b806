// The trace context of each thread's current run (table `thread_traces`, docs/observability.md):
// written only while traces are exported, so that the process that runs a step, or ends the run,
// whichever it is, continues the run's trace. One row per thread; a new run of the thread (a new
// message after it went idle) replaces the row's span.
import type { SqlExecutor } from "@/lib/db/sql-client";

/** A run's trace: its trace, the span it hangs under (null: the trace's root) and its own span. */
export interface RunTrace {
  traceId: string;
  parentSpanId: string | null;
  spanId: string;
  /** Milliseconds since the epoch. */
  startedAt: number;
  ended: boolean;
}

function toRunTrace(raw: Record<string, unknown>): RunTrace {
  return {
    traceId: String(raw.trace_id),
    parentSpanId: (raw.parent_span_id as string | null) ?? null,
    spanId: String(raw.span_id),
    startedAt: Number(raw.started_at),
    ended: raw.ended === true,
  };
}

/** A run about to start: what `runTraceInsert` and `startRunTrace` store. */
export interface RunTraceStart {
  traceId: string;
  parentSpanId: string | null;
  spanId: string;
  startedAt: number;
}

/** The row of a new thread's first run, as a statement for the thread's creating transaction. */
export function runTraceInsert(
  threadId: string,
  run: RunTraceStart,
): { text: string; params: [string, string, string | null, string, string] } {
  return {
    text: `INSERT INTO thread_traces (thread_id, trace_id, parent_span_id, span_id, started_at)
           VALUES ($1::uuid, $2, $3, $4, $5::bigint)`,
    params: [threadId, run.traceId, run.parentSpanId, run.spanId, String(run.startedAt)],
  };
}

/** Records a new thread's first run in its creating transaction, sent with the commit (deferred). */
export async function deferRunTraceInsert(
  tx: SqlExecutor,
  threadId: string,
  run: RunTraceStart,
): Promise<void> {
  const statement = runTraceInsert(threadId, run);
  await tx.defer(statement.text, statement.params);
}

export async function findRunTrace(db: SqlExecutor, threadId: string): Promise<RunTrace | null> {
  const rows = await db.query<Record<string, unknown>>(
    "SELECT trace_id, parent_span_id, span_id, started_at, ended FROM thread_traces WHERE thread_id = $1",
    [threadId],
  );
  return rows[0] ? toRunTrace(rows[0]) : null;
}

/**
 * The run new input of a thread belongs to (a message). A run still going keeps its trace and span
 * (the input joins it). Otherwise a new run starts: in the caller's trace under its span when the
 * request carried a `traceparent` (`caller`), else in the thread's trace as a new root span (or in
 * `fresh`'s trace for a thread without a row). Returns the run's trace.
 */
export async function startRunTrace(
  db: SqlExecutor,
  threadId: string,
  caller: { traceId: string; spanId: string } | null,
  fresh: { traceId: string; spanId: string; startedAt: number },
): Promise<RunTrace> {
  const rows = await db.query<Record<string, unknown>>(
    `INSERT INTO thread_traces AS tt (thread_id, trace_id, parent_span_id, span_id, started_at, ended)
     VALUES ($1::uuid, $2, $3, $4, $5::bigint, false)
     ON CONFLICT (thread_id) DO UPDATE SET
       trace_id = CASE WHEN tt.ended AND $6::boolean THEN EXCLUDED.trace_id ELSE tt.trace_id END,
       parent_span_id = CASE WHEN tt.ended THEN EXCLUDED.parent_span_id ELSE tt.parent_span_id END,
       span_id = CASE WHEN tt.ended THEN EXCLUDED.span_id ELSE tt.span_id END,
       started_at = CASE WHEN tt.ended THEN EXCLUDED.started_at ELSE tt.started_at END,
       ended = false
     RETURNING trace_id, parent_span_id, span_id, started_at, ended`,
    [
      threadId,
      caller?.traceId ?? fresh.traceId,
      caller?.spanId ?? null,
      fresh.spanId,
      String(fresh.startedAt),
      caller !== null,
    ],
  );
  return toRunTrace(rows[0]!);
}

/**
 * A new run of a thread whose last run ended without new input announcing it here (a resumed child,
 * a thread woken by its own queue): the same trace and parent, a new span.
 */
export async function restartRunTrace(
  db: SqlExecutor,
  threadId: string,
  spanId: string,
  startedAt: number,
): Promise<RunTrace | null> {
  const rows = await db.query<Record<string, unknown>>(
    `UPDATE thread_traces SET span_id = $2, started_at = $3::bigint, ended = false
     WHERE thread_id = $1::uuid AND ended
     RETURNING trace_id, parent_span_id, span_id, started_at, ended`,
    [threadId, spanId, String(startedAt)],
  );
  return rows[0] ? toRunTrace(rows[0]) : null;
}

/**
 * Children spawned by tool calls of `parentId`, in the parent run's trace, each under the span of
 * the call that spawned it. Nothing when the parent has no trace.
 */
export async function insertChildRunTraces(
  db: SqlExecutor,
  parentId: string,
  children: readonly { threadId: string; parentSpanId: string; spanId: string }[],
  startedAt: number,
): Promise<void> {
  if (children.length === 0) return;
  await db.query(
    `INSERT INTO thread_traces (thread_id, trace_id, parent_span_id, span_id, started_at, ended)
     SELECT child.thread_id, parent.trace_id, child.parent_span_id, child.span_id, $5::bigint, false
     FROM thread_traces parent,
          unnest($2::uuid[], $3::text[], $4::text[]) AS child(thread_id, parent_span_id, span_id)
     WHERE parent.thread_id = $1::uuid
     ON CONFLICT (thread_id) DO NOTHING`,
    [
      parentId,
      children.map((child) => child.threadId),
      children.map((child) => child.parentSpanId),
      children.map((child) => child.spanId),
      String(startedAt),
    ] as never[],
  );
}

/** What ending a run needs to describe it. */
export interface EndedRun extends RunTrace {
  agentName: string;
  rootId: string;
  status: string;
  failure: string | null;
  stopReason: string | null;
}

/**
 * Marks the run `spanId` of the thread ended when the thread no longer works (not queued, running
 * or waiting for an approval); null when it still works or another process ended the run first —
 * so exactly one process writes the run's span.
 */
export async function endRunTrace(
  db: SqlExecutor,
  threadId: string,
  spanId: string,
): Promise<EndedRun | null> {
  const rows = await db.query<Record<string, unknown>>(
    `UPDATE thread_traces tt SET ended = true
     FROM threads t
     WHERE tt.thread_id = $1::uuid AND t.id = tt.thread_id AND tt.span_id = $2 AND NOT tt.ended
       AND t.status NOT IN ('queued', 'running', 'waiting_approval')
     RETURNING tt.trace_id, tt.parent_span_id, tt.span_id, tt.started_at, tt.ended,
       t.agent_name, t.root_id, t.status, t.failure, t.stop_reason`,
    [threadId, spanId],
  );
  const raw = rows[0];
  if (!raw) return null;
  return {
    ...toRunTrace(raw),
    agentName: String(raw.agent_name),
    rootId: String(raw.root_id),
    status: String(raw.status),
    failure: (raw.failure as string | null) ?? null,
    stopReason: (raw.stop_reason as string | null) ?? null,
  };
}

/**
 * `endRunTrace` for several threads at once (a stopped or terminated tree: its members not running
 * a step anywhere never end their runs themselves): each open run of those that no longer work is
 * marked ended, and returned, exactly once across processes.
 */
export async function endSettledRunTraces(
  db: SqlExecutor,
  threadIds: readonly string[],
): Promise<(EndedRun & { threadId: string })[]> {
  if (threadIds.length === 0) return [];
  const rows = await db.query<Record<string, unknown>>(
    `UPDATE thread_traces tt SET ended = true
     FROM threads t
     WHERE tt.thread_id = ANY($1::uuid[]) AND t.id = tt.thread_id AND NOT tt.ended
       AND t.status NOT IN ('queued', 'running', 'waiting_approval')
     RETURNING tt.thread_id, tt.trace_id, tt.parent_span_id, tt.span_id, tt.started_at, tt.ended,
       t.agent_name, t.root_id, t.status, t.failure, t.stop_reason`,
    [threadIds as unknown as string],
  );
  return rows.map((raw) => ({
    ...toRunTrace(raw),
    threadId: String(raw.thread_id),
    agentName: String(raw.agent_name),
    rootId: String(raw.root_id),
    status: String(raw.status),
    failure: (raw.failure as string | null) ?? null,
    stopReason: (raw.stop_reason as string | null) ?? null,
  }));
}
