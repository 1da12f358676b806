// Benchmark 1, the machine's database baseline, measured in the same run as the runtime figures:
// how fast this Postgres (fsync on) commits single-row INSERTs through postgres.js on one and on ten
// connections, what one statement costs (round trip, client and server CPU) prepared and unprepared
// (the runtime's SQL client sends every statement unprepared), and whether NOTIFY in a transaction
// serialises commits. Runtime figures are only meaningful next to these.
import type postgres from "postgres";
import { monotonicMs } from "../test/support/clock";
import type { Cluster } from "./cluster";
import { ownCpuMs } from "./cpu";
import { type Cell, printTable, section } from "./format";
import { type Summary, summarize } from "./stats";

export interface LoopResult {
  perSecond: number;
  /** Latency of one iteration (ms); measured for single-connection loops only. */
  latency: Summary | null;
  /** CPU of this process and of Postgres per iteration (ms). */
  clientCpuMs: number;
  postgresCpuMs: number;
}

export interface BaselineResult {
  /** `SELECT 1`, prepared. */
  roundTrip: LoopResult;
  /** A parameterised one-row SELECT by key, prepared (postgres.js tagged template). */
  preparedStatement: LoopResult;
  /** The same statement through sql.unsafe(text, params) unprepared, as the runtime's SqlClient sends it. */
  unpreparedStatement: LoopResult;
  /** Single-row INSERT in autocommit mode (INSERT + COMMIT, one round trip). */
  insertOneConnection: LoopResult;
  insertTenConnections: LoopResult;
  /** BEGIN; INSERT; COMMIT as three round trips (how the runtime's transactions look on the wire). */
  transactionOneConnection: LoopResult;
  transactionTenConnections: LoopResult;
  /** BEGIN; INSERT; SELECT pg_notify(…); COMMIT on ten connections (every runtime step commit notifies). */
  notifyingTransactionTenConnections: LoopResult;
}

const DURATION_MS = 2_500;

export async function runBaseline(cluster: Cluster, database: string): Promise<BaselineResult> {
  section("1. Database baseline (raw postgres.js on the same cluster, fsync on)");
  const sql = cluster.connect(database, { max: 10, onnotice: () => {} });
  try {
    await sql.unsafe(
      "CREATE TABLE IF NOT EXISTS bench_baseline (id bigserial PRIMARY KEY, payload text NOT NULL, created_at bigint NOT NULL)",
    );
    const insert = (target: postgres.Sql | postgres.TransactionSql) =>
      target`INSERT INTO bench_baseline (payload, created_at) VALUES (${"hello"}, ${Date.now()})`;
    // Warm up: connections, prepared statements, the table's first pages.
    await Promise.all(Array.from({ length: 10 }, () => insert(sql)));
    for (let index = 0; index < 200; index++) await insert(sql);
    const loop = (workers: number, work: () => Promise<unknown>) => loopFor(cluster, workers, work);
    const key = 42;
    const result: BaselineResult = {
      roundTrip: await loop(1, () => sql`SELECT 1`),
      preparedStatement: await loop(1, () => sql`SELECT id, payload FROM bench_baseline WHERE id = ${key}`),
      unpreparedStatement: await loop(1, () =>
        sql.unsafe("SELECT id, payload FROM bench_baseline WHERE id = $1", [key]),
      ),
      insertOneConnection: await loop(1, () => insert(sql)),
      insertTenConnections: await loop(10, () => insert(sql)),
      transactionOneConnection: await loop(1, () => sql.begin((tx) => insert(tx))),
      transactionTenConnections: await loop(10, () => sql.begin((tx) => insert(tx))),
      notifyingTransactionTenConnections: await loop(10, () =>
        sql.begin(async (tx) => {
          await insert(tx);
          await tx`SELECT pg_notify(${"bench_baseline"}, ${"x"})`;
        }),
      ),
    };
    printBaseline(result);
    return result;
  } finally {
    await sql.end({ timeout: 5 });
  }
}

/** Runs `work` in `workers` parallel loops for DURATION_MS. */
async function loopFor(cluster: Cluster, workers: number, work: () => Promise<unknown>): Promise<LoopResult> {
  let done = 0;
  const latencies: number[] = [];
  const clientBefore = ownCpuMs();
  const postgresBefore = cluster.cpuMs();
  const started = monotonicMs();
  const deadline = started + DURATION_MS;
  await Promise.all(
    Array.from({ length: workers }, async () => {
      while (monotonicMs() < deadline) {
        const begun = monotonicMs();
        await work();
        if (workers === 1) latencies.push(monotonicMs() - begun);
        done += 1;
      }
    }),
  );
  const elapsed = monotonicMs() - started;
  return {
    perSecond: done / (elapsed / 1000),
    latency: workers === 1 ? summarize(latencies) : null,
    clientCpuMs: (ownCpuMs() - clientBefore) / done,
    postgresCpuMs: (cluster.cpuMs() - postgresBefore) / done,
  };
}

export function printBaseline(result: BaselineResult): void {
  const row = (name: string, loop: LoopResult, reference = "") => [
    name,
    loop.perSecond,
    loop.latency ? loop.latency.p50 : Number.NaN,
    loop.latency ? loop.latency.p99 : Number.NaN,
    loop.clientCpuMs * 1000,
    loop.postgresCpuMs * 1000,
    reference,
  ];
  printTable(
    `Baseline (${DURATION_MS / 1000} s per line; latency only for one connection)`,
    ["operation", "per s", "p50 ms", "p99 ms", "client CPU µs", "Postgres CPU µs", "reference"],
    [
      row("SELECT 1 (prepared), 1 conn", result.roundTrip),
      row("SELECT by key, prepared, 1 conn", result.preparedStatement),
      row("SELECT by key, unprepared (runtime's path), 1 conn", result.unpreparedStatement),
      row("INSERT + COMMIT (autocommit), 1 conn", result.insertOneConnection, "~2,500 rows/s"),
      row("INSERT + COMMIT (autocommit), 10 conns", result.insertTenConnections, "~5,300 rows/s"),
      row("BEGIN; INSERT; COMMIT, 1 conn", result.transactionOneConnection),
      row("BEGIN; INSERT; COMMIT, 10 conns", result.transactionTenConnections),
      row("BEGIN; INSERT; pg_notify; COMMIT, 10 conns", result.notifyingTransactionTenConnections),
    ],
  );
}

/** Prints the baseline figures a runtime benchmark should be read against (same run). */
export function printBaselineBeside(
  title: string,
  baseline: BaselineResult | null,
  rows: (baseline: BaselineResult) => Cell[][],
): void {
  if (!baseline) {
    console.log(`\n${title}: baseline not measured in this run (BENCH_ONLY)`);
    return;
  }
  printTable(`${title}: database baseline beside it (same run)`, ["baseline", "value"], rows(baseline));
}

export interface DriftCheck {
  insertOneConnection: number;
  insertTenConnections: number;
}

/** A short repeat of the two reference baselines at the end of the run, to show drift on a shared machine. */
export async function runBaselineDriftCheck(cluster: Cluster, database: string): Promise<DriftCheck> {
  const sql = cluster.connect(database, { max: 10, onnotice: () => {} });
  try {
    const insert = () =>
      sql`INSERT INTO bench_baseline (payload, created_at) VALUES (${"hello"}, ${Date.now()})`;
    await Promise.all(Array.from({ length: 10 }, insert));
    return {
      insertOneConnection: (await loopFor(cluster, 1, insert)).perSecond,
      insertTenConnections: (await loopFor(cluster, 10, insert)).perSecond,
    };
  } finally {
    await sql.end({ timeout: 5 });
  }
}
