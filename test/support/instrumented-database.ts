// A pass-through wrapper around the runtime's Database that counts what the runtime asks of
// Postgres (statements, transactions) and how long it waits for them. It changes no behaviour; its
// cost is a counter increment and two clock reads per statement.
import type { Database } from "@/lib/db/database";
import type { SqlClient, SqlExecutor } from "@/lib/db/sql-client";
import { monotonicMs } from "./clock";

export interface DatabaseCounters {
  /** Statements sent through the runtime's SQL client (inside or outside transactions). */
  statements: number;
  /** Statements sent outside a transaction: each is its own (autocommit) transaction. */
  autocommitStatements: number;
  /** Explicit transactions (each adds a BEGIN and a COMMIT round trip). */
  transactions: number;
  /** Time spent awaiting statements (ms, summed over concurrent callers). */
  statementMs: number;
  /** Time spent inside transaction() calls, BEGIN to COMMIT (ms, summed over concurrent callers). */
  transactionMs: number;
}

/** Per statement text: how often it ran and how long it was awaited in total (ms). */
export type StatementProfile = Map<string, { count: number; ms: number }>;

export function emptyCounters(): DatabaseCounters {
  return { statements: 0, autocommitStatements: 0, transactions: 0, statementMs: 0, transactionMs: 0 };
}

export function diffCounters(after: DatabaseCounters, before: DatabaseCounters): DatabaseCounters {
  return {
    statements: after.statements - before.statements,
    autocommitStatements: after.autocommitStatements - before.autocommitStatements,
    transactions: after.transactions - before.transactions,
    statementMs: after.statementMs - before.statementMs,
    transactionMs: after.transactionMs - before.transactionMs,
  };
}

export interface InstrumentedDatabase {
  database: Database;
  counters: DatabaseCounters;
  statements: StatementProfile;
}

export function instrumentDatabase(database: Database): InstrumentedDatabase {
  const counters = emptyCounters();
  const statements: StatementProfile = new Map();
  const wrap = (target: SqlExecutor, inTransaction: boolean): SqlExecutor => ({
    query: (text, params) => counted(text, inTransaction, () => target.query(text, params)),
    defer: (text, params, combined) =>
      counted(text, inTransaction, () => target.defer(text, params, combined)),
    exec: (text) => target.exec(text),
  });
  async function counted<T>(text: string, inTransaction: boolean, send: () => Promise<T>): Promise<T> {
    const started = monotonicMs();
    try {
      return await send();
    } finally {
      counters.statements += 1;
      if (!inTransaction) counters.autocommitStatements += 1;
      const elapsed = monotonicMs() - started;
      counters.statementMs += elapsed;
      const entry = statements.get(text);
      if (entry) {
        entry.count += 1;
        entry.ms += elapsed;
      } else {
        statements.set(text, { count: 1, ms: elapsed });
      }
    }
  }
  /** Counts `list` as autocommit statements sharing `elapsed` (a sequence, a one-statement commit). */
  const countedAll = async <T>(list: readonly { text: string }[], send: () => Promise<T>): Promise<T> => {
    const started = monotonicMs();
    try {
      return await send();
    } finally {
      const elapsed = monotonicMs() - started;
      for (const statement of list) {
        counters.statements += 1;
        counters.autocommitStatements += 1;
        const entry = statements.get(statement.text) ?? { count: 0, ms: 0 };
        entry.count += 1;
        entry.ms += elapsed / list.length;
        statements.set(statement.text, entry);
      }
      counters.statementMs += elapsed;
    }
  };
  const instrument = (client: SqlClient): SqlClient => ({
    ...wrap(client, false),
    sequence: (list) => countedAll(list, () => client.sequence(list)),
    // A group shares its BEGIN/COMMIT with other threads' commits: counted as the statements it sends.
    commitStatement: (part) =>
      countedAll([part.statement, ...part.after], () => client.commitStatement(part)),
    commitStats: () => client.commitStats(),
    observeCommitBatches: (observer) => client.observeCommitBatches(observer),
    async transaction(work) {
      const started = monotonicMs();
      try {
        return await client.transaction((tx) => work(wrap(tx, true)));
      } finally {
        counters.transactions += 1;
        counters.transactionMs += monotonicMs() - started;
      }
    },
  });
  const sql = instrument(database.sql);
  // The scheduler's claims and renewals are the runtime's statements too.
  const schedulerSql = database.schedulerSql === database.sql ? sql : instrument(database.schedulerSql);
  return {
    database: {
      config: database.config,
      prisma: database.prisma,
      sql,
      schedulerSql,
      notifications: database.notifications,
      close: () => database.close(),
    },
    counters,
    statements,
  };
}

/** The profile merged by normalised statement text (whitespace collapsed, VALUES lists folded). */
export function topStatements(
  profile: StatementProfile,
  limit: number,
): { statement: string; count: number; ms: number }[] {
  const merged = new Map<string, { count: number; ms: number }>();
  for (const [text, entry] of profile) {
    const key = text
      .replace(/\s+/g, " ")
      .replace(/(VALUES \([^)]*\))(, \([^)]*\))+/g, "$1, …")
      .trim();
    const target = merged.get(key) ?? { count: 0, ms: 0 };
    target.count += entry.count;
    target.ms += entry.ms;
    merged.set(key, target);
  }
  return [...merged]
    .map(([statement, entry]) => ({ statement, ...entry }))
    .sort((left, right) => right.ms - left.ms)
    .slice(0, limit);
}
