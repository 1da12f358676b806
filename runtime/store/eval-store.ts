// Evaluations (docs/evals.md): suites and their cases, runs with their plan, progress and lease, and
// one result row per case and repetition. A result row is inserted with the case's thread in one
// transaction and is unique per (run, case, repetition), so a run resumed after a restart finds the
// conversations it already started and never starts one twice; a result is finished by a
// compare-and-set from `running`, so it is counted once.
import type {
  Assertion,
  AssertionResult,
  CaseInput,
  EvalCase,
  EvalCaseResult,
  EvalRunStatus,
  EvalSuite,
  EvalSummary,
} from "@/lib/contracts/evals";
import { LazyTransaction } from "@/lib/db/lazy-transaction";
import type { SqlClient, SqlExecutor } from "@/lib/db/sql-client";
import { appendEvents } from "./event-log";
import { threadEvent } from "./thread-events";
import { createThread } from "./thread-lifecycle";
import { nowMicroseconds, type ThreadRow } from "./thread-row";
import type { NewThread } from "./thread-store";

const json = <T>(value: unknown): T => (typeof value === "string" ? JSON.parse(value) : value) as T;
const numberOrNull = (value: unknown) => (value === null || value === undefined ? null : Number(value));

// ─── Suites ──────────────────────────────────────────────────────────────────────────────────────

export interface SuiteWrite {
  name: string;
  agentId: string;
  assertions: Assertion[];
  cases: {
    id: string;
    name: string;
    input: CaseInput;
    env?: Record<string, string>;
    assertions: Assertion[];
  }[];
}

function toCase(raw: Record<string, unknown>): EvalCase {
  const env = json<Record<string, string>>(raw.env ?? {});
  return {
    id: String(raw.id),
    name: String(raw.name),
    input: json<CaseInput>(raw.input),
    ...(Object.keys(env).length > 0 ? { env } : {}),
    assertions: json<Assertion[]>(raw.assertions ?? []),
  };
}

async function writeCases(tx: SqlExecutor, suiteId: string, cases: SuiteWrite["cases"]): Promise<void> {
  await tx.query("DELETE FROM eval_cases WHERE suite_id = $1", [suiteId]);
  if (cases.length === 0) return;
  await tx.query(
    `INSERT INTO eval_cases (id, suite_id, position, name, input, env, assertions)
     SELECT (c->>'id')::uuid, $1::uuid, (c->>'position')::int, c->>'name', c->'input', c->'env', c->'assertions'
     FROM jsonb_array_elements($2::text::jsonb) AS c`,
    [
      suiteId,
      JSON.stringify(
        cases.map((item, position) => ({
          id: item.id,
          position,
          name: item.name,
          input: item.input,
          env: item.env ?? {},
          assertions: item.assertions,
        })),
      ),
    ],
  );
}

/** Inserts a suite with its cases; false when the project already has a suite of that name. */
export async function insertSuite(
  tx: SqlExecutor,
  id: string,
  projectId: string,
  suite: SuiteWrite,
): Promise<boolean> {
  const now = nowMicroseconds();
  const inserted = await tx.query(
    `INSERT INTO eval_suites (id, project_id, name, agent_id, assertions, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5::text::jsonb, $6, $6)
     ON CONFLICT (project_id, name) DO NOTHING RETURNING id`,
    [id, projectId, suite.name, suite.agentId, JSON.stringify(suite.assertions), now],
  );
  if (inserted.length === 0) return false;
  await writeCases(tx, id, suite.cases);
  return true;
}

/** Replaces a suite's fields and cases; "missing" when it is not the project's, "name_taken" on a clash. */
export async function updateSuite(
  tx: SqlExecutor,
  projectId: string,
  id: string,
  suite: SuiteWrite,
): Promise<"ok" | "missing" | "name_taken"> {
  const [clash] = await tx.query(
    "SELECT id FROM eval_suites WHERE project_id = $1 AND name = $2 AND id <> $3",
    [projectId, suite.name, id],
  );
  if (clash) return "name_taken";
  const updated = await tx.query(
    `UPDATE eval_suites SET name = $3, agent_id = $4, assertions = $5::text::jsonb, updated_at = $6
     WHERE id = $1 AND project_id = $2 RETURNING id`,
    [id, projectId, suite.name, suite.agentId, JSON.stringify(suite.assertions), nowMicroseconds()],
  );
  if (updated.length === 0) return "missing";
  await writeCases(tx, id, suite.cases);
  return "ok";
}

export async function deleteSuite(db: SqlExecutor, projectId: string, id: string): Promise<boolean> {
  const rows = await db.query("DELETE FROM eval_suites WHERE id = $1 AND project_id = $2 RETURNING id", [
    id,
    projectId,
  ]);
  return rows.length > 0;
}

export async function findSuite(db: SqlExecutor, projectId: string, id: string): Promise<EvalSuite | null> {
  const [suite] = await db.query<Record<string, unknown>>(
    "SELECT * FROM eval_suites WHERE id = $1 AND project_id = $2",
    [id, projectId],
  );
  if (!suite) return null;
  const cases = await db.query<Record<string, unknown>>(
    "SELECT * FROM eval_cases WHERE suite_id = $1 ORDER BY position",
    [id],
  );
  return {
    id: String(suite.id),
    project_id: String(suite.project_id),
    name: String(suite.name),
    agent_id: String(suite.agent_id),
    assertions: json<Assertion[]>(suite.assertions ?? []),
    cases: cases.map(toCase),
    created_at: Number(suite.created_at),
    updated_at: Number(suite.updated_at),
  };
}

export async function findSuiteByName(
  db: SqlExecutor,
  projectId: string,
  name: string,
): Promise<{ id: string } | null> {
  const [row] = await db.query<{ id: string }>(
    "SELECT id FROM eval_suites WHERE project_id = $1 AND name = $2",
    [projectId, name],
  );
  return row ? { id: String(row.id) } : null;
}

export interface SuiteListRow {
  id: string;
  name: string;
  agent_id: string;
  cases: number;
  last_run: RunRow | null;
}

export async function listSuites(db: SqlExecutor, projectId: string): Promise<SuiteListRow[]> {
  const rows = await db.query<Record<string, unknown>>(
    `SELECT s.id, s.name, s.agent_id,
            (SELECT count(*) FROM eval_cases c WHERE c.suite_id = s.id) AS cases,
            (SELECT r.id FROM eval_runs r WHERE r.suite_id = s.id ORDER BY r.created_at DESC LIMIT 1) AS last_run_id
     FROM eval_suites s WHERE s.project_id = $1 ORDER BY s.name`,
    [projectId],
  );
  const out: SuiteListRow[] = [];
  for (const row of rows) {
    out.push({
      id: String(row.id),
      name: String(row.name),
      agent_id: String(row.agent_id),
      cases: Number(row.cases),
      last_run: row.last_run_id ? await findRun(db, String(row.last_run_id)) : null,
    });
  }
  return out;
}

// ─── Runs ────────────────────────────────────────────────────────────────────────────────────────

/** What a run was started with: the suite as it was then. */
export interface RunPlan {
  suite_name: string;
  agent_id: string;
  assertions: Assertion[];
  cases: EvalCase[];
}

export interface RunRow {
  id: string;
  suite_id: string;
  project_id: string;
  version: number;
  status: EvalRunStatus;
  repetitions: number;
  concurrency: number;
  plan: RunPlan;
  total: number;
  done: number;
  summary: EvalSummary | null;
  failure: string | null;
  lease_owner: string | null;
  lease_expires_at: number | null;
  created_at: number;
  finished_at: number | null;
}

const RUN_COLUMNS = `r.id, r.suite_id, r.project_id, r.version, r.status, r.repetitions, r.concurrency, r.plan, r.total,
  r.summary, r.failure, r.lease_owner, r.lease_expires_at, r.created_at, r.finished_at,
  (SELECT count(*) FROM eval_results x WHERE x.run_id = r.id AND x.state = 'done') AS done`;

function toRunRow(raw: Record<string, unknown>): RunRow {
  return {
    id: String(raw.id),
    suite_id: String(raw.suite_id),
    project_id: String(raw.project_id),
    version: Number(raw.version),
    status: raw.status as EvalRunStatus,
    repetitions: Number(raw.repetitions),
    concurrency: Number(raw.concurrency),
    plan: json<RunPlan>(raw.plan),
    total: Number(raw.total),
    done: Number(raw.done ?? 0),
    summary: raw.summary === null || raw.summary === undefined ? null : json<EvalSummary>(raw.summary),
    failure: (raw.failure as string | null) ?? null,
    lease_owner: (raw.lease_owner as string | null) ?? null,
    lease_expires_at: numberOrNull(raw.lease_expires_at),
    created_at: Number(raw.created_at),
    finished_at: numberOrNull(raw.finished_at),
  };
}

export async function insertRun(
  db: SqlExecutor,
  run: {
    id: string;
    suiteId: string;
    projectId: string;
    version: number;
    repetitions: number;
    concurrency: number;
    plan: RunPlan;
    leaseOwner: string;
    leaseMs: number;
  },
): Promise<RunRow> {
  const now = nowMicroseconds();
  const [row] = await db.query<Record<string, unknown>>(
    `INSERT INTO eval_runs (id, suite_id, project_id, version, status, repetitions, concurrency, plan, total,
       lease_owner, lease_expires_at, created_at)
     VALUES ($1, $2, $3, $4, 'running', $5, $6, $7::text::jsonb, $8, $9, $10, $11)
     RETURNING id, suite_id, project_id, version, status, repetitions, concurrency, plan, total, summary, failure,
       lease_owner, lease_expires_at, created_at, finished_at`,
    [
      run.id,
      run.suiteId,
      run.projectId,
      run.version,
      run.repetitions,
      run.concurrency,
      JSON.stringify(run.plan),
      run.plan.cases.length * run.repetitions,
      run.leaseOwner,
      now + run.leaseMs * 1000,
      now,
    ],
  );
  return toRunRow(row!);
}

export async function findRun(db: SqlExecutor, id: string): Promise<RunRow | null> {
  const [row] = await db.query<Record<string, unknown>>(
    `SELECT ${RUN_COLUMNS} FROM eval_runs r WHERE r.id = $1`,
    [id],
  );
  return row ? toRunRow(row) : null;
}

/**
 * Claims running runs nobody holds (never leased, or their lease expired: a process that stopped or
 * died) for `owner`; answers their ids.
 */
export async function claimOrphanRuns(db: SqlExecutor, owner: string, leaseMs: number): Promise<string[]> {
  const now = nowMicroseconds();
  const rows = await db.query<{ id: string }>(
    `UPDATE eval_runs SET lease_owner = $1, lease_expires_at = $2
     WHERE id IN (SELECT id FROM eval_runs WHERE status = 'running'
                  AND (lease_expires_at IS NULL OR lease_expires_at < $3) FOR UPDATE SKIP LOCKED)
     RETURNING id`,
    [owner, now + leaseMs * 1000, now],
  );
  return rows.map((row) => String(row.id));
}

/** Renews the leases `owner` holds on running runs; answers the ids it still holds. */
export async function renewRunLeases(db: SqlExecutor, owner: string, leaseMs: number): Promise<string[]> {
  const rows = await db.query<{ id: string }>(
    `UPDATE eval_runs SET lease_expires_at = $2 WHERE lease_owner = $1 AND status = 'running' RETURNING id`,
    [owner, nowMicroseconds() + leaseMs * 1000],
  );
  return rows.map((row) => String(row.id));
}

/** Lets go of `owner`'s runs (a draining process): another process takes them at once. */
export async function releaseRunLeases(db: SqlExecutor, owner: string): Promise<void> {
  await db.query(
    "UPDATE eval_runs SET lease_owner = NULL, lease_expires_at = NULL WHERE lease_owner = $1 AND status = 'running'",
    [owner],
  );
}

/** Ends a running run (compare-and-set from running); null when it had already ended. */
export async function finishRun(
  db: SqlExecutor,
  id: string,
  status: Exclude<EvalRunStatus, "running">,
  summary: EvalSummary,
  failure: string | null = null,
): Promise<boolean> {
  const rows = await db.query(
    `UPDATE eval_runs SET status = $2, summary = $3::text::jsonb, failure = $4, finished_at = $5,
       lease_owner = NULL, lease_expires_at = NULL
     WHERE id = $1 AND status = 'running' RETURNING id`,
    [id, status, JSON.stringify(summary), failure, nowMicroseconds()],
  );
  return rows.length > 0;
}

export async function runsOfSuite(db: SqlExecutor, suiteId: string): Promise<RunRow[]> {
  const rows = await db.query<Record<string, unknown>>(
    `SELECT ${RUN_COLUMNS} FROM eval_runs r WHERE r.suite_id = $1 ORDER BY r.created_at DESC LIMIT 100`,
    [suiteId],
  );
  return rows.map(toRunRow);
}

// ─── Results ─────────────────────────────────────────────────────────────────────────────────────

export interface ResultRow {
  case_id: string;
  repetition: number;
  thread_id: string | null;
  state: "running" | "done";
  passed: boolean;
  score: number;
  assertions: AssertionResult[];
  turns: number;
  tokens: number;
  cost_usd: number;
  latency_ms: number;
  finished_at: number | null;
}

function toResultRow(raw: Record<string, unknown>): ResultRow {
  return {
    case_id: String(raw.case_id),
    repetition: Number(raw.repetition),
    thread_id: raw.thread_id ? String(raw.thread_id) : null,
    state: raw.state as "running" | "done",
    passed: raw.passed === true,
    score: Number(raw.score ?? 0),
    assertions: json<AssertionResult[]>(raw.assertions ?? []),
    turns: Number(raw.turns),
    tokens: Number(raw.tokens),
    cost_usd: Number(raw.cost_usd),
    latency_ms: Number(raw.latency_ms),
    finished_at: numberOrNull(raw.finished_at),
  };
}

export async function resultsOfRun(db: SqlExecutor, runId: string): Promise<ResultRow[]> {
  const rows = await db.query<Record<string, unknown>>(
    `SELECT case_id, repetition, thread_id, state, passed, score, assertions, turns, tokens, cost_usd, latency_ms,
       finished_at FROM eval_results WHERE run_id = $1 ORDER BY created_at, repetition`,
    [runId],
  );
  return rows.map(toResultRow);
}

/**
 * A case's root thread, idle, and its result row, committed together as one statement (a
 * LazyTransaction: with group commit, the cases a run starts at once share transactions); null when
 * the case's result row already existed (another start of the same case won): then nothing of this
 * one is written.
 */
export async function createCaseThreadRows(
  client: SqlClient,
  thread: NewThread,
  result: { id: string; runId: string; caseId: string; repetition: number },
): Promise<ThreadRow | null> {
  // A case's thread is a root: its place in a group commit is its own, twice (root, then thread).
  const tx = new LazyTransaction(client, [], `${thread.id}/${thread.id}`);
  try {
    const row = await createThread(tx, thread, false);
    await insertResultDeferred(tx, { ...result, threadId: thread.id });
    await appendEvents(tx, [threadEvent(row)]);
    await tx.commit();
    return row;
  } catch (error) {
    await tx.rollback(error);
    if (isDuplicateResult(error)) return null;
    throw error;
  }
}

/**
 * A case's result row, deferred, for a one-statement commit (the case thread's creation): no ON
 * CONFLICT, so a second start of the same case fails its whole commit with a unique violation
 * (`isDuplicateResult`) and nothing of it is written.
 */
async function insertResultDeferred(
  tx: SqlExecutor,
  row: { id: string; runId: string; caseId: string; repetition: number; threadId: string },
): Promise<void> {
  await tx.defer(
    `INSERT INTO eval_results (id, run_id, case_id, repetition, thread_id, state, created_at)
     VALUES ($1, $2, $3, $4, $5, 'running', $6)`,
    [row.id, row.runId, row.caseId, row.repetition, row.threadId, nowMicroseconds()],
  );
}

/** The error of a commit that inserted a case's result row a second time (`insertResultDeferred`). */
function isDuplicateResult(error: unknown): boolean {
  if (typeof error !== "object" || error === null) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  return (
    code === "23505" &&
    typeof message === "string" &&
    message.includes("eval_results_run_id_case_id_repetition_key")
  );
}

/** Finishes a result once (compare-and-set from running); false when it was already finished. */
export async function finishResult(db: SqlExecutor, runId: string, result: EvalCaseResult): Promise<boolean> {
  const rows = await db.query(
    `UPDATE eval_results SET state = 'done', passed = $4, score = $5, assertions = $6::text::jsonb, turns = $7,
       tokens = $8, cost_usd = $9, latency_ms = $10, finished_at = $11
     WHERE run_id = $1 AND case_id = $2 AND repetition = $3 AND state = 'running' RETURNING id`,
    [
      runId,
      result.case_id,
      result.repetition,
      result.passed,
      result.score,
      JSON.stringify(result.assertions),
      result.turns,
      result.tokens,
      result.cost_usd,
      Math.round(result.latency_ms),
      nowMicroseconds(),
    ],
  );
  return rows.length > 0;
}

/** The eval run a root thread belongs to, if it is a case's conversation. */
export async function evalRunOfThread(
  db: SqlExecutor,
  threadId: string,
): Promise<{ run_id: string; case_id: string; repetition: number } | null> {
  const [row] = await db.query<Record<string, unknown>>(
    "SELECT run_id, case_id, repetition FROM eval_results WHERE thread_id = $1",
    [threadId],
  );
  return row
    ? { run_id: String(row.run_id), case_id: String(row.case_id), repetition: Number(row.repetition) }
    : null;
}

// ─── What a case's conversation left ─────────────────────────────────────────────────────────────

/** Tool calls made anywhere in a root's tree, in order, with their parsed arguments. */
export async function toolCallsOfTree(
  db: SqlExecutor,
  rootId: string,
): Promise<{ name: string; args: unknown; thread_id: string }[]> {
  const rows = await db.query<{ thread_id: string; tool_calls: unknown }>(
    `SELECT m.thread_id, m.tool_calls FROM messages m JOIN threads t ON t.id = m.thread_id
     WHERE t.root_id = $1 AND m.tool_calls IS NOT NULL ORDER BY m.created_at, m.seq`,
    [rootId],
  );
  return parseToolCalls(rows);
}

/** Tool-call columns of messages as calls with their parsed arguments (unparsable ones kept raw). */
function parseToolCalls(
  rows: readonly { thread_id: string; tool_calls: unknown }[],
): { name: string; args: unknown; thread_id: string }[] {
  const calls: { name: string; args: unknown; thread_id: string }[] = [];
  for (const row of rows) {
    const list = json<{ function?: { name?: string; arguments?: string } }[] | null>(row.tool_calls) ?? [];
    for (const call of list) {
      const raw = call.function?.arguments ?? "{}";
      let args: unknown = raw;
      try {
        args = JSON.parse(raw);
      } catch {
        // unparsable arguments stay the raw string
      }
      calls.push({ name: String(call.function?.name ?? ""), args, thread_id: String(row.thread_id) });
    }
  }
  return calls;
}

/** The agents of every thread below a root, in creation order. */
export async function subagentsOfTree(db: SqlExecutor, rootId: string): Promise<string[]> {
  const rows = await db.query<{ agent_name: string }>(
    "SELECT agent_name FROM threads WHERE root_id = $1 AND id <> $1 ORDER BY created_at",
    [rootId],
  );
  return rows.map((row) => String(row.agent_name));
}

/** Whether the project saved that version. */
export async function projectHasVersion(
  db: SqlExecutor,
  projectId: string,
  version: number,
): Promise<boolean> {
  const rows = await db.query("SELECT 1 FROM project_versions WHERE project_id = $1 AND version = $2", [
    projectId,
    version,
  ]);
  return rows.length > 0;
}

/**
 * The user turns posted to a thread from outside (the API, a runner), in order, whether taken in
 * yet or still waiting in its inbox; a child's report or a hook's message is not one.
 */
export async function postedUserTurns(db: SqlExecutor, threadId: string): Promise<string[]> {
  const rows = await db.query<{ content: string | null }>(
    `SELECT payload->>'content' AS content FROM inbox_items
     WHERE thread_id = $1 AND payload->>'role' = 'user'
       AND (payload->>'external' = 'true' OR payload->>'fromHuman' = 'true')
     ORDER BY seq`,
    [threadId],
  );
  return rows.map((row) => row.content ?? "");
}

// ─── The runner's own model calls ────────────────────────────────────────────────────────────────

/**
 * The sides the runner logs its own model calls under in `model_calls` (never "a"/"b": the
 * thread's scripted call counts, replays and forks count those sides only).
 */
export const EVAL_CALL_SIDES = { simulatedUser: "user", judge: "judge" } as const;
export type EvalCallSide = (typeof EVAL_CALL_SIDES)[keyof typeof EVAL_CALL_SIDES];

export interface EvalModelCall {
  thread: { id: string; project_id: string; agent_name: string };
  side: EvalCallSide;
  modelName: string;
  request: { messages: unknown[]; tools: unknown[] };
  result: {
    text: string;
    modelName: string;
    providerModelId?: string | null;
    usage: { inputTokens: number; outputTokens: number };
    costUsd: number;
    latencyMs: number;
  } | null;
  error: string | null;
  /** When the call started (microseconds). */
  startedAt: number;
}

/** Logs a simulated user's or a judge's call in the case thread's model-call log (stored whole). */
export async function logEvalModelCall(db: SqlExecutor, id: string, call: EvalModelCall): Promise<void> {
  const { result } = call;
  await db.query(
    `INSERT INTO model_calls (id, thread_id, side, model_name, answered_by, provider_model_id, request, response, error,
         input_tokens, output_tokens, cost_usd, latency_ms, created_at, project_id, agent_name)
       VALUES ($1, $2, $3, $4, $5, $6, $7::text::json, $8::text::json, $9, $10, $11, $12, $13, $14, $15, $16)`,
    [
      id,
      call.thread.id,
      call.side,
      call.modelName,
      result?.modelName ?? null,
      result?.providerModelId ?? null,
      JSON.stringify(call.request),
      result ? JSON.stringify({ text: result.text, toolCalls: [], usage: result.usage }) : null,
      call.error,
      result?.usage.inputTokens ?? 0,
      result?.usage.outputTokens ?? 0,
      result?.costUsd ?? 0,
      result?.latencyMs ?? Math.max(0, Math.round((nowMicroseconds() - call.startedAt) / 1000)),
      call.startedAt,
      call.thread.project_id,
      call.thread.agent_name,
    ],
  );
}

/** Tokens (input + output) and cost of the runner's own calls logged on a case thread. */
export async function evalCallUsage(
  db: SqlExecutor,
  threadId: string,
): Promise<{ tokens: number; costUsd: number }> {
  const [row] = await db.query<{ tokens: string | number; cost: string | number }>(
    `SELECT COALESCE(sum(input_tokens + output_tokens), 0)::bigint AS tokens, COALESCE(sum(cost_usd), 0) AS cost
       FROM model_calls WHERE thread_id = $1 AND side = ANY($2::text[])`,
    [threadId, Object.values(EVAL_CALL_SIDES)],
  );
  return { tokens: Number(row?.tokens ?? 0), costUsd: Number(row?.cost ?? 0) };
}

/**
 * A successful call this thread already logged on `side` with `modelName` and the very same request
 * (a case resumed after a crash asks again): its answer, or null.
 */
export async function loggedEvalAnswer(
  db: SqlExecutor,
  threadId: string,
  side: EvalCallSide,
  modelName: string,
  request: EvalModelCall["request"],
): Promise<NonNullable<EvalModelCall["result"]> | null> {
  const [row] = await db.query<Record<string, unknown>>(
    `SELECT answered_by, provider_model_id, response, input_tokens, output_tokens, cost_usd, latency_ms
       FROM model_calls
      WHERE thread_id = $1 AND side = $2 AND model_name = $3 AND error IS NULL AND request::text = $4
      ORDER BY created_at LIMIT 1`,
    [threadId, side, modelName, JSON.stringify(request)],
  );
  if (!row) return null;
  const response = json<{ text?: unknown }>(row.response);
  return {
    text: typeof response?.text === "string" ? response.text : "",
    modelName: String(row.answered_by ?? modelName),
    providerModelId: row.provider_model_id === null ? null : String(row.provider_model_id),
    usage: { inputTokens: Number(row.input_tokens), outputTokens: Number(row.output_tokens) },
    costUsd: Number(row.cost_usd),
    latencyMs: Number(row.latency_ms),
  };
}

/** A finished run of one of the project's suites, for the dashboard's pass rate over versions. */
export interface FinishedRunRow {
  run_id: string;
  suite_id: string;
  suite: string;
  version: number;
  finished_at: number;
  summary: EvalSummary | null;
}

/** The project's runs that finished (done) in [fromUs, toUs), by suite name, then oldest first. */
export async function finishedRunsOfProject(
  db: SqlExecutor,
  projectId: string,
  fromUs: number,
  toUs: number,
): Promise<FinishedRunRow[]> {
  const rows = await db.query<Record<string, unknown>>(
    `SELECT r.id, r.suite_id, s.name, r.version, r.finished_at, r.summary
       FROM eval_runs r JOIN eval_suites s ON s.id = r.suite_id
      WHERE r.project_id = $1::uuid AND r.status = 'done'
        AND r.finished_at >= $2::bigint AND r.finished_at < $3::bigint
      ORDER BY s.name, r.finished_at, r.id
      LIMIT 2000`,
    [projectId, String(fromUs), String(toUs)],
  );
  return rows.map((raw) => ({
    run_id: String(raw.id),
    suite_id: String(raw.suite_id),
    suite: String(raw.name),
    version: Number(raw.version),
    finished_at: Number(raw.finished_at),
    summary: raw.summary === null || raw.summary === undefined ? null : json<EvalSummary>(raw.summary),
  }));
}
// ─── The runner's hot path (one statement each) ──────────────────────────────────────────────────

/**
 * What the runner needs to know whether a case's thread rests: its status, whether it is runnable,
 * and whether input waits in its inbox, in one round trip (null when the thread is gone).
 */
export async function caseThreadState(
  db: SqlExecutor,
  threadId: string,
  options: { conversation?: boolean } = {},
): Promise<CaseThreadState | null> {
  // The root's visible conversation (its user and assistant messages, not silent, in order), read in
  // the same statement when asked: a simulated user reads it next whenever the thread rests.
  const [row] = await db.query<{
    status: string;
    runnable: boolean;
    pending_input: boolean;
    conversation?: unknown;
  }>(
    `SELECT t.status, t.runnable,
       EXISTS (SELECT 1 FROM inbox_items i WHERE i.thread_id = t.id AND i.consumed_at IS NULL) AS pending_input${
         options.conversation
           ? `,
       COALESCE((SELECT json_agg(json_build_object('role', m.role, 'content', m.content) ORDER BY m.seq)
         FROM messages m WHERE m.thread_id = t.id AND m.depth = 0 AND m.silent = false
           AND m.role IN ('user', 'assistant')), '[]'::json) AS conversation`
           : ""
       }
     FROM threads t WHERE t.id = $1`,
    [threadId],
  );
  if (!row) return null;
  return {
    status: String(row.status),
    runnable: row.runnable === true,
    pendingInput: row.pending_input === true,
    ...(options.conversation
      ? { conversation: json<CaseThreadState["conversation"]>(row.conversation) }
      : {}),
  };
}

/** Whether a case's thread rests (`caseThreadState`), and its conversation when asked for. */
export interface CaseThreadState {
  status: string;
  runnable: boolean;
  pendingInput: boolean;
  conversation?: { role: "user" | "assistant"; content: string | null }[];
}

export interface CaseThreadEnd {
  status: string;
  finished_at: number | null;
  /** Tokens and cost of the root's whole tree. */
  tokens: number;
  cost_usd: number;
  conversation: { role: "user" | "assistant"; content: string | null }[];
  toolCalls: { name: string; args: unknown; thread_id: string }[];
  subagents: string[];
  /** The user turns posted from outside (as `postedUserTurns`). */
  posted: string[];
}

/**
 * Everything a case's verdict reads of its thread, in one statement: status and end, the usage of
 * its tree, its conversation (as `caseThreadState` reads it), the tool calls and subagents of its tree
 * (`toolCallsOfTree`, `subagentsOfTree`) and its posted user turns (`postedUserTurns`).
 */
export async function caseThreadEnd(db: SqlExecutor, threadId: string): Promise<CaseThreadEnd | null> {
  const [row] = await db.query<Record<string, unknown>>(
    `WITH RECURSIVE subtree AS (
       SELECT id, input_tokens, output_tokens, cost_usd FROM threads WHERE id = $1
       UNION ALL SELECT t.id, t.input_tokens, t.output_tokens, t.cost_usd FROM threads t JOIN subtree s ON t.parent_id = s.id
     )
     SELECT r.status, r.finished_at,
       (SELECT COALESCE(sum(input_tokens + output_tokens), 0)::bigint FROM subtree) AS tokens,
       (SELECT COALESCE(sum(cost_usd), 0)::float8 FROM subtree) AS cost_usd,
       COALESCE((SELECT json_agg(json_build_object('role', m.role, 'content', m.content) ORDER BY m.seq)
         FROM messages m WHERE m.thread_id = r.id AND m.depth = 0 AND m.silent = false
           AND m.role IN ('user', 'assistant')), '[]'::json) AS conversation,
       COALESCE((SELECT json_agg(json_build_object('thread_id', m.thread_id, 'tool_calls', m.tool_calls)
           ORDER BY m.created_at, m.seq)
         FROM messages m JOIN threads t ON t.id = m.thread_id
         WHERE t.root_id = r.id AND m.tool_calls IS NOT NULL), '[]'::json) AS tool_calls,
       COALESCE((SELECT json_agg(t.agent_name ORDER BY t.created_at) FROM threads t
         WHERE t.root_id = r.id AND t.id <> r.id), '[]'::json) AS subagents,
       COALESCE((SELECT json_agg(i.payload->>'content' ORDER BY i.seq) FROM inbox_items i
         WHERE i.thread_id = r.id AND i.payload->>'role' = 'user'
           AND (i.payload->>'external' = 'true' OR i.payload->>'fromHuman' = 'true')), '[]'::json) AS posted
     FROM threads r WHERE r.id = $1`,
    [threadId],
  );
  if (!row) return null;
  return {
    status: String(row.status),
    finished_at: numberOrNull(row.finished_at),
    tokens: Number(row.tokens ?? 0),
    cost_usd: Number(row.cost_usd ?? 0),
    conversation: json<CaseThreadEnd["conversation"]>(row.conversation),
    toolCalls: parseToolCalls(json<{ thread_id: string; tool_calls: unknown }[]>(row.tool_calls)),
    subagents: json<string[]>(row.subagents).map(String),
    posted: json<(string | null)[]>(row.posted).map((content) => content ?? ""),
  };
}
