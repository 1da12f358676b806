// Opt-in what-if experiments (BENCH_WHATIF=prepared): the runtime unchanged except for a swapped
// part, to measure how much a proposed runtime change would buy. Never the default: the figures
// of a normal run are the runtime as shipped, and a what-if run says so loudly in its output.
//   prepared — the SQL client sends every statement as a named prepared statement (postgres.js
//              `unsafe(text, params, { prepare: true })`) instead of unprepared, which saves the
//              describe round trip and the parse/plan of every parameterised statement.
import postgres from "postgres";
import type { Database } from "@/lib/db/database";
import { notificationBusFromPostgres } from "@/lib/db/notifications";
import type { SqlClient, SqlExecutor, SqlParameter } from "@/lib/db/sql-client";

export type WhatIf = "prepared";

export function selectedWhatIf(): WhatIf | null {
  const value = process.env.BENCH_WHATIF;
  if (!value) return null;
  if (value === "prepared") return value;
  throw new Error(`Unknown BENCH_WHATIF "${value}"; known: prepared`);
}

/** The database with its SQL client (and notifications) replaced by a prepared-statement client. */
export function withPreparedStatements(database: Database, url: string, maxConnections: number): Database {
  const sql = postgres(url, { max: maxConnections, onnotice: () => {} });
  const executorFor = (target: postgres.Sql | postgres.TransactionSql): SqlExecutor => ({
    async query<Row>(text: string, params: readonly SqlParameter[] = []) {
      const rows = await target.unsafe(text, params as postgres.ParameterOrJSON<never>[], { prepare: true });
      return rows as unknown as Row[];
    },
    async exec(text: string) {
      await target.unsafe(text);
    },
  });
  const client: SqlClient = {
    ...executorFor(sql),
    async transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T> {
      return (await sql.begin((tx) => work(executorFor(tx)))) as T;
    },
  };
  return {
    config: database.config,
    prisma: database.prisma,
    sql: client,
    notifications: notificationBusFromPostgres(sql),
    async close() {
      await Promise.allSettled([database.close(), sql.end({ timeout: 5 })]);
    },
  };
}
