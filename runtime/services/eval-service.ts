// Evaluations (API.md "Evaluations"; docs/evals.md): suites per project, and runs of a suite
// against a saved version. The runner drives each case's conversation as an ordinary root thread
// through the runtime (it posts user turns and waits for the thread to settle; the step runner does
// the rest, so there is no second agent loop): fixed turns, or a simulated user (a project model
// prompted with a persona, shown the conversation with the roles swapped). A run holds a lease in
// its row; a process that starts, or whose poll finds a run nobody holds, resumes it: every case's
// thread and result row are created in one transaction, unique per (run, case, repetition), so
// each case finishes exactly once.
import "server-only";
import { randomUUID } from "node:crypto";
import { EventEmitter, setMaxListeners } from "node:events";
import {
  type Assertion,
  type CaseBody,
  type EvalCase,
  type EvalCaseResult,
  type EvalCompare,
  type EvalRun,
  type EvalRunEvent,
  type EvalRunListEntry,
  type EvalSuite,
  type EvalSuiteListEntry,
  type EvalSummary,
  type RunRequest,
  type SimulatedUser,
  type SuiteBody,
  SuiteSchema,
} from "@/lib/contracts/evals";
import type { SqlClient } from "@/lib/db/sql-client";
import { ConflictError, NotFoundError, UnprocessableError } from "../errors";
import type { ExtensionRegistry } from "../extensions/registry";
import { crashPoint } from "../faults";
import type { ModelCallRequest, ModelCallResult } from "../models";
import type { DefinitionsCache, LoadedDefinitions } from "../store/definitions";
import {
  type CaseThreadState,
  caseThreadEnd,
  caseThreadState,
  claimOrphanRuns,
  createCaseThreadRows,
  deleteSuite,
  EVAL_CALL_SIDES,
  type EvalCallSide,
  evalCallUsage,
  findRun,
  findSuite,
  findSuiteByName,
  finishResult,
  finishRun,
  insertRun,
  insertSuite,
  listSuites,
  logEvalModelCall,
  loggedEvalAnswer,
  postedUserTurns,
  projectHasVersion,
  type ResultRow,
  type RunRow,
  releaseRunLeases,
  renewRunLeases,
  resultsOfRun,
  runsOfSuite,
  type SuiteWrite,
  updateSuite,
} from "../store/eval-store";
import { initialExecutionState } from "../store/messages";
import { currentProjectVersion } from "../store/project-versions";
import { nowMicroseconds } from "../store/thread-row";
import { findThread } from "../store/thread-store";
import { type CaseOutcome, checkAssertions, percentile } from "./eval-assertions";
import { isUuid } from "./project-service";
import type { ThreadService } from "./thread-service";

type ModelCaller = (
  name: string,
  models: LoadedDefinitions["bundle"]["models"],
  request: ModelCallRequest,
) => Promise<ModelCallResult>;

export interface EvalServiceDeps {
  sql: SqlClient;
  definitions: DefinitionsCache;
  threads: ThreadService;
  /** Wakes `onEvents` when the root's tree has new events; answers the unsubscribe. */
  watchRoot: (rootId: string, onEvents: () => void) => Promise<() => void>;
  /**
   * This process's runs of threads (the scheduler): a case's thread running here is not read back
   * until that run ends. Without it the runner reads the thread on every event of its tree.
   */
  runsHere?: {
    isRunning(threadId: string): boolean;
    whenRunEnds(threadId: string, onEnded: () => void): () => void;
  };
  callModel: ModelCaller;
  extensions: () => Promise<{ registry: ExtensionRegistry }>;
  /** This process's name on the runs it drives. */
  owner: string;
  leaseMs?: number;
}

/** A thread resting: nothing to do until someone posts (or it ended). */
const RESTING = new Set(["idle", "completed", "failed", "stopped", "terminated"]);
/** A thread that takes no further user turns. */
const ENDED = new Set(["completed", "failed", "stopped", "terminated"]);
const DEFAULT_CONCURRENCY = 4;
/** A case thread as `createCaseThread` leaves it: idle, nothing queued, no conversation yet. */
const FRESH_CASE_THREAD: CaseThreadState = {
  status: "idle",
  runnable: false,
  pendingInput: false,
  conversation: [],
};
const DEFAULT_LEASE_MS = 15_000;
/**
 * How often a settling thread is read again when no event woke its waiter: a safety net only (every
 * commit of a watched root NOTIFYs, and a watcher row restored after a loss wakes its streams), so
 * it is long enough that 500 conversations waiting on their models cost no reads (docs/evals.md).
 */
const SETTLE_POLL_MS = 5_000;

const JUDGE_INSTRUCTIONS =
  'You grade a conversation between a user and an AI agent against a rubric. Answer with JSON only: { "score": <a number from 0 to 1>, "reason": "<one sentence: why>" }.';

function emptySummary(cases: number): EvalSummary {
  return {
    cases,
    passed: 0,
    pass_rate: 0,
    pass_all_repetitions: 0,
    mean_score: 0,
    tokens: 0,
    cost_usd: 0,
    latency_p50_ms: 0,
    latency_p95_ms: 0,
  };
}

/**
 * The run's summary from its finished results: `cases` the suite's cases, `passed` the cases that
 * passed at least once, `pass_rate` the share of finished attempts that passed, and
 * `pass_all_repetitions` (pass^k) the share of cases that passed in every repetition.
 */
export function summarise(
  run: Pick<RunRow, "plan" | "repetitions">,
  results: readonly ResultRow[],
): EvalSummary {
  const finished = results.filter((result) => result.state === "done");
  const cases = run.plan.cases.length;
  if (finished.length === 0) return emptySummary(cases);
  const byCase = new Map<string, ResultRow[]>();
  for (const result of finished) {
    const attempts = byCase.get(result.case_id);
    if (attempts) attempts.push(result);
    else byCase.set(result.case_id, [result]);
  }
  let passedOnce = 0;
  let passedAll = 0;
  for (const item of run.plan.cases) {
    const attempts = byCase.get(item.id) ?? [];
    if (attempts.some((attempt) => attempt.passed)) passedOnce += 1;
    if (attempts.length === run.repetitions && attempts.every((attempt) => attempt.passed)) passedAll += 1;
  }
  const latencies = finished.map((result) => result.latency_ms);
  const round = (value: number, digits = 4) => Number(value.toFixed(digits));
  return {
    cases,
    passed: passedOnce,
    pass_rate: round(finished.filter((result) => result.passed).length / finished.length),
    pass_all_repetitions: cases === 0 ? 0 : round(passedAll / cases),
    mean_score: round(finished.reduce((sum, result) => sum + result.score, 0) / finished.length),
    tokens: finished.reduce((sum, result) => sum + result.tokens, 0),
    cost_usd: round(
      finished.reduce((sum, result) => sum + result.cost_usd, 0),
      6,
    ),
    latency_p50_ms: percentile(latencies, 50),
    latency_p95_ms: percentile(latencies, 95),
  };
}

function resultView(names: ReadonlyMap<string, string>, row: ResultRow): EvalCaseResult {
  return {
    case_id: row.case_id,
    name: names.get(row.case_id) ?? "",
    repetition: row.repetition,
    thread_id: row.thread_id,
    passed: row.passed,
    score: row.score,
    assertions: row.assertions,
    turns: row.turns,
    tokens: row.tokens,
    cost_usd: row.cost_usd,
    latency_ms: row.latency_ms,
  };
}

function runView(run: RunRow, results: readonly ResultRow[]): EvalRun {
  // In the suite's order, then by repetition: cases started together finish (and were created) in
  // any order, and a comparison lists its cases in the order of the first run's results.
  const position = new Map(run.plan.cases.map((item, index) => [item.id, index]));
  const finished = results
    .filter((result) => result.state === "done")
    .sort(
      (a, b) =>
        (position.get(a.case_id) ?? 0) - (position.get(b.case_id) ?? 0) || a.repetition - b.repetition,
    );
  const caseNames = new Map(run.plan.cases.map((item) => [item.id, item.name]));
  return {
    id: run.id,
    suite_id: run.suite_id,
    project_id: run.project_id,
    suite_name: run.plan.suite_name,
    agent_id: run.plan.agent_id,
    version: run.version,
    status: run.status,
    repetitions: run.repetitions,
    concurrency: run.concurrency,
    progress: { done: finished.length, total: run.total },
    summary: run.summary ?? summarise(run, results),
    failure: run.failure,
    created_at: run.created_at,
    finished_at: run.finished_at,
    // Case names by id: a run of n cases is viewed in O(n), not O(n²).
    results: finished.map((row) => resultView(caseNames, row)),
  };
}

/** A message's text as the transcript shows it. */
/** A call answered before, as the caller gets it: its text and usage, no tool calls (the log keeps none). */
function asLoggedAnswer(answer: {
  text: string;
  usage: { inputTokens: number; outputTokens: number };
  costUsd: number;
  modelName: string;
  providerModelId?: string | null;
  latencyMs: number;
}): ModelCallResult {
  return {
    text: answer.text,
    toolCalls: [],
    usage: {
      inputTokens: answer.usage.inputTokens,
      outputTokens: answer.usage.outputTokens,
      cachedInputTokens: 0,
    },
    costUsd: answer.costUsd,
    modelName: answer.modelName,
    providerModelId: answer.providerModelId ?? "",
    provider: "",
    latencyMs: answer.latencyMs,
  };
}

function line(role: string, content: string | null): string {
  return `${role}: ${content ?? ""}`;
}

export class EvalService {
  private readonly leaseMs: number;
  /** Runs this process drives, with the signal that stops their driving. */
  private readonly driving = new Map<string, AbortController>();
  /**
   * The simulated user's and judge's answers of the cases this process created, by thread and request
   * (`callKey`): such a case has no earlier try, so its log need not be read before each call.
   */
  private readonly answeredHere = new Map<string, Map<string, ModelCallResult>>();
  private readonly emitter = new EventEmitter();
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;

  constructor(private readonly deps: EvalServiceDeps) {
    this.leaseMs = deps.leaseMs ?? DEFAULT_LEASE_MS;
    this.emitter.setMaxListeners(0);
  }

  // ─── Suites ────────────────────────────────────────────────────────────────────────────────────

  private async requireProject(projectId: string): Promise<number> {
    const version = isUuid(projectId) ? await currentProjectVersion(this.deps.sql, projectId) : null;
    if (version === null) throw new NotFoundError("Project", projectId);
    return version;
  }

  /** Checks a suite against the project's latest saved version: its agent and the models it names. */
  private async checkSuite(projectId: string, version: number, suite: SuiteBody): Promise<void> {
    const loaded = await this.deps.definitions.load(projectId, version);
    const agents = new Set(loaded?.bundle.agents.map((agent) => agent.name) ?? []);
    if (!agents.has(suite.agent_id))
      throw new UnprocessableError(
        `agent_id: the project has no agent "${suite.agent_id}"${agents.size > 0 ? ` (its agents: ${[...agents].join(", ")})` : ""}.`,
        { field: "agent_id" },
        "invalid_suite",
      );
    const models = new Set(loaded?.bundle.models.map((model) => model.name) ?? []);
    const checkModels = (assertions: readonly Assertion[], where: string) =>
      assertions.forEach((assertion, index) => {
        if (assertion.type === "judge" && !models.has(assertion.model))
          throw new UnprocessableError(
            `${where}[${index}].model: the project has no model "${assertion.model}".`,
            { field: `${where}[${index}].model` },
            "invalid_suite",
          );
      });
    checkModels(suite.assertions, "assertions");
    suite.cases.forEach((item, index) => {
      checkModels(item.assertions, `cases[${index}].assertions`);
      if ("simulated_user" in item.input && !models.has(item.input.simulated_user.model))
        throw new UnprocessableError(
          `cases[${index}].input.simulated_user.model: the project has no model "${item.input.simulated_user.model}".`,
          { field: `cases[${index}].input.simulated_user.model` },
          "invalid_suite",
        );
    });
  }

  private toWrite(suite: SuiteBody, keep: ReadonlySet<string>): SuiteWrite {
    const seen = new Set<string>();
    return {
      name: suite.name,
      agentId: suite.agent_id,
      assertions: suite.assertions,
      cases: suite.cases.map((item: CaseBody) => {
        // A case keeps its id across edits (runs compare by it) when it is one of the suite's own.
        const id = item.id && keep.has(item.id) && !seen.has(item.id) ? item.id : randomUUID();
        seen.add(id);
        return {
          id,
          name: item.name,
          input: item.input,
          ...(item.env ? { env: item.env } : {}),
          assertions: item.assertions,
        };
      }),
    };
  }

  async list(projectId: string): Promise<{ suites: EvalSuiteListEntry[] }> {
    await this.requireProject(projectId);
    const rows = await listSuites(this.deps.sql, projectId);
    const suites: EvalSuiteListEntry[] = [];
    for (const row of rows) {
      const entry: EvalSuiteListEntry = {
        id: row.id,
        name: row.name,
        agent_id: row.agent_id,
        cases: row.cases,
      };
      if (row.last_run) {
        const view = runView(row.last_run, await resultsOfRun(this.deps.sql, row.last_run.id));
        entry.last_run = {
          id: view.id,
          version: view.version,
          status: view.status,
          progress: view.progress,
          summary: view.summary,
          created_at: view.created_at,
        };
      }
      suites.push(entry);
    }
    return { suites };
  }

  async create(projectId: string, body: unknown): Promise<EvalSuite> {
    const version = await this.requireProject(projectId);
    const suite = SuiteSchema.parse(body);
    await this.checkSuite(projectId, version, suite);
    const id = randomUUID();
    const created = await this.deps.sql.transaction((tx) =>
      insertSuite(tx, id, projectId, this.toWrite(suite, new Set())),
    );
    if (!created)
      throw new ConflictError(
        `name: the project already has a suite named "${suite.name}".`,
        { field: "name" },
        "suite_name_taken",
      );
    return this.get(projectId, id);
  }

  async get(projectId: string, suiteId: string): Promise<EvalSuite> {
    await this.requireProject(projectId);
    const suite = isUuid(suiteId) ? await findSuite(this.deps.sql, projectId, suiteId) : null;
    if (!suite) throw new NotFoundError("Eval suite", suiteId);
    return suite;
  }

  async getByName(projectId: string, name: string): Promise<EvalSuite> {
    await this.requireProject(projectId);
    const found = await findSuiteByName(this.deps.sql, projectId, name);
    if (!found) throw new NotFoundError("Eval suite", name);
    return this.get(projectId, found.id);
  }

  async update(projectId: string, suiteId: string, body: unknown): Promise<EvalSuite> {
    const version = await this.requireProject(projectId);
    const existing = await this.get(projectId, suiteId);
    const suite = SuiteSchema.parse(body);
    await this.checkSuite(projectId, version, suite);
    const write = this.toWrite(suite, new Set(existing.cases.map((item) => item.id)));
    const outcome = await this.deps.sql.transaction((tx) => updateSuite(tx, projectId, suiteId, write));
    if (outcome === "missing") throw new NotFoundError("Eval suite", suiteId);
    if (outcome === "name_taken")
      throw new ConflictError(
        `name: the project already has a suite named "${suite.name}".`,
        { field: "name" },
        "suite_name_taken",
      );
    return this.get(projectId, suiteId);
  }

  async delete(projectId: string, suiteId: string): Promise<EvalSuite> {
    const suite = await this.get(projectId, suiteId);
    for (const [runId, controller] of this.driving) {
      const run = await findRun(this.deps.sql, runId);
      if (run?.suite_id === suiteId) controller.abort();
    }
    await deleteSuite(this.deps.sql, projectId, suiteId);
    return suite;
  }

  /** Every suite of the project, whole (the project export writes each as `evals/<suite>.ts`). */
  async exportSuites(projectId: string): Promise<EvalSuite[]> {
    await this.requireProject(projectId);
    const suites: EvalSuite[] = [];
    for (const row of await listSuites(this.deps.sql, projectId)) {
      const suite = await findSuite(this.deps.sql, projectId, row.id);
      if (suite) suites.push(suite);
    }
    return suites;
  }

  /**
   * Suites read from an imported project, all or none (one transaction), checked against the
   * latest saved version: a suite of an existing name replaces that suite (a case keeps the id of
   * the case of its name, so runs before and after the import compare), the others are created.
   * The project's other suites stay as they are.
   */
  async importSuites(projectId: string, suites: readonly SuiteBody[]): Promise<EvalSuite[]> {
    const version = await this.requireProject(projectId);
    for (const suite of suites) await this.checkSuite(projectId, version, suite);
    const ids = await this.deps.sql.transaction(async (tx) => {
      const written: string[] = [];
      for (const suite of suites) {
        const found = await findSuiteByName(tx, projectId, suite.name);
        if (!found) {
          const id = randomUUID();
          await insertSuite(tx, id, projectId, this.toWrite(suite, new Set()));
          written.push(id);
          continue;
        }
        const existing = await findSuite(tx, projectId, found.id);
        const byName = new Map((existing?.cases ?? []).map((item) => [item.name, item.id]));
        const write = this.toWrite(
          { ...suite, cases: suite.cases.map((item) => ({ ...item, id: byName.get(item.name) })) },
          new Set(byName.values()),
        );
        await updateSuite(tx, projectId, found.id, write);
        written.push(found.id);
      }
      return written;
    });
    return Promise.all(ids.map((id) => this.get(projectId, id)));
  }

  /** A new case from a thread of the project: its user turns as fixed `input.messages`. */
  async caseFromThread(projectId: string, suiteId: string, threadId: string): Promise<EvalCase> {
    const suite = await this.get(projectId, suiteId);
    const thread = isUuid(threadId) ? await findThread(this.deps.sql, threadId) : null;
    if (!thread || thread.project_id !== projectId) throw new NotFoundError("Thread", threadId);
    const turns = (await this.userTurns(threadId)).filter((content) => content.trim() !== "");
    if (turns.length === 0)
      throw new UnprocessableError(
        "thread_id: that thread has no user turns to make a case of.",
        { field: "thread_id" },
        "thread_without_user_turns",
      );
    const base = thread.name ?? `${thread.agent_name} conversation`;
    const names = new Set(suite.cases.map((item) => item.name));
    let name = base;
    for (let n = 2; names.has(name); n += 1) name = `${base} (${n})`;
    const added: CaseBody = { name, input: { messages: turns }, assertions: [] };
    const write = this.toWrite(
      {
        name: suite.name,
        agent_id: suite.agent_id,
        assertions: suite.assertions,
        cases: [...suite.cases, added],
      },
      new Set(suite.cases.map((item) => item.id)),
    );
    const outcome = await this.deps.sql.transaction((tx) => updateSuite(tx, projectId, suiteId, write));
    if (outcome !== "ok") throw new NotFoundError("Eval suite", suiteId);
    const created = write.cases.at(-1)!;
    return { id: created.id, name: created.name, input: created.input, assertions: created.assertions };
  }

  // ─── Runs ──────────────────────────────────────────────────────────────────────────────────────

  async startRun(projectId: string, suiteId: string, request: RunRequest): Promise<EvalRun> {
    const current = await this.requireProject(projectId);
    const suite = await this.get(projectId, suiteId);
    const version = request.version ?? current;
    if (!(await projectHasVersion(this.deps.sql, projectId, version)))
      throw new NotFoundError("Project version", String(version));
    const loaded = await this.deps.definitions.load(projectId, version);
    if (!loaded?.index.agents.get(suite.agent_id))
      throw new UnprocessableError(
        `version: version ${version} has no agent "${suite.agent_id}".`,
        { field: "version" },
        "agent_missing_in_version",
      );
    if ((loaded.errors ?? []).length > 0)
      throw new UnprocessableError(
        `version: version ${version} has definition errors, so it cannot run.`,
        { field: "version", diagnostics: loaded.errors },
        "definitions_have_errors",
      );
    const run = await insertRun(this.deps.sql, {
      id: randomUUID(),
      suiteId,
      projectId,
      version,
      repetitions: request.repetitions,
      concurrency: request.concurrency ?? DEFAULT_CONCURRENCY,
      plan: {
        suite_name: suite.name,
        agent_id: suite.agent_id,
        assertions: suite.assertions,
        cases: suite.cases,
      },
      leaseOwner: this.deps.owner,
      leaseMs: this.leaseMs,
    });
    this.drive(run.id);
    return runView(run, []);
  }

  /**
   * A suite's runs, newest first (at most 100), without their results: the history the Evals view
   * compares and charts. A running run's summary is null until it ends.
   */
  async listRuns(projectId: string, suiteId: string): Promise<EvalRunListEntry[]> {
    const suite = await this.get(projectId, suiteId);
    const rows = await runsOfSuite(this.deps.sql, suite.id);
    return rows.map((run) => ({
      id: run.id,
      suite_id: run.suite_id,
      project_id: run.project_id,
      version: run.version,
      status: run.status,
      repetitions: run.repetitions,
      progress: { done: run.done, total: run.total },
      summary: run.summary,
      failure: run.failure,
      created_at: run.created_at,
      finished_at: run.finished_at,
    }));
  }

  async getRun(runId: string): Promise<EvalRun> {
    const run = isUuid(runId) ? await findRun(this.deps.sql, runId) : null;
    if (!run) throw new NotFoundError("Eval run", runId);
    return runView(run, await resultsOfRun(this.deps.sql, runId));
  }

  async cancel(runId: string): Promise<EvalRun> {
    const before = await this.getRun(runId);
    if (before.status !== "running" && before.status !== "cancelled")
      throw new ConflictError(
        `The run already ended (${before.status}).`,
        { status: before.status },
        "run_ended",
      );
    const run = (await findRun(this.deps.sql, runId))!;
    const results = await resultsOfRun(this.deps.sql, runId);
    await finishRun(this.deps.sql, runId, "cancelled", summarise(run, results));
    this.driving.get(runId)?.abort();
    // The conversations in flight stop where they are (a user stop: each thread stays usable).
    for (const result of results)
      if (result.state === "running" && result.thread_id)
        await this.deps.threads.stop(result.thread_id).catch(() => undefined);
    const after = await this.getRun(runId);
    this.emit(runId, { event: "run", data: after });
    return after;
  }

  async compare(a: string, b: string): Promise<EvalCompare> {
    const [left, right] = await Promise.all([this.getRun(a), this.getRun(b)]);
    const collapse = (run: EvalRun) => {
      const byCase = new Map<
        string,
        { passed: boolean; score: number; thread_id: string | null; name: string }
      >();
      for (const result of run.results) {
        const seen = byCase.get(result.case_id);
        const all = run.results.filter((item) => item.case_id === result.case_id);
        if (seen) continue;
        byCase.set(result.case_id, {
          passed: all.every((item) => item.passed),
          score: Number((all.reduce((sum, item) => sum + item.score, 0) / all.length).toFixed(4)),
          thread_id: all.find((item) => item.repetition === 0)?.thread_id ?? result.thread_id,
          name: result.name,
        });
      }
      return byCase;
    };
    const leftCases = collapse(left);
    const rightCases = collapse(right);
    const ids = [...new Set([...leftCases.keys(), ...rightCases.keys()])];
    return {
      cases: ids.map((caseId) => {
        const x = leftCases.get(caseId) ?? null;
        const y = rightCases.get(caseId) ?? null;
        const change =
          x && y && !x.passed && y.passed ? "fixed" : x && y && x.passed && !y.passed ? "regressed" : "same";
        return {
          case_id: caseId,
          name: (x ?? y)!.name,
          a: x ? { passed: x.passed, score: x.score } : null,
          b: y ? { passed: y.passed, score: y.score } : null,
          change,
          a_thread_id: x?.thread_id ?? null,
          b_thread_id: y?.thread_id ?? null,
        };
      }),
      summary: { a: left.summary, b: right.summary },
    };
  }

  /** The run's events as they happen (SSE): `progress`, `result`, and `run` when it ends. */
  subscribe(runId: string, listener: (event: EvalRunEvent) => void): () => void {
    this.emitter.on(runId, listener);
    return () => this.emitter.off(runId, listener);
  }

  private emit(runId: string, event: EvalRunEvent): void {
    this.emitter.emit(runId, event);
  }

  // ─── The runner ────────────────────────────────────────────────────────────────────────────────

  /** Resumes unfinished runs nobody holds, now and on every lease period (a run survives a restart). */
  async start(): Promise<void> {
    this.stopped = false;
    const tick = async () => {
      if (this.stopped) return;
      try {
        const held = new Set(await renewRunLeases(this.deps.sql, this.deps.owner, this.leaseMs));
        for (const [runId, controller] of this.driving) if (!held.has(runId)) controller.abort();
        for (const runId of await claimOrphanRuns(this.deps.sql, this.deps.owner, this.leaseMs))
          this.drive(runId);
      } catch (error) {
        console.error(
          "[tandem] eval runs: lease round failed (next round retries):",
          (error as Error).message,
        );
      }
    };
    await tick();
    this.timer = setInterval(() => void tick(), Math.max(200, Math.floor(this.leaseMs / 3)));
    this.timer.unref();
  }

  /** Stops driving and lets go of this process's runs, so another process (or the next start) takes them. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    for (const controller of this.driving.values()) controller.abort();
    await releaseRunLeases(this.deps.sql, this.deps.owner).catch(() => undefined);
  }

  private drive(runId: string): void {
    if (this.driving.has(runId)) return;
    const controller = new AbortController();
    // Every conversation in flight listens to it while it waits (as many as the run's concurrency).
    setMaxListeners(0, controller.signal);
    this.driving.set(runId, controller);
    void this.driveRun(runId, controller.signal)
      .catch(async (error: unknown) => {
        if (controller.signal.aborted) return;
        console.error(`[tandem] eval run ${runId} failed:`, error);
        const run = await findRun(this.deps.sql, runId);
        if (run)
          await finishRun(
            this.deps.sql,
            runId,
            "failed",
            summarise(run, await resultsOfRun(this.deps.sql, runId)),
            (error as Error).message,
          );
        const view = await this.getRun(runId).catch(() => null);
        if (view) this.emit(runId, { event: "run", data: view });
      })
      .finally(() => {
        if (this.driving.get(runId) === controller) this.driving.delete(runId);
      });
  }

  private async driveRun(runId: string, signal: AbortSignal): Promise<void> {
    const run = await findRun(this.deps.sql, runId);
    if (run?.status !== "running") return;
    const loaded = await this.deps.definitions.load(run.project_id, run.version);
    if (!loaded) throw new Error(`version ${run.version} of the project is gone`);
    const existing = new Map(
      (await resultsOfRun(this.deps.sql, runId)).map((row) => [`${row.case_id}/${row.repetition}`, row]),
    );
    let done = [...existing.values()].filter((row) => row.state === "done").length;
    const work: { item: EvalCase; repetition: number; existing: ResultRow | undefined }[] = [];
    for (let repetition = 0; repetition < run.repetitions; repetition += 1)
      for (const item of run.plan.cases) {
        const row = existing.get(`${item.id}/${repetition}`);
        if (row?.state !== "done") work.push({ item, repetition, existing: row });
      }
    this.emit(runId, { event: "progress", data: { done, total: run.total } });
    let next = 0;
    const worker = async () => {
      while (!signal.aborted && next < work.length) {
        const job = work[next++]!;
        const result = await this.runCase(run, loaded, job.item, job.repetition, job.existing, signal);
        if (!result || signal.aborted) continue;
        if (await finishResult(this.deps.sql, run.id, result)) {
          done += 1;
          this.emit(runId, { event: "result", data: result });
          this.emit(runId, { event: "progress", data: { done, total: run.total } });
        }
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, Math.min(run.concurrency, work.length)) }, worker));
    if (signal.aborted) return;
    const results = await resultsOfRun(this.deps.sql, runId);
    if (await finishRun(this.deps.sql, runId, "done", summarise(run, results)))
      this.emit(runId, { event: "run", data: await this.getRun(runId) });
  }

  /** Starts (or resumes) one repetition of a case; its verdict, or null when the run stopped. */
  private async runCase(
    run: RunRow,
    loaded: LoadedDefinitions,
    item: EvalCase,
    repetition: number,
    existing: ResultRow | undefined,
    signal: AbortSignal,
  ): Promise<EvalCaseResult | null> {
    const started = Date.now();
    let threadId = existing?.thread_id ?? null;
    // The thread's start (µs): known when this call creates it, read back when it resumes one.
    let createdAt: number | undefined;
    let fresh = false;
    if (!threadId) {
      const created = await this.createCaseThread(run, item, repetition);
      threadId = created?.id ?? null;
      createdAt = created?.createdAt;
      fresh = created !== null;
      if (!threadId) {
        // Another start of the same case won: follow its thread.
        const row = (await resultsOfRun(this.deps.sql, run.id)).find(
          (result) => result.case_id === item.id && result.repetition === repetition,
        );
        if (!row?.thread_id || row.state === "done") return null;
        threadId = row.thread_id;
      }
    }
    createdAt ??= (await findThread(this.deps.sql, threadId))?.created_at;
    if (fresh) {
      this.answeredHere.set(threadId, new Map());
      // Idle and empty, created here: its first message stores itself and starts its run in one
      // statement, its first step going straight to the model (no queued input to drain first).
      this.deps.threads.createdIdleHere(threadId, {
        projectId: run.project_id,
        projectVersion: run.version,
        agentName: run.plan.agent_id,
      });
    }
    try {
      return await this.driveCase(
        run,
        loaded,
        item,
        repetition,
        threadId,
        { fresh, createdAt, started },
        signal,
      );
    } finally {
      this.answeredHere.delete(threadId);
    }
  }

  /** Talks a case's conversation to its end and checks it; null when the run stopped. */
  private async driveCase(
    run: RunRow,
    loaded: LoadedDefinitions,
    item: EvalCase,
    repetition: number,
    threadId: string,
    { fresh, createdAt, started }: { fresh: boolean; createdAt: number | undefined; started: number },
    signal: AbortSignal,
  ): Promise<EvalCaseResult | null> {
    const input = item.input;
    const watch = await this.watchCase(threadId, signal);
    try {
      // The user turns posted so far: read once (a resumed case may have posted some), then kept here
      // as this runner posts them (nobody else posts to a case's thread while its run drives it).
      const posted = fresh ? [] : await this.userTurns(threadId);
      for (;;) {
        // A simulated user with turns left reads the conversation next: read with the thread's state.
        const simulated = "simulated_user" in input && posted.length < input.simulated_user.max_turns;
        // Created by this call a moment ago, idle and empty: nothing to read before its first turn.
        const rested =
          fresh && posted.length === 0 ? FRESH_CASE_THREAD : await watch.settle({ conversation: simulated });
        if (signal.aborted) return null;
        if (ENDED.has(rested.status)) break;
        let next: string | null = null;
        if ("messages" in input) next = input.messages[posted.length] ?? null;
        else
          next = await this.simulatedTurn({
            user: input.simulated_user,
            loaded,
            posted,
            thread: this.caseThread(run, threadId),
            // Read with the state whenever turns are left (and not needed when none are).
            conversation: rested.conversation ?? [],
          });
        if (next === null) break;
        await this.deps.threads.postMessage(threadId, { content: next });
        posted.push(next);
      }
    } finally {
      watch.close();
    }
    const outcome = await this.outcome(threadId, createdAt ? createdAt / 1000 : started);
    const verdict = await checkAssertions([...run.plan.assertions, ...item.assertions], outcome, {
      judge: (model, rubric, caseOutcome) =>
        this.judge(loaded, model, rubric, caseOutcome, item, this.caseThread(run, threadId)),
      code: (module, caseOutcome) => this.codeCheck(module, caseOutcome, threadId, item.name),
    });
    // The simulated user's and the judge's calls are the case's too (logged on its thread, every try).
    const own = await evalCallUsage(this.deps.sql, threadId);
    return {
      case_id: item.id,
      name: item.name,
      repetition,
      thread_id: threadId,
      passed: verdict.passed,
      score: Number(verdict.score.toFixed(4)),
      assertions: verdict.assertions,
      turns: outcome.turns,
      tokens: outcome.tokens + own.tokens,
      cost_usd: Number((outcome.costUsd + own.costUsd).toFixed(6)),
      latency_ms: outcome.latencyMs,
    };
  }

  /** The case thread as its model-call log names it (analytics group calls by project and agent). */
  private caseThread(run: RunRow, threadId: string): CaseThread {
    return { id: threadId, project_id: run.project_id, agent_name: run.plan.agent_id };
  }

  /**
   * A simulated user's or a judge's model call, logged in the case thread's model-call log under its
   * own side (a failed call too, with its error), like a step logs its calls. A case resumed after a
   * crash that asks the very same again (its thread, side, model and request) gets the logged answer:
   * the call is made, logged and counted once.
   */
  private async loggedCall(
    thread: CaseThread,
    side: EvalCallSide,
    model: string,
    loaded: LoadedDefinitions,
    request: ModelCallRequest,
  ): Promise<ModelCallResult> {
    const logged = { messages: request.messages, tools: request.tools };
    // A case created here answers from memory (no earlier try can have logged it); a resumed one reads its log.
    const answered = this.answeredHere.get(thread.id);
    const key = `${side}\u0000${model}\u0000${JSON.stringify(logged)}`;
    const earlier = answered
      ? answered.get(key)
      : await loggedEvalAnswer(this.deps.sql, thread.id, side, model, logged).then((row) =>
          row ? asLoggedAnswer(row) : undefined,
        );
    if (earlier) return earlier;
    const startedAt = nowMicroseconds();
    const log = (result: ModelCallResult | null, error: string | null) =>
      logEvalModelCall(this.deps.sql, randomUUID(), {
        thread,
        side,
        modelName: model,
        request: logged,
        result,
        error,
        startedAt,
      });
    let answer: ModelCallResult;
    try {
      answer = await this.deps.callModel(model, loaded.bundle.models, request);
    } catch (error) {
      await log(null, (error as Error).message ?? String(error)).catch(() => undefined);
      throw error;
    }
    await log(answer, null);
    answered?.set(key, asLoggedAnswer(answer));
    crashPoint("after_eval_call", thread.agent_name);
    return answer;
  }

  /**
   * The case's root thread and its result row, committed together as one statement (a
   * LazyTransaction: with group commit, the cases a run starts at once share transactions); null when
   * the row already existed (another start of the same case won: nothing of this one is written).
   */
  private async createCaseThread(
    run: RunRow,
    item: EvalCase,
    repetition: number,
  ): Promise<{ id: string; createdAt: number } | null> {
    const id = randomUUID();
    const suffix = run.repetitions > 1 ? ` #${repetition + 1}` : "";
    const row = await createCaseThreadRows(
      this.deps.sql,
      {
        id,
        projectId: run.project_id,
        projectVersion: run.version,
        agentName: run.plan.agent_id,
        parentId: null,
        rootId: id,
        depth: 0,
        name: `eval ${run.plan.suite_name} · ${item.name}${suffix}`,
        execution: { ...initialExecutionState(), evalRun: run.id } as ReturnType<
          typeof initialExecutionState
        >,
        env: item.env ?? {},
      },
      { id: randomUUID(), runId: run.id, caseId: item.id, repetition },
    );
    return row && { id, createdAt: row.created_at };
  }

  /**
   * Watches a case's thread for its whole conversation: `settle()` waits until the thread rests with
   * nothing left to take in and answers its state (with its conversation, when asked, read in the
   * same statement). While the thread runs in this process it reads nothing and waits for that run
   * to end (the scheduler says when): its commits' events are not news. Only when it finds the thread
   * neither resting nor running here (another process runs it, or its children) does it subscribe to
   * the tree's events, once for the rest of the conversation, and read again before it waits: a
   * watched root's commits NOTIFY, so a case run here never makes its commits dearer. Subscribed, it
   * reads the thread (one statement) when the tree's events wake it, and after SETTLE_POLL_MS without
   * any; wakes during a read cost one more read, not one each.
   */
  private async watchCase(threadId: string, signal: AbortSignal) {
    const runsHere = this.deps.runsHere;
    let woken = false;
    let wake: () => void = () => {};
    let unsubscribe: (() => void) | null = null;
    let closed = false;
    const subscribe = async () => {
      const remove = await this.deps.watchRoot(threadId, () => {
        woken = true;
        wake();
      });
      if (closed) remove();
      else unsubscribe = remove;
    };
    /** Waits for the safety poll, the run's signal, and either a wake or the end of the run here. */
    const pause = (until: "woken" | "run_ended") =>
      new Promise<void>((resolve) => {
        let cancelRunEnd = () => {};
        let ended = false;
        const done = () => {
          if (ended) return;
          ended = true;
          clearTimeout(timer);
          signal.removeEventListener("abort", done);
          cancelRunEnd();
          wake = () => {};
          resolve();
        };
        const timer = setTimeout(done, SETTLE_POLL_MS);
        signal.addEventListener("abort", done, { once: true });
        if (until === "woken") wake = done;
        else if (runsHere) cancelRunEnd = runsHere.whenRunEnds(threadId, done);
      });
    const settle = async (read: { conversation: boolean }): Promise<CaseThreadState> => {
      for (;;) {
        if (!signal.aborted && runsHere?.isRunning(threadId)) {
          await pause("run_ended");
          continue;
        }
        woken = false;
        const thread = await caseThreadState(this.deps.sql, threadId, read);
        if (!thread) throw new Error(`the case's thread ${threadId} is gone`);
        if (signal.aborted) return thread;
        // Resting with nothing left to take in: a message just posted may still wait in the inbox (or
        // be taken by this process) while the row still reads idle.
        if (RESTING.has(thread.status) && !thread.runnable && !thread.pendingInput) return thread;
        if (woken || runsHere?.isRunning(threadId)) continue;
        if (!unsubscribe) {
          // Subscribed from now on: read once more, so nothing committed before it is missed.
          await subscribe();
          continue;
        }
        await pause("woken");
      }
    };
    const close = () => {
      closed = true;
      unsubscribe?.();
    };
    return { settle, close };
  }

  /** The user turns posted to the root so far (input from outside, not the agent's own sides). */
  private userTurns(threadId: string): Promise<string[]> {
    return postedUserTurns(this.deps.sql, threadId);
  }

  /**
   * The simulated user's next message: its model, prompted with the persona, sees the conversation
   * with the roles swapped (the agent's replies as its user's turns); null when it is done (its turns
   * used up, an empty reply, or one containing `stop`). Its N-th call in a case is scripted call N.
   */
  private async simulatedTurn({
    user,
    loaded,
    posted,
    thread,
    conversation,
  }: {
    user: SimulatedUser;
    loaded: LoadedDefinitions;
    posted: readonly string[];
    thread: CaseThread;
    /** The root's visible conversation as the thread rested (read with its state). */
    conversation: NonNullable<CaseThreadState["conversation"]>;
  }): Promise<string | null> {
    const turnsSoFar = posted.length;
    if (turnsSoFar >= user.max_turns) return null;
    const messages = conversation;
    const swapped: ModelCallRequest["messages"] = [
      {
        role: "system",
        content: `${user.prompt}\n\nYou are the user in this conversation with an AI agent. Write only your next message to it.${user.stop ? ` When your goal is met, write ${JSON.stringify(user.stop)}.` : ""}`,
      },
      { role: "user", content: "(The conversation starts. Write your first message.)" },
    ];
    // Its own turns are the user messages it posted (in order); a child's report is not one.
    let own = 0;
    for (const message of messages) {
      if (!message.content) continue;
      if (message.role === "user" && own < posted.length && message.content === posted[own]) {
        swapped.push({ role: "assistant", content: message.content });
        own += 1;
      } else if (message.role === "assistant") swapped.push({ role: "user", content: message.content });
    }
    const answer = await this.loggedCall(thread, EVAL_CALL_SIDES.simulatedUser, user.model, loaded, {
      messages: swapped,
      tools: [],
      toolChoice: "none",
      parallelToolCalls: false,
      scriptedCallIndex: turnsSoFar,
    });
    const text = answer.text.trim();
    if (text === "" || (user.stop && text.includes(user.stop))) return null;
    return text;
  }

  /** What the case's conversation left, read in one statement (`caseThreadEnd`). */
  private async outcome(threadId: string, startedMs: number): Promise<CaseOutcome> {
    const thread = await caseThreadEnd(this.deps.sql, threadId);
    if (!thread) throw new Error(`the case's thread ${threadId} is gone`);
    const visible = thread.conversation;
    const reply = [...visible].reverse().find((message) => message.role === "assistant" && message.content);
    const finishedMs = thread.finished_at ? thread.finished_at / 1000 : Date.now();
    return {
      finalReply: reply?.content ?? "",
      transcript: visible
        .filter((message) => message.content)
        .map((message) => line(message.role, message.content))
        .join("\n"),
      toolCalls: thread.toolCalls,
      subagents: thread.subagents,
      status: thread.status,
      turns: thread.posted.length,
      tokens: thread.tokens,
      costUsd: Number(thread.cost_usd.toFixed(6)),
      latencyMs: Math.max(0, Math.round(finishedMs - startedMs)),
    };
  }

  private async judge(
    loaded: LoadedDefinitions,
    model: string,
    rubric: string,
    outcome: CaseOutcome,
    item: EvalCase,
    thread: CaseThread,
  ): Promise<string> {
    const judges = [...item.assertions].filter((assertion) => assertion.type === "judge");
    const answer = await this.loggedCall(thread, EVAL_CALL_SIDES.judge, model, loaded, {
      messages: [
        { role: "system", content: JUDGE_INSTRUCTIONS },
        { role: "user", content: `Rubric:\n${rubric}\n\nConversation:\n${outcome.transcript}` },
      ],
      tools: [],
      toolChoice: "none",
      parallelToolCalls: false,
      scriptedCallIndex: Math.max(
        0,
        judges.findIndex((assertion) => assertion.rubric === rubric),
      ),
    });
    return answer.text;
  }

  private async codeCheck(module: string, outcome: CaseOutcome, threadId: string, caseName: string) {
    const { registry } = await this.deps.extensions();
    const check = registry.evals.get(module);
    if (!check)
      return {
        passed: false,
        reason: `there is no eval check "${module}" on this server (extensions/evals/${module}.ts)`,
      };
    const verdict = await check.check({
      thread_id: threadId,
      case_name: caseName,
      final_reply: outcome.finalReply,
      transcript: outcome.transcript,
      tool_calls: outcome.toolCalls,
      subagents: outcome.subagents,
      status: outcome.status,
      turns: outcome.turns,
      tokens: outcome.tokens,
      cost_usd: outcome.costUsd,
      latency_ms: outcome.latencyMs,
    });
    return typeof verdict === "boolean" ? { passed: verdict } : verdict;
  }
}

/** The case thread's id, project and agent, as its model-call log names them. */
type CaseThread = { id: string; project_id: string; agent_name: string };
