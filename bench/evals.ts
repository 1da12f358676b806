// Benchmark: an eval run at scale (issue 42; docs/evals.md). One suite of CASES cases, each a
// simulated user (a scripted model answering at once) talking TURNS turns with an agent whose
// scripted model answers each turn after MODEL_MS, all CASES conversations at once (concurrency =
// CASES) in this one process. Ideal wall time: TURNS × MODEL_MS (every conversation waits for its
// model TURNS times, and nothing else). Measured: the run's wall time against that ideal, and
// Tandem's own CPU (this process: runner + runtime) per case turn, beside the database baseline.
// BENCH_EVALS_CASES and BENCH_EVALS_CONCURRENCY change the scale. The provider gate runs at its
// default (TANDEM_PROVIDER_CONCURRENCY, 1,024 calls at once per provider and process, which 500 cases
// and their simulated users fit in); BENCH_EVALS_PROVIDER_LIMIT sets the scripted provider's limit
// (TANDEM_PROVIDER_CONCURRENCY_SCRIPTED) to show another gate's floor (256, the default before
// session 41, holds 500 cases to two waves a turn: a 6 s floor; docs/benchmarks.md, session 40).

import { DEFAULT_PROVIDER_CONCURRENCY, providerConcurrencyVariable } from "@/runtime/models/provider-limits";
import { EVAL_CALL_SIDES } from "@/runtime/store/eval-store";
import { topStatements } from "../test/support/instrumented-database";
import { type BaselineResult, printBaselineBeside } from "./baseline";
import type { Cluster } from "./cluster";
import { ownCpuMs } from "./cpu";
import { printTable, section } from "./format";
import { type BenchRuntime, openBenchRuntime, waitUntil } from "./harness";
import { profiled } from "./profile";
import { socketWrites } from "./socket-writes";

function setting(name: string, fallback: number): number {
  const raw = process.env[name]?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1)
    throw new Error(`${name} must be a whole number ≥ 1; got "${raw}".`);
  return value;
}

const CASES = setting("BENCH_EVALS_CASES", 500);
const CONCURRENCY = setting("BENCH_EVALS_CONCURRENCY", CASES);
/** The scripted provider's gate: the default unless BENCH_EVALS_PROVIDER_LIMIT says otherwise. */
const PROVIDER_LIMIT_SET = Boolean(process.env.BENCH_EVALS_PROVIDER_LIMIT?.trim());
const PROVIDER_LIMIT = setting("BENCH_EVALS_PROVIDER_LIMIT", DEFAULT_PROVIDER_CONCURRENCY);
const TURNS = 3;
const MODEL_MS = 1_000;

export interface EvalsResult {
  cases: number;
  turns: number;
  passed: number;
  wallMs: number;
  idealMs: number;
  cpuMsPerCaseTurn: number;
}

/**
 * The k-th model call of every case thread, per side (the agent's, the simulated user's), as offsets
 * from the run's start: how long the cases took to start, and what each turn added beyond its model.
 */
async function timeline(
  sql: BenchRuntime["raw"]["sql"],
  projectId: string,
  startedAtMs: number,
): Promise<(string | number)[][]> {
  const rows = await sql.query<{
    side: string;
    k: number;
    s50: number;
    smax: number;
    e50: number | null;
    emax: number | null;
  }>(
    `WITH calls AS (
       SELECT c.side, row_number() OVER (PARTITION BY c.thread_id, c.side ORDER BY c.created_at) AS k,
         c.created_at / 1000.0 - $2 AS starts, c.created_at / 1000.0 + c.latency_ms - $2 AS ends
       FROM model_calls c JOIN threads t ON t.id = c.thread_id
       WHERE t.project_id = $1 AND t.parent_id IS NULL)
     SELECT side, k::int, percentile_cont(0.5) WITHIN GROUP (ORDER BY starts) AS s50, max(starts) AS smax,
       percentile_cont(0.5) WITHIN GROUP (ORDER BY ends) AS e50, max(ends) AS emax
     FROM calls GROUP BY side, k
     UNION ALL
     SELECT 'created', 0, percentile_cont(0.5) WITHIN GROUP (ORDER BY created_at / 1000.0 - $2), max(created_at / 1000.0 - $2),
       NULL, NULL
     FROM threads WHERE project_id = $1 AND parent_id IS NULL
     ORDER BY s50`,
    [projectId, startedAtMs],
  );
  const ms = (value: number | null) => (value === null ? "" : Math.round(Number(value)));
  return rows.map((row) => [
    row.side === "created"
      ? "case thread created"
      : `${row.side === EVAL_CALL_SIDES.simulatedUser ? "simulated user" : `agent (side ${row.side})`} call ${row.k}`,
    ms(row.s50),
    ms(row.smax),
    ms(row.e50),
    ms(row.emax),
  ]);
}

export async function runEvals(cluster: Cluster, baseline: BaselineResult | null): Promise<EvalsResult> {
  section(
    `Evals: ${CASES} cases × ${TURNS} turns, a simulated user each, against a model answering in ${MODEL_MS / 1000} s (concurrency ${CONCURRENCY}, scripted provider limit ${PROVIDER_LIMIT}${PROVIDER_LIMIT_SET ? ", BENCH_EVALS_PROVIDER_LIMIT" : ", the default"}, one process)`,
  );
  const limitVariable = providerConcurrencyVariable("scripted");
  const previousLimit = process.env[limitVariable];
  if (PROVIDER_LIMIT_SET) process.env[limitVariable] = String(PROVIDER_LIMIT);
  else delete process.env[limitVariable];
  const bench = await openBenchRuntime(cluster, {
    database: "bench_evals",
    // As many threads at once as conversations: the step slots are not what is measured.
    concurrency: Math.max(64, CONCURRENCY),
    bundle: {
      agents: [{ name: "support", type: "ai_human", sideA: { label: "Support", prompt: "support_prompt" } }],
      prompts: [
        {
          name: "support_prompt",
          toolDescription: "Answer the customer.",
          prompt: "Answer briefly.",
          model: "agent",
          includeChat: true,
        },
      ],
      models: [
        {
          name: "agent",
          provider: "scripted",
          model: "scripted",
          script: Array.from({ length: TURNS }, (_, turn) => ({
            text: `Answer ${turn + 1}: {{input}}`,
            delayMs: MODEL_MS,
          })),
        },
        {
          name: "customer",
          provider: "scripted",
          model: "scripted",
          script: Array.from({ length: TURNS }, (_, turn) => ({ text: `Question ${turn + 1}` })),
        },
      ],
      tools: [],
    } as never,
  });
  try {
    const { runtime, projectId } = bench;
    const suite = await runtime.evals.create(projectId, {
      name: "bench",
      agent_id: "support",
      assertions: [
        { type: "contains", value: `Answer ${TURNS}` },
        { type: "max_turns", value: TURNS },
      ],
      cases: Array.from({ length: CASES }, (_, index) => ({
        name: `case ${index}`,
        input: { simulated_user: { prompt: "You are a customer.", model: "customer", max_turns: TURNS } },
      })),
    });
    await runtime.scheduler.start();
    bench.statements.clear();
    const statementsBefore = bench.counters.statements;
    const transactionsBefore = bench.counters.transactions;
    const writesBefore = socketWrites();
    const cpuBefore = ownCpuMs();
    const postgresCpuBefore = cluster.cpuMs();
    const startedAt = Date.now();
    // Waits for the run's `run` event (as the SSE stream would), reading the run back once a second
    // as well: polling every result row often would add the benchmark's own reads to the CPU measured.
    const finished = await profiled("evals", async () => {
      const started = await runtime.evals.startRun(projectId, suite.id, {
        repetitions: 1,
        concurrency: CONCURRENCY,
      });
      let ended = false;
      let wake = () => {};
      const unsubscribe = runtime.evals.subscribe(started.id, (event) => {
        if (event.event === "run") {
          ended = true;
          wake();
        }
      });
      try {
        await waitUntil(
          `the eval run of ${CASES} cases to finish`,
          async () => {
            if (!ended) {
              await new Promise<void>((resolve) => {
                const timer = setTimeout(resolve, 1_000);
                wake = () => {
                  clearTimeout(timer);
                  resolve();
                };
              });
            }
            return ended || (await runtime.evals.getRun(started.id)).status !== "running";
          },
          300_000,
          0,
        );
      } finally {
        unsubscribe();
      }
      return runtime.evals.getRun(started.id);
    });
    const wallMs = Date.now() - startedAt;
    const cpuMs = ownCpuMs() - cpuBefore;
    const postgresCpuMs = cluster.cpuMs() - postgresCpuBefore;
    const idealMs = TURNS * MODEL_MS;
    const caseTurns = CASES * TURNS;
    const statements = bench.counters.statements - statementsBefore;
    const transactions = bench.counters.transactions - transactionsBefore;
    const writes = socketWrites() - writesBefore;
    const result: EvalsResult = {
      cases: CASES,
      turns: TURNS,
      passed: finished.summary.passed,
      wallMs,
      idealMs,
      cpuMsPerCaseTurn: cpuMs / caseTurns,
    };
    printTable(
      `${CASES} cases × ${TURNS} turns (ideal ${idealMs / 1000} s: ${TURNS} model answers of ${MODEL_MS / 1000} s)`,
      ["measure", "value"],
      [
        ["run status", finished.status],
        ["cases passed", `${finished.summary.passed}/${finished.summary.cases}`],
        ["wall time (s)", wallMs / 1000],
        ["wall time / ideal", wallMs / idealMs],
        [
          "provider gate floor (s): ⌈concurrency / limit⌉ × turns × model",
          (Math.ceil(CONCURRENCY / PROVIDER_LIMIT) * idealMs) / 1000,
        ],
        ["case latency p50 (ms)", finished.summary.latency_p50_ms],
        ["case latency p95 (ms)", finished.summary.latency_p95_ms],
        ["Tandem CPU, this process (s)", cpuMs / 1000],
        ["Tandem CPU per case turn (ms)", result.cpuMsPerCaseTurn],
        ["Postgres CPU (s)", postgresCpuMs / 1000],
        ["statements per case turn (runner + runtime)", statements / caseTurns],
        ["transactions per case turn", transactions / caseTurns],
        ["socket writes per case turn", writes / caseTurns],
      ],
    );
    printTable(
      "The statements of the run, per case turn (most time first)",
      ["statement", "per turn", "ms per turn", "ms each"],
      topStatements(bench.statements, 14).map((entry) => [
        entry.statement.length > 70 ? `${entry.statement.slice(0, 69)}…` : entry.statement,
        entry.count / caseTurns,
        entry.ms / caseTurns,
        entry.ms / entry.count,
      ]),
    );
    printTable(
      "Where the wall time goes: each call's start and end, ms from the run's start (p50 / max over the cases)",
      ["call", "starts p50", "starts max", "ends p50", "ends max"],
      await timeline(bench.raw.sql, projectId, startedAt),
    );
    printBaselineBeside("Evals", baseline, (measured) => [
      ["single-row INSERT/s, one connection", measured.insertOneConnection.perSecond],
      ["BEGIN; INSERT; COMMIT/s, ten connections", measured.transactionTenConnections.perSecond],
    ]);
    return result;
  } finally {
    await bench.close();
    if (previousLimit === undefined) delete process.env[limitVariable];
    else process.env[limitVariable] = previousLimit;
  }
}
