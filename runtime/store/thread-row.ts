// The thread row as the runtime reads it, and its public API shape (API.md `thread`).
import { THREAD_STATUSES, type ThreadStatus, type ThreadViewWire } from "@/lib/contracts/thread";
import { type ExecutionState, ExecutionStateSchema, initialExecutionState } from "./messages";

export { THREAD_STATUSES, type ThreadStatus };

export interface ThreadRow {
  id: string;
  project_id: string;
  project_version: number;
  agent_name: string;
  parent_id: string | null;
  root_id: string;
  depth: number;
  name: string | null;
  status: ThreadStatus;
  status_text: string | null;
  terminated_at: number | null;
  user_stopped: boolean;
  /** The last message seq handed out (bumped by every message insert, update and delete). */
  message_seq: number;
  execution: ExecutionState;
  env: Record<string, string>;
  /** Runtime-only values handed down by a parent (scopedEnv, bootstrap values); never shown to a model. */
  scoped_env: Record<string, string>;
  result: string | null;
  failure: string | null;
  stop_reason: string | null;
  input_tokens: number;
  output_tokens: number;
  cost_usd: number;
  runnable: boolean;
  lease_owner: string | null;
  created_at: number;
  updated_at: number;
  /** When it last stopped working (a trigger keeps it: migration `finished_at`); null while it works. */
  finished_at: number | null;
  /** The thread this one is a fork copy of, and the message of it the fork was made at (null for a copied child). */
  forked_from_thread_id: string | null;
  forked_from_message_id: string | null;
}

export const THREAD_COLUMNS = `id, project_id, project_version, agent_name, parent_id, root_id, depth, name, status,
  status_text, terminated_at, user_stopped, message_seq, execution, env, scoped_env, result, failure, stop_reason, input_tokens, output_tokens,
  cost_usd, runnable, lease_owner, created_at, updated_at, finished_at, forked_from_thread_id, forked_from_message_id`;

/** Postgres returns BIGINT as strings (and JSON as objects or strings, by driver): normalise both. */
export function toThreadRow(raw: Record<string, unknown>): ThreadRow {
  const json = (value: unknown) => (typeof value === "string" ? JSON.parse(value) : value);
  const parsedExecution = ExecutionStateSchema.safeParse(json(raw.execution));
  return {
    ...(raw as unknown as ThreadRow),
    terminated_at:
      raw.terminated_at === null || raw.terminated_at === undefined ? null : Number(raw.terminated_at),
    execution: parsedExecution.success ? parsedExecution.data : initialExecutionState(),
    env: (json(raw.env) ?? {}) as Record<string, string>,
    scoped_env: (json(raw.scoped_env) ?? {}) as Record<string, string>,
    message_seq: Number(raw.message_seq ?? 0),
    input_tokens: Number(raw.input_tokens ?? 0),
    output_tokens: Number(raw.output_tokens ?? 0),
    cost_usd: Number(raw.cost_usd ?? 0),
    created_at: Number(raw.created_at),
    updated_at: Number(raw.updated_at),
    finished_at: raw.finished_at === null || raw.finished_at === undefined ? null : Number(raw.finished_at),
    forked_from_thread_id: (raw.forked_from_thread_id as string | null | undefined) ?? null,
    forked_from_message_id: (raw.forked_from_message_id as string | null | undefined) ?? null,
  };
}

/** The API shape (lib/contracts/thread.ts), with the children the thread endpoint nests in it. */
export type ThreadView = ThreadViewWire & { children: unknown[] };

export function toThreadView(row: ThreadRow, children: unknown[] = []): ThreadView {
  return {
    id: row.id,
    project_id: row.project_id,
    version: row.project_version,
    agent_id: row.agent_name,
    parent_id: row.parent_id,
    root_id: row.root_id,
    depth: row.depth,
    name: row.name,
    status: row.status,
    status_text: row.status_text,
    stop_reason: row.stop_reason,
    terminated: row.terminated_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
    finished_at: row.finished_at,
    children,
    result: row.result,
    failure: row.failure,
    usage: { input_tokens: row.input_tokens, output_tokens: row.output_tokens, cost_usd: row.cost_usd },
    forked_from: row.forked_from_thread_id
      ? { thread_id: row.forked_from_thread_id, message_id: row.forked_from_message_id }
      : null,
  };
}

/**
 * `toThreadView` in SQL, of the thread columns under `alias` (a statement that writes a thread's
 * event in the same statement as its change, `threadEventBatchSql`). Keep the two in step:
 * runtime/store/thread-lifecycle.integration.test.ts compares them field by field.
 */
export function threadViewSql(alias: string): string {
  const column = (name: string) => `${alias}.${name}`;
  return `json_build_object(
    'id', ${column("id")}, 'project_id', ${column("project_id")}, 'version', ${column("project_version")},
    'agent_id', ${column("agent_name")}, 'parent_id', ${column("parent_id")}, 'root_id', ${column("root_id")},
    'depth', ${column("depth")}, 'name', ${column("name")}, 'status', ${column("status")},
    'status_text', ${column("status_text")}, 'stop_reason', ${column("stop_reason")},
    'terminated', ${column("terminated_at")}, 'created_at', ${column("created_at")},
    'updated_at', ${column("updated_at")}, 'finished_at', ${column("finished_at")}, 'children', json_build_array(), 'result', ${column("result")},
    'failure', ${column("failure")},
    'usage', json_build_object('input_tokens', ${column("input_tokens")}, 'output_tokens', ${column("output_tokens")},
      'cost_usd', ${column("cost_usd")}),
    'forked_from', CASE WHEN ${column("forked_from_thread_id")} IS NULL THEN NULL
      ELSE json_build_object('thread_id', ${column("forked_from_thread_id")}, 'message_id', ${column("forked_from_message_id")}) END)`;
}

export const nowMicroseconds = (): number => Date.now() * 1000;

/** At work: `finished_at` is null in these statuses (the `tandem_track_finish` trigger, migration `finished_at`). */
const WORKING_STATUSES: ReadonlySet<ThreadStatus> = new Set(["queued", "running", "waiting_approval"]);

/**
 * `finished_at` after a write of `status` at `now`, as the trigger sets it (for a row computed without
 * reading it back, `withThreadChanges`): cleared at work, `now` when the write ends work, else as it was.
 */
export function finishedAtAfter(row: ThreadRow, status: ThreadStatus, now: number): number | null {
  if (status === row.status) return row.finished_at;
  if (WORKING_STATUSES.has(status)) return null;
  return WORKING_STATUSES.has(row.status) ? now : row.finished_at;
}
