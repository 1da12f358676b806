// Benchmark: an eval run at scale (issue 42; docs/evals.md). One suite of CASES cases, each a
// simulated user (a scripted model answering at once) talking TURNS turns with an agent whose
// scripted model answers each turn after MODEL_MS, all CASES conversations at once (concurrency =
// CASES) in this one process. Ideal wall time: TURNS × MODEL_MS (every conversation waits for its
// model TURNS times, and nothing else). Measured: the run's wall time against that ideal, and
// Tandem's own CPU (this process: runner + runtime) per case turn, beside the database baseline.
// BENCH_EVALS_CASES and BENCH_EVALS_CONCURRENCY change the scale. The scripted provider's limit of
// calls at once (TANDEM_PROVIDER_CONCURRENCY_SCRIPTED) is set to the concurrency, as in load 10a: at
// the default 256, the provider gate alone holds 500 cases to two waves a turn (a 6 s floor), and it
// is the run's bookkeeping that is measured here, not the gate (docs/benchmarks.md, session 40).
// BENCH_EVALS_PROVIDER_LIMIT sets another limit (256 shows the default's floor).

import { providerConcurrencyVariable } from "@/runtime/models/provider-limits";
import { topStatements } from "../test/support/instrumented-database";
import { type BaselineResult, printBaselineBeside } from "./baseline";
import type { Cluster } from "./cluster";
import { ownCpuMs } from "./cpu";
import { printTable, section } from "./format";
import { openBenchRuntime, waitUntil } from "./harness";
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
const PROVIDER_LIMIT = setting("BENCH_EVALS_PROVIDER_LIMIT", CONCURRENCY);
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

export async function runEvals(cluster: Cluster, baseline: BaselineResult | null): Promise<EvalsResult> {
  section(
    `Evals: ${CASES} cases × ${TURNS} turns, a simulated user each, against a model answering in ${MODEL_MS / 1000} s (concurrency ${CONCURRENCY}, scripted provider limit ${PROVIDER_LIMIT}, one process)`,
  );
  const limitVariable = providerConcurrencyVariable("scripted");
  const previousLimit = process.env[limitVariable];
  process.env[limitVariable] = String(PROVIDER_LIMIT);
  const bench = await openBenchRuntime(cluster, {
    database: "bench_evals",
    // As many threads at once as conversations: the step slots are not what is measured.
    concurrency: Math.max(64, CONCURRENCY),
    maxConnections: 20,
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
