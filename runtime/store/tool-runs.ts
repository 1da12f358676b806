// The tool_runs log: each tool call a step ran, with its arguments, status, result and timing,
// written deferred in the step's transaction (sent with its next statement).
import { randomUUID } from "node:crypto";
import type { SqlExecutor } from "@/lib/db/sql-client";
import { nowMicroseconds } from "./thread-row";

/** One call's run as its row stores it. */
export interface ToolRun {
  toolCallId: string;
  name: string;
  args: unknown;
  status: string;
  result: string;
  /** When the call started (microseconds); it finishes as it is logged. */
  startedAt: number;
}

const COLUMNS =
  "id, thread_id, tool_call_id, name, args, status, result, started_at, finished_at, project_id";

/** One call's run, deferred. */
export function insertToolRunDeferred(
  tx: SqlExecutor,
  /** The step's thread row: the run names its project (the dashboard reads by it). */
  thread: { id: string; project_id: string },
  run: ToolRun,
): Promise<void> {
  return tx.defer(
    `INSERT INTO tool_runs (${COLUMNS})
             VALUES ($1, $2, $3, $4, $5::text::jsonb, $6, $7, $8, $9, $10)`,
    [
      randomUUID(),
      thread.id,
      run.toolCallId,
      run.name,
      JSON.stringify(run.args ?? null),
      run.status,
      run.result,
      run.startedAt,
      nowMicroseconds(),
      thread.project_id,
    ],
  );
}

/** The runs of several calls in one deferred statement (none: no statement). */
export async function insertToolRunsDeferred(
  tx: SqlExecutor,
  thread: { id: string; project_id: string },
  runs: readonly ToolRun[],
): Promise<void> {
  if (runs.length === 0) return;
  const finishedAt = nowMicroseconds();
  const values: unknown[] = [];
  const rows = runs.map((run, index) => {
    values.push(
      randomUUID(),
      thread.id,
      run.toolCallId,
      run.name,
      JSON.stringify(run.args ?? null),
      run.status,
      run.result,
      run.startedAt,
      finishedAt,
      thread.project_id,
    );
    const p = (offset: number) => `$${index * 10 + offset}`;
    return `(${p(1)}, ${p(2)}, ${p(3)}, ${p(4)}, ${p(5)}::text::jsonb, ${p(6)}, ${p(7)}, ${p(8)}, ${p(9)}, ${p(10)})`;
  });
  await tx.defer(`INSERT INTO tool_runs (${COLUMNS})\n     VALUES ${rows.join(", ")}`, values as never[]);
}
