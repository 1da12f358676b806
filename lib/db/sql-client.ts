// One small SQL interface over both database backends (postgres.js for a server, PGlite embedded),
// used by migrations and by the runtime's hand-written queries. Prisma covers plain CRUD.
import type { PGlite, Transaction as PGliteTransaction } from "@electric-sql/pglite";
import type postgres from "postgres";

export type SqlParameter = string | number | boolean | null | Date | Uint8Array | readonly unknown[] | object;

export interface SqlExecutor {
  /** One parameterised statement; returns its rows. */
  query<Row = Record<string, unknown>>(text: string, params?: readonly SqlParameter[]): Promise<Row[]>;
  /** Several statements without parameters (migration files). */
  exec(text: string): Promise<void>;
}

export interface SqlClient extends SqlExecutor {
  transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T>;
}

export function sqlClientFromPostgres(sql: postgres.Sql): SqlClient {
  const executorFor = (target: postgres.Sql | postgres.TransactionSql): SqlExecutor => ({
    async query<Row>(text: string, params: readonly SqlParameter[] = []) {
      // Prepared: one round trip less and no re-planning per call (measured in docs/benchmarks.md).
      const rows = await target.unsafe(text, params as postgres.ParameterOrJSON<never>[], { prepare: true });
      return rows as unknown as Row[];
    },
    async exec(text: string) {
      await target.unsafe(text);
    },
  });
  return {
    ...executorFor(sql),
    async transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T> {
      return (await sql.begin((tx) => work(executorFor(tx)))) as T;
    },
  };
}

export function sqlClientFromPGlite(db: PGlite): SqlClient {
  const executorFor = (target: PGlite | PGliteTransaction): SqlExecutor => ({
    async query<Row>(text: string, params: readonly SqlParameter[] = []) {
      const result = await target.query<Row>(text, params as unknown[]);
      return result.rows;
    },
    async exec(text: string) {
      await target.exec(text);
    },
  });
  return {
    ...executorFor(db),
    transaction: (work) => db.transaction((tx) => work(executorFor(tx))),
  };
}
