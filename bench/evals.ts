// Benchmark: an eval run at scale (issue 42; docs/evals.md). One suite of CASES cases, each a
// simulated user (a scripted model answering at once) talking TURNS turns with an agent whose
// scripted model answers each turn after MODEL_MS, all CASES conversations at once (concurrency =
// CASES) in this one process. Ideal wall time: TURNS × MODEL_MS (every conversation waits for its
// model TURNS times, and nothing else). Measured: the run's wall time against that ideal, and
// Tandem's own CPU (this process: runner + runtime) per case turn, beside the database baseline.
// BENCH_EVALS_CASES and BENCH_EVALS_CONCURRENCY change the scale.
import { type BaselineResult, printBaselineBeside } from "./baseline";
import type { Cluster } from "./cluster";
import { ownCpuMs } from "./cpu";
import { printTable, section } from "./format";
import { openBenchRuntime, waitUntil } from "./harness";

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
    `Evals: ${CASES} cases × ${TURNS} turns, a simulated user each, against a model answering in ${MODEL_MS / 1000} s (concurrency ${CONCURRENCY}, one process)`,
  );
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
    const cpuBefore = ownCpuMs();
    const startedAt = Date.now();
    const started = await runtime.evals.startRun(projectId, suite.id, {
      repetitions: 1,
      concurrency: CONCURRENCY,
    });
    let finished = await runtime.evals.getRun(started.id);
    await waitUntil(
      `the eval run of ${CASES} cases to finish`,
      async () => {
        finished = await runtime.evals.getRun(started.id);
        return finished.status !== "running";
      },
      300_000,
      50,
    );
    const wallMs = Date.now() - startedAt;
    const cpuMs = ownCpuMs() - cpuBefore;
    const idealMs = TURNS * MODEL_MS;
    const result: EvalsResult = {
      cases: CASES,
      turns: TURNS,
      passed: finished.summary.passed,
      wallMs,
      idealMs,
      cpuMsPerCaseTurn: cpuMs / (CASES * TURNS),
    };
    printTable(
      `${CASES} cases × ${TURNS} turns (ideal ${idealMs / 1000} s: ${TURNS} model answers of ${MODEL_MS / 1000} s)`,
      ["measure", "value"],
      [
        ["run status", finished.status],
        ["cases passed", `${finished.summary.passed}/${finished.summary.cases}`],
        ["wall time (s)", wallMs / 1000],
        ["wall time / ideal", wallMs / idealMs],
        ["case latency p50 (ms)", finished.summary.latency_p50_ms],
        ["case latency p95 (ms)", finished.summary.latency_p95_ms],
        ["Tandem CPU, this process (s)", cpuMs / 1000],
        ["Tandem CPU per case turn (ms)", result.cpuMsPerCaseTurn],
      ],
    );
    printBaselineBeside("Evals", baseline, (measured) => [
      ["single-row INSERT/s, one connection", measured.insertOneConnection.perSecond],
      ["BEGIN; INSERT; COMMIT/s, ten connections", measured.transactionTenConnections.perSecond],
    ]);
    return result;
  } finally {
    await bench.close();
  }
}
