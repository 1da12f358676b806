// Benchmark 10, load in one process (issue: reliability and scale-out):
//   a) 1,000 concurrent threads: 1,000 ai_human threads whose model answers after LATENCY_MS (as a real
//      provider would), all in flight at once in one process at the runtime's default step concurrency
//      (64: a step waiting on its model gives its slot up) with the scripted provider's concurrency
//      limit raised to 1,000 (a local "provider" that takes any load): time until every thread has
//      answered twice, event-loop delay meanwhile, peak memory;
//   b) a 5,001-thread tree (1 → 50 → 4,950 dual_ai workers), run to completion, and the registry,
//      tree and thread queries at that size (BENCH_LOAD_TREE=0 skips it).
// BENCH_LOAD_CONCURRENCY sets 10a's step concurrency instead of the default.
import { monitorEventLoopDelay } from "node:perf_hooks";
import type { Bundle } from "@/lib/standard";
import { providerConcurrencyVariable } from "@/runtime/models/provider-limits";
import { SCHEDULER_DEFAULTS } from "@/runtime/scheduler/settings";
import { monotonicMs, sleep } from "../test/support/clock";
import { topStatements } from "../test/support/instrumented-database";
import type { BaselineResult } from "./baseline";
import type { Cluster } from "./cluster";
import { printTable, section } from "./format";
import {
  type BenchRuntime,
  countThreads,
  createThreads,
  openBenchRuntime,
  type ResourceUse,
  resourceUse,
  snapshot,
  waitUntil,
} from "./harness";
import { profiled } from "./profile";
import { type Summary, summarize } from "./stats";
import { buildThreadTree, MemorySampler, QUERY_REPEATS, timed, treeBundle } from "./subagents";

/** A whole number ≥ 1 from the environment, or `fallback`; anything else stops the bench with its name. */
function positiveSetting(name: string, fallback: number): number {
  const raw = process.env[name]?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1)
    throw new Error(`${name} must be a whole number ≥ 1; got "${raw}".`);
  return value;
}

/** BENCH_LOAD_THREADS runs 10a with fewer (or more) threads, e.g. to see latency apart from CPU. */
const CONCURRENT_THREADS = positiveSetting("BENCH_LOAD_THREADS", 1_000);
const LATENCY_MS = 1_000;
/**
 * How many of 10a's creations (then messages) the client sends at once, each batch after the last
 * one answered. BENCH_LOAD_CLIENT_PARALLEL=1000 sends them all at once (a burst; docs/benchmarks.md).
 */
const CLIENT_PARALLEL = positiveSetting("BENCH_LOAD_CLIENT_PARALLEL", 50);
/** The scripted provider's concurrency limit in 10a (TANDEM_PROVIDER_CONCURRENCY_SCRIPTED). */
const SCRIPTED_PROVIDER_LIMIT = CONCURRENT_THREADS;
const BIG_TREE = { children: 50, grandchildren: 99 }; // 1 + 50 + 50 × 99 = 5,001 threads

export interface LoadResult {
  concurrent: {
    threads: number;
    latencyMs: number;
    /** Step concurrency (TANDEM_CONCURRENCY) and the scripted provider's limit of the run. */
    concurrency: number;
    providerLimit: number;
    /** Both turns of every thread, from the first create to the last idle. */
    wallMs: number;
    /** From the first create until every thread had its first answer (creation included). */
    firstTurnMs: number;
    /** The same work with no runtime overhead at all: two model latencies. */
    idealMs: number;
    eventLoopDelay: { p50: number; p99: number; max: number };
    peakRssMiB: number;
    peakHeapMiB: number;
    resources: ResourceUse;
    /** The runtime's statements over the run, most time first. */
    statements: { statement: string; count: number; ms: number }[];
    /** Where each thread-turn's time went, from the stored rows (ms). */
    timeline: TurnTimeline;
  };
  /** Null when BENCH_LOAD_TREE=0 skipped it. */
  tree: {
    threads: number;
    wallMs: number;
    peakRssMiB: number;
    registry: Summary;
    tree: Summary;
    thread: Summary;
    resources: ResourceUse;
    statements: { statement: string; count: number; ms: number }[];
  } | null;
}

/**
 * Each thread-turn split into its parts, read back from the rows the run wrote: from the user's
 * message to the model call's start (waiting for a slot and the step before the call), the model
 * call itself, and from the model's answer to the reply's commit. `posted` spreads each turn's
 * user messages from that turn's first one (how fast the API took 1,000 creations, then 1,000
 * messages).
 */
export interface TurnTimeline {
  posted: [Summary, Summary];
  toModelStart: Summary;
  model: Summary;
  toReplyCommitted: Summary;
}

async function turnTimeline(sql: BenchRuntime["raw"]["sql"]): Promise<TurnTimeline> {
  const messages = await sql.query<{ thread_id: string; role: string; created_at: string }>(
    "SELECT thread_id, role, created_at FROM messages WHERE role IN ('user', 'assistant') ORDER BY thread_id, seq",
  );
  const calls = await sql.query<{ thread_id: string; created_at: string; latency_ms: number }>(
    "SELECT thread_id, created_at, latency_ms FROM model_calls ORDER BY thread_id, created_at",
  );
  const byThread = new Map<string, { user: number[]; assistant: number[]; calls: [number, number][] }>();
  const entry = (id: string) => {
    const found = byThread.get(id);
    if (found) return found;
    const created = { user: [] as number[], assistant: [] as number[], calls: [] as [number, number][] };
    byThread.set(id, created);
    return created;
  };
  for (const row of messages)
    entry(row.thread_id)[row.role === "user" ? "user" : "assistant"].push(Number(row.created_at) / 1000);
  for (const row of calls)
    entry(row.thread_id).calls.push([Number(row.created_at) / 1000, Number(row.latency_ms)]);
  const firstPost = [0, 1].map((turn) =>
    Math.min(...[...byThread.values()].map((thread) => thread.user[turn] ?? Number.POSITIVE_INFINITY)),
  );
  const parts = {
    posted: [[], []] as number[][],
    toModelStart: [] as number[],
    model: [] as number[],
    toReplyCommitted: [] as number[],
  };
  for (const thread of byThread.values()) {
    thread.calls.forEach(([start, latency], turn) => {
      const posted = thread.user[turn];
      const replied = thread.assistant[turn];
      if (posted === undefined || replied === undefined) return;
      parts.posted[turn]?.push(posted - firstPost[turn]!);
      parts.toModelStart.push(start - posted);
      parts.model.push(latency);
      parts.toReplyCommitted.push(replied - (start + latency));
    });
  }
  return {
    posted: [summarize(parts.posted[0]!), summarize(parts.posted[1]!)],
    toModelStart: summarize(parts.toModelStart),
    model: summarize(parts.model),
    toReplyCommitted: summarize(parts.toReplyCommitted),
  };
}

function slowChatBundle(): Bundle {
  return {
    agents: [{ name: "chat", type: "ai_human", sideA: { label: "Assistant", prompt: "chat_prompt" } }],
    prompts: [
      {
        name: "chat_prompt",
        toolDescription: "Answer the user.",
        prompt: "You are a benchmark assistant. Answer briefly.",
        model: "slow_model",
        includeChat: true,
      },
    ],
    models: [
      {
        name: "slow_model",
        provider: "scripted",
        model: "scripted",
        script: [
          { text: "First answer to {{input}}", delayMs: LATENCY_MS },
          { text: "Second answer to {{input}}", delayMs: LATENCY_MS },
        ],
      },
    ],
    tools: [],
  } as unknown as Bundle;
}

async function runConcurrent(cluster: Cluster): Promise<LoadResult["concurrent"]> {
  const limitVariable = providerConcurrencyVariable("scripted");
  const previousLimit = process.env[limitVariable];
  process.env[limitVariable] = String(SCRIPTED_PROVIDER_LIMIT);
  const bench = await openBenchRuntime(cluster, {
    database: "bench_load_concurrent",
    bundle: slowChatBundle(),
    // BENCH_LOAD_CONCURRENCY compares other step concurrencies (the old bench ran 10a at 1,000).
    concurrency: Number(process.env.BENCH_LOAD_CONCURRENCY ?? SCHEDULER_DEFAULTS.concurrency),
    maxConnections: 20,
  });
  try {
    await bench.runtime.scheduler.start();
    global.gc?.();
    const before = await snapshot(cluster, bench);
    const memory = new MemorySampler();
    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    bench.statements.clear();
    const started = monotonicMs();
    const { firstTurnMs, wallMs } = await profiled("load-concurrent", async () => {
      const ids = await createThreads(
        bench,
        CONCURRENT_THREADS,
        "chat",
        (index) => `question ${index}`,
        CLIENT_PARALLEL,
      );
      await waitUntil(
        "every thread's first answer",
        async () => (await countThreads(bench.raw.sql, ["idle"])) === CONCURRENT_THREADS,
        300_000,
        50,
      );
      const firstTurnMs = monotonicMs() - started;
      for (let batch = 0; batch < ids.length; batch += CLIENT_PARALLEL) {
        await Promise.all(
          ids
            .slice(batch, batch + CLIENT_PARALLEL)
            .map((id) => bench.runtime.threads.postMessage(id, { content: "again" })),
        );
      }
      await sleep(50);
      await waitUntil(
        "every thread's second answer",
        async () => {
          const rows = await bench.raw.sql.query<{ value: number }>(
            "SELECT count(*)::int AS value FROM messages WHERE content LIKE 'Second answer%'",
          );
          return Number(rows[0]?.value ?? 0) === CONCURRENT_THREADS;
        },
        300_000,
        50,
      );
      return { firstTurnMs, wallMs: monotonicMs() - started };
    });
    delay.disable();
    memory.stop();
    const after = await snapshot(cluster, bench);
    return {
      threads: CONCURRENT_THREADS,
      latencyMs: LATENCY_MS,
      concurrency: bench.concurrency,
      providerLimit: SCRIPTED_PROVIDER_LIMIT,
      wallMs,
      firstTurnMs,
      idealMs: 2 * LATENCY_MS,
      eventLoopDelay: {
        p50: delay.percentile(50) / 1e6,
        p99: delay.percentile(99) / 1e6,
        max: delay.max / 1e6,
      },
      peakRssMiB: memory.peakRss / 1024 ** 2,
      peakHeapMiB: memory.peakHeap / 1024 ** 2,
      resources: resourceUse(before, after),
      statements: topStatements(bench.statements, 16),
      timeline: await turnTimeline(bench.raw.sql),
    };
  } finally {
    await bench.close();
    if (previousLimit === undefined) delete process.env[limitVariable];
    else process.env[limitVariable] = previousLimit;
  }
}

async function runBigTree(cluster: Cluster): Promise<NonNullable<LoadResult["tree"]>> {
  const bench = await openBenchRuntime(cluster, {
    database: "bench_load_tree",
    bundle: treeBundle(BIG_TREE.children, BIG_TREE.grandchildren),
    concurrency: 32,
    maxConnections: 20,
  });
  const threads = 1 + BIG_TREE.children + BIG_TREE.children * BIG_TREE.grandchildren;
  try {
    await bench.runtime.scheduler.start();
    const memory = new MemorySampler();
    const before = await snapshot(cluster, bench);
    bench.statements.clear();
    const started = monotonicMs();
    const rootId = await profiled("load-tree", () => buildThreadTree(bench, threads));
    const wallMs = monotonicMs() - started;
    memory.stop();
    const resources = resourceUse(before, await snapshot(cluster, bench));
    const statements = topStatements(bench.statements, 16);
    await sleep(200);
    return {
      threads,
      wallMs,
      peakRssMiB: memory.peakRss / 1024 ** 2,
      resources,
      statements,
      registry: await timed(QUERY_REPEATS, () => bench.runtime.threads.children(rootId)),
      tree: await timed(QUERY_REPEATS, () => bench.runtime.threads.tree(rootId)),
      thread: await timed(QUERY_REPEATS, () => bench.runtime.threads.get(rootId)),
    };
  } finally {
    await bench.close();
  }
}

export async function runLoad(cluster: Cluster, baseline: BaselineResult | null): Promise<LoadResult> {
  section("10. Load in one process: 1,000 concurrent threads, a 5,001-thread tree");
  const concurrent = await runConcurrent(cluster);
  console.log(
    `  ${concurrent.threads} concurrent threads: both answers in ${(concurrent.wallMs / 1000).toFixed(2)} s`,
  );
  const tree = process.env.BENCH_LOAD_TREE === "0" ? null : await runBigTree(cluster);
  if (tree)
    console.log(`  ${tree.threads}-thread tree: run to completion in ${(tree.wallMs / 1000).toFixed(1)} s`);
  const result = { concurrent, tree };
  printLoad(result, baseline);
  return result;
}

/** What one thread-turn of 10a cost on average (creation and input included). */
function perTurn(concurrent: LoadResult["concurrent"]): string {
  const turns = 2 * concurrent.threads;
  const { resources } = concurrent;
  return [
    (resources.nodeCpuMs / turns).toFixed(2),
    (resources.postgresCpuMs / turns).toFixed(2),
    (resources.counters.statements / turns).toFixed(1),
    (resources.counters.transactions / turns).toFixed(1),
    (resources.socketWrites / turns).toFixed(1),
  ].join(" / ");
}

export function printLoad(result: LoadResult, baseline: BaselineResult | null): void {
  const { concurrent, tree } = result;
  printTable(
    `10a. ${concurrent.threads} ai_human threads in flight at once (model latency ${concurrent.latencyMs} ms, 2 turns each; step concurrency ${concurrent.concurrency}${concurrent.concurrency === SCHEDULER_DEFAULTS.concurrency ? " (the default)" : ""}, scripted provider limit ${concurrent.providerLimit}, pool 20)`,
    ["measure", "value"],
    [
      ["both answers of every thread, s", concurrent.wallMs / 1000],
      ["of which: creation and every first answer, s", concurrent.firstTurnMs / 1000],
      ["the same with no runtime overhead (2 × latency), s", concurrent.idealMs / 1000],
      ["target, s (event-loop p99 ≤ 50 ms)", "≤ 3 (ideal 2)"],
      ["steps/s", (2 * concurrent.threads) / (concurrent.wallMs / 1000)],
      [
        "event-loop delay p50 / p99 / max, ms",
        `${concurrent.eventLoopDelay.p50.toFixed(1)} / ${concurrent.eventLoopDelay.p99.toFixed(1)} / ${concurrent.eventLoopDelay.max.toFixed(1)}`,
      ],
      ["peak RSS / heap, MiB", `${concurrent.peakRssMiB.toFixed(0)} / ${concurrent.peakHeapMiB.toFixed(0)}`],
      [
        "runtime / Postgres CPU, cores",
        `${concurrent.resources.nodeCores.toFixed(2)} / ${concurrent.resources.postgresCores.toFixed(2)}`,
      ],
      ["other processes' CPU meanwhile (noise), cores", concurrent.resources.otherCores],
      ["per turn: runtime / Postgres CPU ms, statements, transactions, socket writes", perTurn(concurrent)],
    ],
  );
  const { timeline } = concurrent;
  printTable(
    "10a. Where a thread-turn's time went (from the stored rows)",
    ["part", "p50 ms", "p90 ms", "p99 ms", "max ms"],
    [
      ["first turn: thread created, after the first one", timeline.posted[0]],
      ["second turn: message posted, after the first one", timeline.posted[1]],
      ["posted → model call started (slot, claim, step)", timeline.toModelStart],
      ["model call", timeline.model],
      ["model answered → reply committed", timeline.toReplyCommitted],
    ].map(([label, summary]) => {
      const { p50, p90, p99, max } = summary as Summary;
      return [label as string, p50, p90, p99, max];
    }),
  );
  const turns = 2 * concurrent.threads;
  printTable(
    "10a. The runtime's statements, per thread-turn (most time first)",
    ["statement", "per turn", "ms per turn", "ms each"],
    concurrent.statements.map((entry) => [
      entry.statement.length > 70 ? `${entry.statement.slice(0, 69)}…` : entry.statement,
      entry.count / turns,
      entry.ms / turns,
      entry.ms / entry.count,
    ]),
  );
  if (tree)
    printTable(
      `10b. A ${tree.threads}-thread tree (1 → ${BIG_TREE.children} → ${BIG_TREE.children * BIG_TREE.grandchildren}), scheduler concurrency 32, pool 20`,
      ["measure", "p50 ms", "p99 ms", "max ms"],
      [
        ["whole tree run to completion", tree.wallMs, "", ""],
        [
          `registry of the root (${BIG_TREE.children} children)`,
          tree.registry.p50,
          tree.registry.p99,
          tree.registry.max,
        ],
        [
          `tree of the root (${tree.threads} nodes, usage rolled up)`,
          tree.tree.p50,
          tree.tree.p99,
          tree.tree.max,
        ],
        [
          "thread view of the root (registry + subtree usage)",
          tree.thread.p50,
          tree.thread.p99,
          tree.thread.max,
        ],
      ],
    );
  if (tree) {
    const { resources } = tree;
    console.log(
      `  10b per thread: runtime / Postgres CPU ${(resources.nodeCpuMs / tree.threads).toFixed(2)} / ${(resources.postgresCpuMs / tree.threads).toFixed(2)} ms, ${(resources.counters.statements / tree.threads).toFixed(1)} statements, ${(resources.counters.transactions / tree.threads).toFixed(1)} transactions, ${(resources.socketWrites / tree.threads).toFixed(1)} socket writes; runtime / Postgres ${resources.nodeCores.toFixed(2)} / ${resources.postgresCores.toFixed(2)} cores, others ${resources.otherCores.toFixed(2)}`,
    );
    printTable(
      "10b. The runtime's statements, per thread (most time first)",
      ["statement", "per thread", "ms per thread", "ms each"],
      tree.statements.map((entry) => [
        entry.statement.length > 70 ? `${entry.statement.slice(0, 69)}…` : entry.statement,
        entry.count / tree.threads,
        entry.ms / tree.threads,
        entry.ms / entry.count,
      ]),
    );
  }
  if (baseline) {
    console.log(
      `  database baseline in the same run: ${baseline.insertOneConnection.perSecond.toFixed(0)} INSERT+COMMIT rows/s on one connection, ${baseline.insertTenConnections.perSecond.toFixed(0)} on ten`,
    );
  }
}
