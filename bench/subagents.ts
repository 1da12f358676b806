// Benchmark 6, subagents: one ai_human parent fans out to N non-blocking dual_ai children in one
// step (scripted models, zero delay); the clock runs from the parent's first input until every
// child has reported exactly once and the parent's last turn has ended. Each fan-out runs in a
// runtime that has just run an unmeasured fan-out of WARM_UP_CHILDREN (as the deepagents peer does,
// bench/peers/deepagents.ts): a server in use has its connections open, its statements prepared
// and its code compiled; how long that first fan-out took is printed beside. Then a three-level tree of
// 1,000 threads, and the registry and tree queries at that size.
import type { Bundle } from "@/lib/standard";
import { monotonicMs, sleep } from "../test/support/clock";
import { topStatements } from "../test/support/instrumented-database";
import type { Cluster } from "./cluster";
import { printTable, section } from "./format";
import {
  type BenchRuntime,
  openBenchRuntime,
  type ResourceUse,
  resourceUse,
  snapshot,
  waitUntil,
} from "./harness";
import { profiled } from "./profile";
import { type Summary, summarize } from "./stats";

export const FAN_OUTS = [50, 200, 500] as const;
const TREE_CHILDREN = 27;
const TREE_GRANDCHILDREN = 36; // 1 + 27 + 27 × 36 = 1,000 threads
export const QUERY_REPEATS = 30;
/** The unmeasured fan-out each measured one follows, in the same runtime (the peer's warm-up is 5). */
const WARM_UP_CHILDREN = 5;

export interface FanOutRun {
  children: number;
  wallMs: number;
  /** From the parent's first input until the last child spawned (the spawning step's tool calls). */
  spawnMs: number;
  /** The unmeasured warm-up fan-out of WARM_UP_CHILDREN before it, in the same fresh runtime. */
  warmUpMs: number;
  peakRssMiB: number;
  peakHeapMiB: number;
  reports: number;
  resources: ResourceUse;
  /** The runtime's statements over the run, most time first. */
  statements: { statement: string; count: number; ms: number }[];
}

export interface TreeRun {
  threads: number;
  wallMs: number;
  registry: Summary;
  registryOfMiddle: Summary;
  tree: Summary;
  thread: Summary;
}

export interface SubagentResult {
  fanOuts: FanOutRun[];
  tree: TreeRun;
}

const side = (name: string, model: string, extra: Record<string, unknown> = {}) => ({
  name,
  toolDescription: `${name}.`,
  prompt: `You are ${name}. Answer briefly.`,
  model,
  includeChat: true,
  ...extra,
});

const scripted = (name: string, script: unknown[]) => ({
  name,
  provider: "scripted",
  model: "scripted",
  script,
});

const approve = { toolCalls: [{ name: "approve", args: { message: "Approved: {{input}}" } }] };

/** A worker/reviewer pair: side A drafts once, side B approves (two model steps, one report). */
const workerAgent = (name: string, sideAPrompt: string, sideBPrompt: string) => ({
  name,
  type: "dual_ai",
  maxSessionTurns: 50,
  exposeAsTool: true,
  toolDescription: `The ${name}.`,
  sideA: { label: "Worker", prompt: sideAPrompt, stopOnResponse: true },
  sideB: { label: "Reviewer", prompt: sideBPrompt, stopOnResponse: false, sessionStop: "approve" },
});

export function fanOutBundle(children: number): Bundle {
  return {
    agents: [
      { name: "orchestrator", type: "ai_human", sideA: { prompt: "orchestrate" } },
      workerAgent("worker", "draft", "review"),
    ],
    prompts: [
      side("orchestrate", "orchestrator_model", { tools: [{ name: "worker", blocking: false }] }),
      side("draft", "draft_model"),
      side("review", "review_model"),
    ],
    models: [
      scripted("orchestrator_model", [
        {
          toolCalls: Array.from({ length: children }, (_, index) => ({
            name: "worker",
            args: { message: `job ${index}` },
          })),
        },
        ...Array.from({ length: children + 1 }, () => ({ text: "noted" })),
      ]),
      scripted("draft_model", [{ text: "Draft for {{input}}" }]),
      scripted("review_model", [approve]),
    ],
    tools: [],
  } as unknown as Bundle;
}

/** Root → `children` middle children (each fans out to `grandchildren` leaves, then approves). */
export function treeBundle(children = TREE_CHILDREN, grandchildren = TREE_GRANDCHILDREN): Bundle {
  return {
    agents: [
      { name: "orchestrator", type: "ai_human", sideA: { prompt: "orchestrate" } },
      workerAgent("lead", "lead_draft", "lead_review"),
      workerAgent("worker", "draft", "review"),
    ],
    prompts: [
      side("orchestrate", "orchestrator_model", { tools: [{ name: "lead", blocking: false }] }),
      side("lead_draft", "lead_model", { tools: [{ name: "worker", blocking: false }] }),
      side("lead_review", "review_model"),
      side("draft", "draft_model"),
      side("review", "review_model"),
    ],
    models: [
      scripted("orchestrator_model", [
        {
          toolCalls: Array.from({ length: children }, (_, index) => ({
            name: "lead",
            args: { message: `area ${index}` },
          })),
        },
        ...Array.from({ length: children + 1 }, () => ({ text: "noted" })),
      ]),
      scripted("lead_model", [
        {
          toolCalls: Array.from({ length: grandchildren }, (_, index) => ({
            name: "worker",
            args: { message: `part ${index}` },
          })),
        },
        ...Array.from({ length: grandchildren + 1 }, () => ({ text: "parts noted" })),
      ]),
      scripted("draft_model", [{ text: "Draft for {{input}}" }]),
      scripted(
        "review_model",
        Array.from({ length: grandchildren + 2 }, () => approve),
      ),
    ],
    tools: [],
  } as unknown as Bundle;
}

/**
 * Peak RSS and heap while a measurement runs. Every 100 ms: `process.memoryUsage()` reads /proc and
 * walks the heap's spaces, and every 20 ms it cost the measured process 1–2 % of its CPU in 10a
 * (a CPU profile: 97–193 ms of a 6–10 s run), time the runtime was charged for.
 */
export class MemorySampler {
  peakRss = 0;
  peakHeap = 0;
  private readonly timer: NodeJS.Timeout;

  constructor() {
    this.sample();
    this.timer = setInterval(() => this.sample(), 100);
  }

  private sample(): void {
    const usage = process.memoryUsage();
    this.peakRss = Math.max(this.peakRss, usage.rss);
    this.peakHeap = Math.max(this.peakHeap, usage.heapUsed);
  }

  stop(): void {
    clearInterval(this.timer);
    this.sample();
  }
}

async function scalar(bench: BenchRuntime, sql: string, values: unknown[] = []): Promise<number> {
  const rows = await bench.raw.sql.query<{ value: number }>(sql, values as never[]);
  return Number(rows[0]?.value ?? 0);
}

/** Reports delivered to `parentId` (drained into its messages), and whether it has nothing left to do. */
export async function parentSettled(
  bench: BenchRuntime,
  parentId: string,
  expectedReports: number,
): Promise<boolean> {
  const reports = await scalar(
    bench,
    "SELECT count(*)::int AS value FROM messages WHERE thread_id = $1 AND subagent_id IS NOT NULL AND content LIKE 'Subagent (reference:%'",
    [parentId],
  );
  if (reports < expectedReports) return false;
  const busy = await scalar(
    bench,
    `SELECT count(*)::int AS value FROM threads WHERE id = $1 AND (status <> 'idle' OR runnable OR EXISTS (
       SELECT 1 FROM inbox_items WHERE thread_id = $1 AND consumed_at IS NULL))`,
    [parentId],
  );
  return busy === 0;
}

async function runFanOut(cluster: Cluster, children: number): Promise<FanOutRun> {
  const bench = await openBenchRuntime(cluster, {
    database: `bench_fanout_${children}`,
    bundle: fanOutBundle(children),
    concurrency: 32,
    maxConnections: 20,
  });
  try {
    await bench.runtime.scheduler.start();
    const warmUpMs = await warmUp(bench);
    const warmUpCommits = { ...bench.raw.sql.commitStats() };
    global.gc?.();
    const before = await snapshot(cluster, bench);
    bench.statements.clear();
    const memory = new MemorySampler();
    const started = monotonicMs();
    const { threadId } = await bench.runtime.threads.create({
      projectId: bench.projectId,
      agentName: "orchestrator",
      message: `Fan out to ${children} workers.`,
    });
    let spawnedAt = 0;
    await profiled(`fanout-${children}`, () =>
      waitUntil(
        "every report delivered and the parent's last turn ended",
        async () => {
          if (spawnedAt === 0) {
            const spawned = await scalar(
              bench,
              "SELECT count(*)::int AS value FROM subagents WHERE parent_id = $1",
              [threadId],
            );
            if (spawned === children) spawnedAt = monotonicMs();
          }
          return parentSettled(bench, threadId, children);
        },
        120_000,
        5,
      ),
    );
    const wallMs = monotonicMs() - started;
    memory.stop();
    const after = await snapshot(cluster, bench);
    const reports = await scalar(
      bench,
      "SELECT count(*)::int AS value FROM messages WHERE thread_id = $1 AND subagent_id IS NOT NULL",
      [threadId],
    );
    const completed = await scalar(
      bench,
      "SELECT count(*)::int AS value FROM threads WHERE parent_id = $1 AND status = 'completed'",
      [threadId],
    );
    if (reports !== children || completed !== children) {
      throw new Error(`Expected ${children} completed children and reports, saw ${completed} and ${reports}`);
    }
    const total = bench.raw.sql.commitStats();
    // The measured run's share (the warm-up's are subtracted; `largest` is over both).
    const commits = {
      ...total,
      parts: total.parts - warmUpCommits.parts,
      batches: total.batches - warmUpCommits.batches,
      alone: total.alone - warmUpCommits.alone,
      retried: total.retried - warmUpCommits.retried,
      fallbacks: total.fallbacks - warmUpCommits.fallbacks,
    };
    if (commits.grouped)
      console.log(
        `  ${children} children: group commit: ${commits.parts} commits in ${commits.batches} groups (largest ${commits.largest}), ${commits.alone} alone, ${commits.retried} groups retried, ${commits.fallbacks} fell back`,
      );
    return {
      children,
      wallMs,
      spawnMs: spawnedAt - started,
      warmUpMs,
      peakRssMiB: memory.peakRss / 1024 ** 2,
      peakHeapMiB: memory.peakHeap / 1024 ** 2,
      reports,
      resources: resourceUse(before, after),
      statements: topStatements(bench.statements, 20),
    };
  } finally {
    await bench.close();
  }
}

/**
 * One orchestrator thread of `projectId` (a `fanOutBundle(children)` project) fanning out to
 * `children` workers, run until every report is delivered and its last turn has ended.
 */
export async function fanOutAndSettle(
  bench: BenchRuntime,
  projectId: string,
  children: number,
  timeoutMs: number,
): Promise<{ threadId: string; wallMs: number }> {
  const started = monotonicMs();
  const { threadId } = await bench.runtime.threads.create({
    projectId,
    agentName: "orchestrator",
    message: `Fan out to ${children} workers.`,
  });
  await waitUntil(
    `the ${children}-children fan-out's reports`,
    () => parentSettled(bench, threadId, children),
    timeoutMs,
    5,
  );
  return { threadId, wallMs: monotonicMs() - started };
}

/** The unmeasured fan-out of WARM_UP_CHILDREN (its own project in the same runtime); its wall time. */
async function warmUp(bench: BenchRuntime): Promise<number> {
  const project = await bench.runtime.projects.create({
    name: "warm-up",
    definitions: fanOutBundle(WARM_UP_CHILDREN),
  });
  return (await fanOutAndSettle(bench, project.id, WARM_UP_CHILDREN, 60_000)).wallMs;
}

export async function timed(repeats: number, work: () => Promise<unknown>): Promise<Summary> {
  const samples: number[] = [];
  for (let index = 0; index < repeats; index += 1) {
    const started = monotonicMs();
    await work();
    samples.push(monotonicMs() - started);
  }
  return summarize(samples);
}

/** Total threads of `treeBundle`'s run. */
export const TREE_THREADS = 1 + TREE_CHILDREN + TREE_CHILDREN * TREE_GRANDCHILDREN;

/** Runs `treeBundle`'s orchestrator until all `threads` threads have finished; answers the root id. */
export async function buildThreadTree(bench: BenchRuntime, threads = TREE_THREADS): Promise<string> {
  const { threadId } = await bench.runtime.threads.create({
    projectId: bench.projectId,
    agentName: "orchestrator",
    message: "Build the whole world.",
  });
  // At rest: finished, nothing runnable, no input waiting. The whole tree is counted only once the
  // root is at rest and none of its children is still at work (which a child is until each of its
  // own children reported): counting thousands of threads every 20 ms took most of Postgres's CPU
  // in the 5,001-thread tree.
  const atRest = `status IN ('completed', 'idle') AND NOT runnable
    AND NOT EXISTS (SELECT 1 FROM inbox_items i WHERE i.thread_id = threads.id AND i.consumed_at IS NULL)`;
  await waitUntil(
    `all ${threads} threads to finish`,
    async () => {
      const rootDone = await scalar(
        bench,
        `SELECT count(*)::int AS value FROM threads WHERE id = $1 AND ${atRest}
           AND EXISTS (SELECT 1 FROM subagents WHERE parent_id = $1)
           AND NOT EXISTS (SELECT 1 FROM subagents WHERE parent_id = $1 AND status = 'running')`,
        [threadId],
      );
      if (rootDone !== 1) return false;
      const done = await scalar(
        bench,
        `SELECT count(*)::int AS value FROM threads WHERE root_id = $1 AND ${atRest}`,
        [threadId],
      );
      return done === threads;
    },
    300_000,
    20,
  );
  return threadId;
}

async function runTree(cluster: Cluster): Promise<TreeRun> {
  const bench = await openBenchRuntime(cluster, {
    database: "bench_tree",
    bundle: treeBundle(),
    concurrency: 32,
    maxConnections: 20,
  });
  try {
    await bench.runtime.scheduler.start();
    const started = monotonicMs();
    const threadId = await buildThreadTree(bench);
    const wallMs = monotonicMs() - started;
    await sleep(200);
    const middle = (await bench.runtime.threads.children(threadId))[0]!.reference;
    return {
      threads: TREE_THREADS,
      wallMs,
      registry: await timed(QUERY_REPEATS, () => bench.runtime.threads.children(threadId)),
      registryOfMiddle: await timed(QUERY_REPEATS, () => bench.runtime.threads.children(middle)),
      tree: await timed(QUERY_REPEATS, () => bench.runtime.threads.tree(threadId)),
      thread: await timed(QUERY_REPEATS, () => bench.runtime.threads.get(threadId)),
    };
  } finally {
    await bench.close();
  }
}

export async function runSubagents(cluster: Cluster): Promise<SubagentResult> {
  section("6. Subagents: fan-out, a 1,000-thread tree, registry and tree queries");
  const fanOuts: FanOutRun[] = [];
  for (const children of FAN_OUTS) {
    const run = await runFanOut(cluster, children);
    console.log(`  ${children} children: every report delivered in ${(run.wallMs / 1000).toFixed(2)} s`);
    fanOuts.push(run);
  }
  const tree = await runTree(cluster);
  const result = { fanOuts, tree };
  printSubagents(result);
  return result;
}

export function printSubagents(result: SubagentResult): void {
  printTable(
    `6. One parent, N non-blocking dual_ai children (2 model steps each), scheduler concurrency 32, each after an unmeasured ${WARM_UP_CHILDREN}-children fan-out in the same runtime`,
    [
      "children",
      "all reports delivered, s",
      "spawning, s",
      `warm-up (${WARM_UP_CHILDREN} children), s`,
      "child steps/s",
      "peak RSS MiB",
      "peak heap MiB",
      "runtime CPU cores",
      "Postgres CPU cores",
    ],
    result.fanOuts.map((run) => [
      run.children,
      run.wallMs / 1000,
      run.spawnMs / 1000,
      run.warmUpMs / 1000,
      (run.children * 2) / (run.wallMs / 1000),
      run.peakRssMiB,
      run.peakHeapMiB,
      run.resources.nodeCores,
      run.resources.postgresCores,
    ]),
  );
  const widest = result.fanOuts.at(-1);
  if (widest)
    printTable(
      `6. The runtime's statements in the ${widest.children}-children run, per child (most time first)`,
      ["statement", "per child", "ms per child", "ms each"],
      widest.statements.map((entry) => [
        entry.statement.length > 70 ? `${entry.statement.slice(0, 69)}…` : entry.statement,
        entry.count / widest.children,
        entry.ms / widest.children,
        entry.ms / entry.count,
      ]),
    );
  const { tree } = result;
  printTable(
    `6. A three-level tree of ${tree.threads} threads (1 → ${TREE_CHILDREN} → ${TREE_CHILDREN * TREE_GRANDCHILDREN})`,
    ["measure", "p50 ms", "p99 ms", "max ms"],
    [
      ["whole tree run to completion", tree.wallMs, "", ""],
      [
        `registry of the root (${TREE_CHILDREN} children)`,
        tree.registry.p50,
        tree.registry.p99,
        tree.registry.max,
      ],
      [
        `registry of a middle thread (${TREE_GRANDCHILDREN} children)`,
        tree.registryOfMiddle.p50,
        tree.registryOfMiddle.p99,
        tree.registryOfMiddle.max,
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
}
