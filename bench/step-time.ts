// Benchmark 2, wall time per step on one thread with every step persisted:
//   a) a dual_ai thread running 2 × TURNS steps back to back (no human in the loop): the time from
//      one step's model call to the next one's, measured in this process at µs resolution, and
//      cross-checked against the persisted messages' created_at (ms resolution); after an unmeasured
//      warm-up dialogue of the same shape in the same process (steady state, as in a server);
//   b) an ai_human thread driven turn by turn: post a message, wait until the thread is idle again.

import { chatBundle, dialogueBundle } from "../test/support/bench-bundles";
import { monotonicMs } from "../test/support/clock";
import { topStatements } from "../test/support/instrumented-database";
import { type BaselineResult, printBaselineBeside } from "./baseline";
import type { Cluster } from "./cluster";
import { type Cell, printTable, SUMMARY_HEADER, section, summaryCells } from "./format";
import {
  type BenchRuntime,
  countThreads,
  ModelCallProbe,
  openBenchRuntime,
  type ResourceUse,
  resourceUse,
  snapshot,
  startWarmChat,
  waitForStatus,
  waitUntil,
} from "./harness";
import { profiled } from "./profile";
import { intervals, type Summary, summarize } from "./stats";

const DIALOGUE_TURNS = 100; // 200 steps
const CHAT_TURNS = 200;

export interface StepTimeResult {
  steps: number;
  /** Model call → next model call, client clock (µs resolution). */
  clientStep: Summary;
  /** Consecutive persisted step messages' created_at (ms resolution). */
  persistedStep: Summary;
  /** Client step time of the first and last quarter of the thread (history grows). */
  firstQuarter: Summary;
  lastQuarter: Summary;
  resources: ResourceUse;
  /** The statements the dialogue spent most time awaiting. */
  statements: { statement: string; count: number; ms: number }[];
  /** ai_human: post → idle observed, per turn. */
  chatTurn: Summary;
  chatResources: ResourceUse;
  chatStatements: { statement: string; count: number; ms: number }[];
}

export async function runStepTime(
  cluster: Cluster,
  baseline: BaselineResult | null,
): Promise<StepTimeResult> {
  section("2. Wall time per step, one thread");
  const dialogue = await runDialogue(cluster);
  const chat = await runChat(cluster);
  const result: StepTimeResult = { ...dialogue, ...chat };
  printStepTime(result, baseline);
  return result;
}

/**
 * A dialogue of the same shape run to its end first, on its own database, unmeasured: the
 * process's JIT compiles the step's code as it would in a server that has been up for a while,
 * so the measured dialogue shows the steady state (the first quarter is reported separately).
 */
async function warmUp(cluster: Cluster): Promise<void> {
  const bench = await openBenchRuntime(cluster, {
    database: "bench_step_warm_up",
    bundle: dialogueBundle(DIALOGUE_TURNS),
  });
  try {
    await bench.runtime.threads.create({
      projectId: bench.projectId,
      agentName: "dialogue",
      message: "Warm up.",
    });
    await bench.runtime.scheduler.start();
    await waitUntil(
      "the warm-up dialogue to end",
      async () => (await countThreads(bench.raw.sql, ["stopped", "completed", "failed"])) === 1,
      120_000,
      50,
    );
  } finally {
    await bench.close();
  }
}

async function runDialogue(cluster: Cluster) {
  await warmUp(cluster);
  const bench = await openBenchRuntime(cluster, {
    database: "bench_step_dialogue",
    bundle: dialogueBundle(DIALOGUE_TURNS),
  });
  try {
    const { runtime } = bench;
    const { threadId } = await runtime.threads.create({
      projectId: bench.projectId,
      agentName: "dialogue",
      message: "Start the dialogue.",
    });
    const probe = new ModelCallProbe(runtime);
    await probe.watch(threadId);
    const before = await snapshot(cluster, bench);
    bench.statements.clear();
    await profiled("steps-dialogue", async () => {
      await runtime.scheduler.start();
      // A slow poll, so the wait itself puts no load on the thread being measured.
      await waitUntil(
        "the dialogue to end",
        async () => (await countThreads(bench.raw.sql, ["stopped", "completed", "failed"])) === 1,
        120_000,
        50,
      );
    });
    const after = await snapshot(cluster, bench);
    probe.close();
    const calls = probe.calls.get(threadId) ?? [];
    const steps = calls.length;
    if (steps !== DIALOGUE_TURNS * 2)
      throw new Error(`Expected ${DIALOGUE_TURNS * 2} model calls, saw ${steps}`);
    const clientIntervals = intervals(calls);
    const persisted = await bench.raw.sql.query<{ created_at: string }>(
      "SELECT created_at::text AS created_at FROM messages WHERE thread_id = $1 AND side IS NOT NULL ORDER BY seq",
      [threadId],
    );
    const persistedIntervals = intervals(persisted.map((row) => Number(row.created_at) / 1000));
    const quarter = Math.floor(clientIntervals.length / 4);
    return {
      steps,
      clientStep: summarize(clientIntervals),
      persistedStep: summarize(persistedIntervals),
      firstQuarter: summarize(clientIntervals.slice(0, quarter)),
      lastQuarter: summarize(clientIntervals.slice(-quarter)),
      resources: resourceUse(before, after),
      statements: topStatements(bench.statements, 8),
    };
  } finally {
    await bench.close();
  }
}

async function runChat(cluster: Cluster) {
  const bench: BenchRuntime = await openBenchRuntime(cluster, {
    database: "bench_step_chat",
    bundle: chatBundle(CHAT_TURNS + 1),
  });
  try {
    const { runtime } = bench;
    const threadId = await startWarmChat(bench);
    const turns: number[] = [];
    const before = await snapshot(cluster, bench);
    bench.statements.clear();
    for (let turn = 1; turn <= CHAT_TURNS; turn++) {
      const started = monotonicMs();
      await runtime.threads.postMessage(threadId, { content: `Question ${turn}` });
      const idleAt = await waitForStatus(bench, threadId, ["idle"]);
      turns.push(idleAt - started);
    }
    const after = await snapshot(cluster, bench);
    return {
      chatTurn: summarize(turns),
      chatResources: resourceUse(before, after),
      chatStatements: topStatements(bench.statements, 30),
    };
  } finally {
    await bench.close();
  }
}

/** Per-step cost lines shared by the step and throughput tables. */
export function perStepRows(resources: ResourceUse, steps: number): Cell[][] {
  const { counters } = resources;
  return [
    ["SQL statements per step", counters.statements / steps],
    ["  of which outside a transaction (autocommit)", counters.autocommitStatements / steps],
    ["explicit transactions per step (BEGIN…COMMIT)", counters.transactions / steps],
    ["socket writes to Postgres per step (≈ round trips)", resources.socketWrites / steps],
    ["WAL written per step (KiB)", resources.walBytes / 1024 / steps],
    ["runtime process CPU per step (ms)", resources.nodeCpuMs / steps],
    ["  of which the main thread busy (event loop) per step (ms)", resources.mainThreadBusyMs / steps],
    ["Postgres CPU per step (ms)", resources.postgresCpuMs / steps],
    ["runtime process CPU (cores busy)", resources.nodeCores],
    ["Postgres CPU (cores busy)", resources.postgresCores],
    ["other processes' CPU meanwhile (cores busy; noise)", resources.otherCores],
    ["hypervisor steal (cores)", resources.stealCores],
  ];
}

export function printStepTime(result: StepTimeResult, baseline: BaselineResult | null): void {
  printTable(
    `2a. dual_ai thread, ${result.steps} steps back to back, after a warm-up dialogue: time per step`,
    ["measure", ...SUMMARY_HEADER],
    [
      ["model call → next model call (client clock, µs res.)", ...summaryCells(result.clientStep)],
      ["persisted step messages' created_at (ms res.)", ...summaryCells(result.persistedStep)],
      [`  first ${result.firstQuarter.count} steps (client)`, ...summaryCells(result.firstQuarter)],
      [`  last ${result.lastQuarter.count} steps (client)`, ...summaryCells(result.lastQuarter)],
    ],
  );
  printTable(
    "2a. cost per step",
    ["measure", "value"],
    [
      ["steps per second (one thread)", (result.steps / result.resources.wallMs) * 1000],
      ...perStepRows(result.resources, result.steps),
      ["time awaiting SQL statements per step (ms)", result.resources.counters.statementMs / result.steps],
      ["time inside transactions per step (ms)", result.resources.counters.transactionMs / result.steps],
    ],
  );
  printTable(
    "2a. statements awaited longest (whole dialogue)",
    ["statement", "per step", "ms per step", "ms each"],
    result.statements.map((entry) => [
      entry.statement.length > 70 ? `${entry.statement.slice(0, 69)}…` : entry.statement,
      entry.count / result.steps,
      entry.ms / result.steps,
      entry.ms / entry.count,
    ]),
  );
  printTable(
    `2b. ai_human thread, ${result.chatTurn.count} sequential turns (one step each): post → idle seen`,
    ["measure", ...SUMMARY_HEADER],
    [["turn round trip (client clock)", ...summaryCells(result.chatTurn)]],
  );
  printTable(
    "2b. cost per turn (incl. the postMessage transaction; socket writes also count the benchmark's status reads)",
    ["measure", "value"],
    perStepRows(result.chatResources, result.chatTurn.count),
  );
  printTable(
    "2b. the runtime's statements per turn (the benchmark's own status reads excluded)",
    ["statement", "per turn", "ms per turn", "ms each"],
    result.chatStatements.map((entry) => [
      entry.statement.length > 70 ? `${entry.statement.slice(0, 69)}…` : entry.statement,
      entry.count / result.chatTurn.count,
      entry.ms / result.chatTurn.count,
      entry.ms / entry.count,
    ]),
  );
  printBaselineBeside("2. Step time", baseline, (base) => [
    ["one durable commit: INSERT + COMMIT p50 (ms)", base.insertOneConnection.latency?.p50 ?? Number.NaN],
    ["BEGIN; INSERT; COMMIT p50 (ms)", base.transactionOneConnection.latency?.p50 ?? Number.NaN],
    ["statement round trip, prepared, p50 (ms)", base.preparedStatement.latency?.p50 ?? Number.NaN],
    [
      "statement round trip, unprepared (runtime's path), p50 (ms)",
      base.unpreparedStatement.latency?.p50 ?? Number.NaN,
    ],
    [
      "DB latency floor of one such step: its transactions + other statements at the p50s above (ms)",
      (result.resources.counters.transactions / result.steps) *
        (base.transactionOneConnection.latency?.p50 ?? Number.NaN) +
        Math.max(
          0,
          (result.resources.counters.statements - result.resources.counters.transactions) / result.steps,
        ) *
          (base.unpreparedStatement.latency?.p50 ?? Number.NaN),
    ],
  ]);
}
