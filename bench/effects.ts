// Benchmark: 1,000 scheduled effects due at the same moment (spread over 100 threads, each effect
// injecting one message, as test/extensions/effects/record_ping.ts does). Lag is the time from an
// effect's due time to its start (`started_at − run_at`, both on the database's clock, µs), and to
// its `done` commit; throughput is effects done per second once they are due. One process runs them
// (the runtime's effect runner, default concurrency 32), next to the database baseline of this run.
import path from "node:path";
import { chatBundle } from "../test/support/bench-bundles";
import { type BaselineResult, printBaselineBeside } from "./baseline";
import type { Cluster } from "./cluster";
import { printTable, SUMMARY_HEADER, section, summaryCells } from "./format";
import { openBenchRuntime, waitUntil } from "./harness";
import { type Summary, summarize } from "./stats";

const EFFECTS = 1_000;
const THREADS = 100;
/** Far enough ahead that every row is committed (and the runner's timer set) before it is due. */
const DUE_IN_MS = 3_000;

export interface EffectsResult {
  effects: number;
  /** Due time → start, ms. */
  toStart: Summary;
  /** Due time → done, ms. */
  toDone: Summary;
  /** Effects done per second, from the due time to the last done. */
  perSecond: number;
}

export async function runEffects(cluster: Cluster, baseline: BaselineResult | null): Promise<EffectsResult> {
  section(`Effects: ${EFFECTS} scheduled effects due at once (${THREADS} threads, one process)`);
  // The effect files the runtime loads (its registry is loaded once per process, on first use).
  process.env.TANDEM_EXTENSIONS_DIR = path.resolve(import.meta.dirname, "../test/extensions");
  // The benchmarks before this one in the same run loaded the registry from the default folder,
  // without these effects: drop that copy so this runtime loads the folder above.
  delete (globalThis as { __tandemExtensions?: unknown }).__tandemExtensions;
  const bench = await openBenchRuntime(cluster, { database: "bench_effects", bundle: chatBundle(10) });
  try {
    const { runtime } = bench;
    // Idle threads (no first message): the scheduler has nothing to do, only the effects run.
    const threadIds: string[] = [];
    for (let index = 0; index < THREADS; index++)
      threadIds.push(
        (await runtime.threads.create({ projectId: bench.projectId, agentName: "chat" })).threadId,
      );
    await runtime.effectRunner.start();
    // One statement commits all of them due at the same database time, then one NOTIFY wakes the runner.
    await bench.raw.sql.query(
      `WITH due AS (SELECT (extract(epoch from clock_timestamp()) * 1000000)::bigint + $3::bigint * 1000 AS at)
       INSERT INTO scheduled_effects (id, thread_id, name, args, run_at, created_at)
       SELECT gen_random_uuid(), ($1::uuid[])[1 + (n % $4)], 'record_ping',
              jsonb_build_object('note', 'n' || n), due.at, due.at - $3::bigint * 1000
       FROM generate_series(1, $2) AS n, due`,
      [threadIds, EFFECTS, DUE_IN_MS, threadIds.length],
    );
    await bench.raw.notifications.notify("tandem_effects", "");
    await waitUntil(
      `all ${EFFECTS} effects to finish`,
      async () => {
        const [row] = await bench.raw.sql.query<{ left: number }>(
          "SELECT count(*)::int AS left FROM scheduled_effects WHERE status IN ('scheduled', 'running')",
        );
        return Number(row?.left) === 0;
      },
      120_000,
    );
    const rows = await bench.raw.sql.query<{
      status: string;
      run_at: string;
      started_at: string;
      finished_at: string;
    }>("SELECT status, run_at, started_at, finished_at FROM scheduled_effects");
    const notDone = rows.filter((row) => row.status !== "done").length;
    if (notDone > 0) throw new Error(`${notDone} effects did not end done`);
    const toStart = summarize(rows.map((row) => (Number(row.started_at) - Number(row.run_at)) / 1000));
    const toDone = summarize(rows.map((row) => (Number(row.finished_at) - Number(row.run_at)) / 1000));
    const perSecond = EFFECTS / (toDone.max / 1000);
    printTable(
      `${EFFECTS} effects due at once`,
      ["from due time", ...SUMMARY_HEADER],
      [
        ["to start", ...summaryCells(toStart)],
        ["to done", ...summaryCells(toDone)],
      ],
    );
    console.log(`throughput: ${perSecond.toFixed(0)} effects/s (each one message injected: a locked commit)`);
    printBaselineBeside("Effects", baseline, (measured) => [
      ["single-row INSERT/s, one connection", measured.insertOneConnection.perSecond],
      ["single-row INSERT/s, ten connections", measured.insertTenConnections.perSecond],
      ["BEGIN; INSERT; COMMIT/s, ten connections", measured.transactionTenConnections.perSecond],
    ]);
    await runtime.effectRunner.stop();
    return { effects: EFFECTS, toStart, toDone, perSecond };
  } finally {
    await bench.close();
  }
}
