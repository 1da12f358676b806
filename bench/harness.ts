// Shared plumbing of the runtime benchmarks: a fresh database (cloned from the migrated template)
// with a runtime and one project on it, waiting helpers, and resource snapshots (CPU of this
// process and of the cluster, WAL written, the runtime's statement counters).
import { performance } from "node:perf_hooks";
import { type Database, openDatabase } from "@/lib/db/database";
import type { SqlExecutor } from "@/lib/db/sql-client";
import type { Bundle } from "@/lib/standard";
import { createRuntime, type Runtime } from "@/runtime/runtime";
import type { ThreadStatus } from "@/runtime/store/thread-row";
import { monotonicMs, sleep } from "../test/support/clock";
import {
  type DatabaseCounters,
  diffCounters,
  instrumentDatabase,
  type StatementProfile,
} from "../test/support/instrumented-database";
import type { Cluster } from "./cluster";
import { machineCpu, ownCpuMs } from "./cpu";
import { installSocketWriteCounter, socketWrites } from "./socket-writes";

/** The migrated database every benchmark database is cloned from. */
export const TEMPLATE_DATABASE = "bench";

export interface BenchRuntimeOptions {
  database: string;
  bundle: Bundle;
  /** Scheduler concurrency (threads run at once by this process); the runtime's default is 64. */
  concurrency?: number;
  /** postgres.js pool size; the runtime's default is 10. */
  maxConnections?: number;
}

export interface BenchRuntime {
  readonly runtime: Runtime;
  /** The same database without the counting wrapper: what the benchmark itself reads goes here. */
  readonly raw: Database;
  readonly projectId: string;
  readonly counters: DatabaseCounters;
  readonly statements: StatementProfile;
  readonly concurrency: number;
  readonly maxConnections: number;
  close(): Promise<void>;
}

export async function openBenchRuntime(
  cluster: Cluster,
  options: BenchRuntimeOptions,
): Promise<BenchRuntime> {
  await cluster.createDatabase(options.database, TEMPLATE_DATABASE);
  return openRuntimeAt(cluster.urlFor(options.database), options);
}

/** A runtime on an existing, migrated database (used directly by the memory benchmark's child process). */
export async function openRuntimeAt(
  url: string,
  options: Omit<BenchRuntimeOptions, "database"> & { database?: string },
): Promise<BenchRuntime> {
  installSocketWriteCounter();
  const maxConnections = options.maxConnections ?? 10;
  const concurrency = options.concurrency ?? 64;
  const opened = await openDatabase({ kind: "postgres", url }, { maxConnections });
  const { database, counters, statements } = instrumentDatabase(opened);
  // createRuntime reads its scheduler settings from the environment, as a deployment would.
  const previous = process.env.TANDEM_CONCURRENCY;
  process.env.TANDEM_CONCURRENCY = String(concurrency);
  const runtime = createRuntime(database);
  if (previous === undefined) delete process.env.TANDEM_CONCURRENCY;
  else process.env.TANDEM_CONCURRENCY = previous;
  const project = await runtime.projects.create({
    name: options.database ?? "benchmark",
    definitions: options.bundle,
  });
  return {
    runtime,
    raw: opened,
    projectId: project.id,
    counters,
    statements,
    concurrency,
    maxConnections,
    async close() {
      await runtime.scheduler.stop();
      // As a process's shutdown does: the live streams' registrations go before the database.
      await runtime.events.close();
      await database.close();
    },
  };
}

/** Creates `count` threads of `agentName`, `parallel` at a time; returns their ids in order. */
export async function createThreads(
  bench: BenchRuntime,
  count: number,
  agentName: string,
  message: (index: number) => string,
  parallel = 10,
): Promise<string[]> {
  const ids: string[] = [];
  for (let batch = 0; batch < count; batch += parallel) {
    const created = await Promise.all(
      Array.from({ length: Math.min(parallel, count - batch) }, (_, index) =>
        bench.runtime.threads.create({
          projectId: bench.projectId,
          agentName,
          message: message(batch + index),
        }),
      ),
    );
    ids.push(...created.map((thread) => thread.threadId));
  }
  return ids;
}

/** Polls `condition` every `intervalMs` until it holds; throws after `timeoutMs`. */
export async function waitUntil(
  description: string,
  condition: () => Promise<boolean>,
  timeoutMs: number,
  intervalMs = 10,
): Promise<void> {
  const deadline = monotonicMs() + timeoutMs;
  while (!(await condition())) {
    if (monotonicMs() > deadline)
      throw new Error(`Timed out after ${timeoutMs} ms waiting for ${description}`);
    await sleep(intervalMs);
  }
}

/** Number of threads of the database in one of `statuses`. */
export async function countThreads(sql: SqlExecutor, statuses: readonly ThreadStatus[]): Promise<number> {
  const rows = await sql.query<{ count: number }>(
    "SELECT count(*)::int AS count FROM threads WHERE status = ANY($1)",
    [statuses],
  );
  return Number(rows[0]?.count ?? 0);
}

/**
 * Resolves with the monotonic instant a thread is seen in one of `statuses`. It re-reads the thread
 * whenever the event log announces a commit for its root (the path the live views use), with a slow
 * poll as a safety net.
 */
export async function waitForStatus(
  bench: BenchRuntime,
  threadId: string,
  statuses: readonly ThreadStatus[],
  timeoutMs = 30_000,
): Promise<number> {
  let settled = false;
  let checking = false;
  let again = false;
  let finish: (at: number) => void = () => {};
  let fail: (error: Error) => void = () => {};
  const done = new Promise<number>((resolve, reject) => {
    finish = resolve;
    fail = reject;
  });
  const check = async () => {
    if (settled) return;
    if (checking) {
      again = true;
      return;
    }
    checking = true;
    try {
      const rows = await bench.raw.sql.query<{ status: ThreadStatus }>(
        "SELECT status FROM threads WHERE id = $1",
        [threadId],
      );
      const status = rows[0]?.status;
      if (status !== undefined && statuses.includes(status) && !settled) {
        settled = true;
        finish(monotonicMs());
      }
    } catch (error) {
      settled = true;
      fail(error instanceof Error ? error : new Error(String(error)));
    } finally {
      checking = false;
      if (again) {
        again = false;
        void check();
      }
    }
  };
  const unsubscribe = await bench.runtime.events.subscribe(threadId, {
    onEventsAvailable: () => void check(),
    onChunk: () => {},
  });
  const poll = setInterval(() => void check(), 100);
  const timeout = setTimeout(() => {
    if (settled) return;
    settled = true;
    fail(new Error(`Thread ${threadId} did not reach ${statuses.join("/")} within ${timeoutMs} ms`));
  }, timeoutMs);
  void check();
  try {
    return await done;
  } finally {
    clearInterval(poll);
    clearTimeout(timeout);
    unsubscribe();
  }
}

/**
 * Records, per thread, the monotonic instant of every model call. The scripted model streams its
 * text through the runtime's ephemeral chunk channel the moment it is called, so this is a
 * microsecond-resolution probe of "the step reached its model call", taken inside this process.
 */
export class ModelCallProbe {
  readonly calls = new Map<string, number[]>();
  private readonly unsubscribers: Array<() => void> = [];

  constructor(private readonly runtime: Runtime) {}

  async watch(rootId: string): Promise<void> {
    this.unsubscribers.push(
      // Chunks only: a live watcher would make every commit of the root NOTIFY (event-watchers.ts).
      this.runtime.events.subscribeChunks(rootId, (chunk) => {
        const at = monotonicMs();
        let list = this.calls.get(chunk.threadId);
        if (!list) {
          list = [];
          this.calls.set(chunk.threadId, list);
        }
        list.push(at);
      }),
    );
  }

  close(): void {
    for (const unsubscribe of this.unsubscribers.splice(0)) unsubscribe();
  }
}

export interface ResourceSnapshot {
  wallMs: number;
  nodeCpuMs: number;
  /** The event loop's busy time so far (the main thread running JS and callbacks), ms. */
  mainThreadBusyMs: number;
  postgresCpuMs: number;
  machineBusyMs: number;
  stealMs: number;
  socketWrites: number;
  walBytes: number;
  counters: DatabaseCounters;
}

export async function snapshot(cluster: Cluster, bench: BenchRuntime): Promise<ResourceSnapshot> {
  const rows = await bench.raw.sql.query<{ bytes: string }>(
    "SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::bigint::text AS bytes",
  );
  const machine = machineCpu();
  return {
    wallMs: monotonicMs(),
    nodeCpuMs: ownCpuMs(),
    mainThreadBusyMs: performance.eventLoopUtilization().active,
    postgresCpuMs: cluster.cpuMs(),
    machineBusyMs: machine.busyMs,
    stealMs: machine.stealMs,
    socketWrites: socketWrites(),
    walBytes: Number(rows[0]?.bytes ?? 0),
    counters: { ...bench.counters },
  };
}

export interface ResourceUse {
  wallMs: number;
  /** Time the runtime's main thread was busy (event-loop utilisation), ms. */
  mainThreadBusyMs: number;
  /** CPU of this process (runtime + benchmark driver), as a share of one core. */
  nodeCores: number;
  /** CPU of all Postgres processes, as a share of one core. */
  postgresCores: number;
  /** CPU used by everything else on the machine (other processes, kernel threads), in cores. */
  otherCores: number;
  /** CPU the hypervisor gave to other guests while this machine wanted it, in cores. */
  stealCores: number;
  nodeCpuMs: number;
  postgresCpuMs: number;
  walBytes: number;
  /** Writes to Postgres sockets (≈ client → server round trips), all connections of this process. */
  socketWrites: number;
  counters: DatabaseCounters;
}

export function resourceUse(before: ResourceSnapshot, after: ResourceSnapshot): ResourceUse {
  const wallMs = after.wallMs - before.wallMs;
  const nodeCpuMs = after.nodeCpuMs - before.nodeCpuMs;
  const postgresCpuMs = after.postgresCpuMs - before.postgresCpuMs;
  const machineBusyMs = after.machineBusyMs - before.machineBusyMs;
  return {
    wallMs,
    mainThreadBusyMs: after.mainThreadBusyMs - before.mainThreadBusyMs,
    nodeCores: nodeCpuMs / wallMs,
    postgresCores: postgresCpuMs / wallMs,
    otherCores: Math.max(0, machineBusyMs - nodeCpuMs - postgresCpuMs) / wallMs,
    stealCores: (after.stealMs - before.stealMs) / wallMs,
    nodeCpuMs,
    postgresCpuMs,
    walBytes: after.walBytes - before.walBytes,
    socketWrites: after.socketWrites - before.socketWrites,
    counters: diffCounters(after.counters, before.counters),
  };
}

/** Starts the scheduler and the bundle's ai_human "chat" thread, through its warm-up turn; its id. */
export async function startWarmChat(bench: BenchRuntime): Promise<string> {
  await bench.runtime.scheduler.start();
  const { threadId } = await bench.runtime.threads.create({
    projectId: bench.projectId,
    agentName: "chat",
    message: "Warm-up turn.",
  });
  await waitForStatus(bench, threadId, ["idle"]);
  return threadId;
}
