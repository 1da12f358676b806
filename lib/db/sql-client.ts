// One small SQL interface over both database backends (postgres.js for a server, PGlite embedded),
// used by migrations and by the runtime's hand-written queries. Prisma covers plain CRUD.
import type { PGlite, Transaction as PGliteTransaction } from "@electric-sql/pglite";
import postgres from "postgres";
import {
  CommitBatcher,
  type CommitBatchStats,
  type CommitPart,
  emptyCommitBatchStats,
  type GroupOutcome,
  type RowLock,
} from "./commit-batcher";

export type SqlParameter = string | number | boolean | null | Date | Uint8Array | readonly unknown[] | object;

export interface SqlExecutor {
  /** One parameterised statement; returns its rows. */
  query<Row = Record<string, unknown>>(text: string, params?: readonly SqlParameter[]): Promise<Row[]>;
  /** Several statements without parameters (migration files). */
  exec(text: string): Promise<void>;
  /**
   * A statement whose result nobody reads. In a postgres.js transaction it is sent without waiting
   * (pipelined with the next statement or the COMMIT, one round trip for all of them); a failure
   * fails the transaction. Elsewhere it runs before the returned promise resolves.
   * `combined` is an equivalent form for when the statement becomes part of its transaction's one
   * statement (LazyTransaction); only that executor uses it.
   */
  defer(text: string, params?: readonly SqlParameter[], combined?: CombinedForm): Promise<void>;
}

export interface SqlClient extends SqlExecutor {
  transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T>;
  /**
   * Statements outside any transaction (each its own), run in order on one connection: on a server,
   * sent together in one round trip. Every statement runs even when an earlier one failed. Returns
   * each statement's rows or its error (it throws only when it cannot run them at all).
   */
  sequence(statements: readonly SqlStatement[]): Promise<SqlOutcome[]>;
  /**
   * A one-statement commit (a statement that is a whole transaction, `part.checks` first in it),
   * then reads of what it committed: resolves like `sequence([statement, ...after])`. With group
   * commit the statement may share its transaction with other threads' commits ready at the same
   * moment (`commit-batcher.ts`); its outcome is still its own.
   */
  commitStatement(part: CommitPart): Promise<SqlOutcome[]>;
  /** How commits were grouped so far in this process (GET /api/health `load.commits`). */
  commitStats(): CommitBatchStats;
  /**
   * Tells `observer` the size of each transaction group commit sends (1: a commit sent alone);
   * nothing without group commit. Metrics out (docs/observability.md); null stops it.
   */
  observeCommitBatches(observer: ((parts: number) => void) | null): void;
}

/** Group commit (TANDEM_GROUP_COMMIT…, `groupCommitSettings`): commits ready together share a transaction. */
export interface SqlClientOptions {
  enabled: boolean;
  maxInFlight: number;
  maxParts: number;
}

/** What one statement of `SqlClient.sequence` did. */
export type SqlOutcome = { rows: Record<string, unknown>[] } | { error: unknown };

export interface SqlStatement {
  text: string;
  params: readonly SqlParameter[];
}

/**
 * A statement's form inside a combined statement. `returnsRows`: its rows (a RETURNING list) can be
 * what the combined statement returns, when the caller asks for them (LazyTransaction.commit).
 */
export interface CombinedForm extends SqlStatement {
  returnsRows?: boolean;
  /** What the caller knows of the returned row already, handed back with it (Committed.returnedFrom). */
  describes?: unknown;
}

export function sqlClientFromPostgres(
  sql: postgres.Sql,
  groupCommit: SqlClientOptions = { enabled: false, maxInFlight: 1, maxParts: 1 },
): SqlClient {
  const send = (target: postgres.Sql | postgres.ReservedSql, text: string, params: readonly SqlParameter[]) =>
    // Prepared: one round trip less and no re-planning per call (measured in docs/benchmarks.md).
    target.unsafe(text, params as postgres.ParameterOrJSON<never>[], { prepare: true });
  const alone = (part: CommitPart) => client.sequence([part.statement, ...part.after]);
  const batcher = groupCommit.enabled
    ? new CommitBatcher(
        {
          alone,
          group: (parts) => groupTransaction(sql, send, parts),
          isServerError: (error) =>
            error instanceof postgres.PostgresError || error instanceof GroupRolledBack,
        },
        groupCommit,
      )
    : null;
  const client: SqlClient = {
    async query<Row>(text: string, params: readonly SqlParameter[] = []) {
      return (await send(sql, text, params)) as unknown as Row[];
    },
    async exec(text: string) {
      await sql.unsafe(text);
    },
    async defer(text: string, params: readonly SqlParameter[] = []) {
      await send(sql, text, params);
    },
    transaction: (work) => pipelinedTransaction(sql, send, work),
    async sequence(statements) {
      const connection = await sql.reserve();
      try {
        const sent = statements.map((statement) => send(connection, statement.text, statement.params));
        const outcomes = await Promise.allSettled(sent);
        return outcomes.map((outcome) =>
          outcome.status === "fulfilled"
            ? { rows: outcome.value as unknown as Record<string, unknown>[] }
            : { error: outcome.reason },
        );
      } finally {
        connection.release();
      }
    },
    commitStatement: (part) => (batcher ? batcher.submit(part) : alone(part)),
    commitStats: () => (batcher ? { ...batcher.stats } : emptyCommitBatchStats(false)),
    observeCommitBatches(observer) {
      if (batcher) batcher.onCommitted = observer;
    },
  };
  return client;
}

/** A group's COMMIT answered ROLLBACK although none of its statements failed. */
class GroupRolledBack extends Error {}

/**
 * Several one-statement commits in ONE transaction on one reserved connection, pipelined in one
 * round trip: BEGIN, every part's checks (in the parts' order), every part's statement, COMMIT, then
 * every part's reads. After a failure the server answers every later statement of the transaction
 * with "transaction is aborted" and the COMMIT with ROLLBACK: the first failure names the part.
 */
async function groupTransaction(
  sql: postgres.Sql,
  send: (target: postgres.ReservedSql, text: string, params: readonly SqlParameter[]) => Promise<unknown>,
  parts: readonly CommitPart[],
): Promise<GroupOutcome> {
  const connection = await sql.reserve();
  let lost = false;
  try {
    const sent: { part: number | null; result: Promise<unknown> }[] = [];
    const issue = (part: number | null, result: Promise<unknown>) => {
      result.catch(() => {}); // read below, never an unhandled rejection
      sent.push({ part, result });
      return result;
    };
    issue(null, connection.unsafe("BEGIN"));
    // The rows the parts' checks lock, all in one statement per table, before anything else: each
    // of those checks then runs once, inside its part's statement, which finds the row locked.
    for (const statement of rowLocksAhead(parts))
      issue(null, send(connection, statement.text, statement.params));
    for (const [index, part] of parts.entries())
      if (!part.lock)
        for (const check of part.checks) issue(index, send(connection, check.text, check.params));
    const written = parts.map((part, index) =>
      issue(index, send(connection, part.statement.text, part.statement.params)),
    );
    issue(null, connection.unsafe(FLUSHING_COMMIT, [], { prepare: false }));
    const reads = parts.map((part) =>
      part.after.map((read) => {
        const result = send(connection, read.text, read.params);
        result.catch(() => {});
        return result;
      }),
    );
    const settled = await Promise.allSettled(sent.map((statement) => statement.result));
    const failedAt = settled.findIndex((outcome) => outcome.status === "rejected");
    if (failedAt >= 0) {
      const error = (settled[failedAt] as PromiseRejectedResult).reason;
      lost = isConnectionLoss(error);
      await Promise.allSettled(reads.flat());
      return { committed: false, failedPart: sent[failedAt]!.part, error };
    }
    const commit = (settled.at(-1) as PromiseFulfilledResult<{ command?: string }>).value;
    if (commit.command !== "COMMIT") {
      await Promise.allSettled(reads.flat());
      return { committed: false, failedPart: null, error: new GroupRolledBack(`COMMIT: ${commit.command}`) };
    }
    const outcomes: SqlOutcome[][] = [];
    for (const [index, partReads] of reads.entries()) {
      const readOutcomes = await Promise.allSettled(partReads);
      outcomes.push([
        { rows: (await written[index]!) as Record<string, unknown>[] },
        ...readOutcomes.map((outcome) =>
          outcome.status === "fulfilled"
            ? { rows: outcome.value as Record<string, unknown>[] }
            : { error: outcome.reason },
        ),
      ]);
    }
    return { committed: true, parts: outcomes };
  } catch (error) {
    lost ||= isConnectionLoss(error);
    throw error;
  } finally {
    // A lost connection is already back in the pool's closed list (see pipelinedTransaction).
    if (!lost) connection.release();
  }
}

const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;

/**
 * One statement per table locking every row the parts' checks would lock (`CommitPart.lock`),
 * FOR NO KEY UPDATE as the checks do, in the order of their ids (every group locks in that one
 * order, and before any part's statement takes another lock such as a root's event lock). It checks
 * nothing: each part's own check, inside its statement, still compares its row's version and fails
 * that part alone. A row that is gone is simply not locked (its part's check fails).
 */
export function rowLocksAhead(parts: readonly { lock?: RowLock }[]): SqlStatement[] {
  const byTable = new Map<string, { lock: RowLock; ids: string[] }>();
  for (const part of parts) {
    if (!part.lock) continue;
    const { table, idType, id } = part.lock;
    if (!IDENTIFIER.test(table) || !IDENTIFIER.test(idType))
      throw new Error(`Bad row lock ${table}/${idType}`);
    const key = `${table}\u0000${idType}`;
    const entry = byTable.get(key) ?? { lock: part.lock, ids: [] };
    entry.ids.push(id);
    byTable.set(key, entry);
  }
  return [...byTable.values()].map(({ lock, ids }) => ({
    text: `SELECT count(*) FROM (SELECT 1 FROM "${lock.table}" WHERE id = ANY($1::${lock.idType}[]) ORDER BY id FOR NO KEY UPDATE) locked`,
    params: [ids],
  }));
}

/**
 * COMMIT padded past postgres.js's 1 KiB write threshold and sent unprepared (so its text goes on
 * the wire): postgres.js then writes at once everything it holds for the connection instead of
 * waiting for setImmediate, and the coalescing socket (`coalescing-socket.ts`) sends the deferred
 * statements and the COMMIT in one system call, one loop turn sooner.
 */
export const FLUSHING_COMMIT = `COMMIT /*${" ".repeat(1024)}*/`;

/**
 * A transaction on one reserved connection whose round trips are pipelined: BEGIN goes out with the
 * first statement, deferred statements with the next statement or the COMMIT. postgres.js runs a
 * connection's statements in the order they were issued and coalesces the ones issued in the same
 * tick into one socket write.
 */
async function pipelinedTransaction<T>(
  sql: postgres.Sql,
  send: (target: postgres.ReservedSql, text: string, params: readonly SqlParameter[]) => Promise<unknown>,
  work: (tx: SqlExecutor) => Promise<T>,
): Promise<T> {
  const connection = await sql.reserve();
  const inFlight: Promise<unknown>[] = [];
  // Once the connection is gone, nothing more may be sent on it: postgres.js would schedule a write
  // on a closed socket (and the server has rolled the transaction back already).
  let lost: unknown = null;
  let detach = () => {};
  const watch = <T>(statement: Promise<T>): Promise<T> => {
    statement.catch((error) => {
      if (isConnectionLoss(error)) lost ??= error;
    });
    return statement;
  };
  const usable = () => {
    if (lost) throw lost;
    return connection;
  };
  const track = (statement: Promise<unknown>) => {
    statement.catch(() => {}); // observed through inFlight; never an unhandled rejection
    inFlight.push(watch(statement));
  };
  // The first failure of a statement nobody awaited explains every later "transaction is aborted".
  const rootCause = async (error: unknown) => {
    const outcomes = await Promise.allSettled(inFlight);
    const failed = outcomes.find((outcome) => outcome.status === "rejected");
    return failed ? (failed as PromiseRejectedResult).reason : error;
  };
  let open = true;
  try {
    // The connection object itself (postgres.js hands it to `onexecute`, as its own `begin` does):
    // its `onclose` tells us at once when the socket goes, even between two statements.
    const begin = connection.unsafe("BEGIN", [], {
      onexecute: (pooled: { onclose?: ((error: unknown) => void) | null }) => {
        pooled.onclose = (error) => {
          lost ??= error ?? new Error("The database connection closed");
        };
        detach = () => {
          pooled.onclose = null;
        };
        return true;
      },
    } as never);
    track(begin);
    const tx: SqlExecutor = {
      async query<Row>(text: string, params: readonly SqlParameter[] = []) {
        try {
          return (await watch(send(usable(), text, params))) as unknown as Row[];
        } catch (error) {
          throw await rootCause(error);
        }
      },
      async exec(text: string) {
        try {
          await watch(usable().unsafe(text));
        } catch (error) {
          throw await rootCause(error);
        }
      },
      async defer(text: string, params: readonly SqlParameter[] = []) {
        track(send(usable(), text, params));
      },
    };
    const result = await work(tx);
    // COMMIT of a transaction a deferred statement aborted answers ROLLBACK: the failure itself
    // surfaces from that statement's promise.
    open = false;
    const commit = watch(usable().unsafe(FLUSHING_COMMIT, [], { prepare: false }));
    const outcomes = await Promise.allSettled([...inFlight, commit]);
    const failed = outcomes.find((outcome) => outcome.status === "rejected");
    if (failed) throw (failed as PromiseRejectedResult).reason;
    return result;
  } catch (error) {
    if (open && !lost && !isConnectionLoss(error)) await connection.unsafe("ROLLBACK").catch(() => {});
    throw error;
  } finally {
    detach();
    // A lost connection is already back in the pool's closed list: releasing it would hand the
    // dead socket to the next query.
    if (!lost) connection.release();
  }
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
    async defer(text: string, params: readonly SqlParameter[] = []) {
      await target.query(text, params as unknown[]);
    },
  });
  const client: SqlClient = {
    ...executorFor(db),
    transaction: (work) => db.transaction((tx) => work(executorFor(tx))),
    // One connection: nothing to share a round trip or a WAL flush with.
    commitStatement: (part) => client.sequence([part.statement, ...part.after]),
    commitStats: () => emptyCommitBatchStats(false),
    observeCommitBatches: () => {},
    async sequence(statements) {
      const outcomes: SqlOutcome[] = [];
      for (const statement of statements) {
        try {
          const result = await db.query<Record<string, unknown>>(
            statement.text,
            statement.params as unknown[],
          );
          outcomes.push({ rows: result.rows });
        } catch (error) {
          outcomes.push({ error });
        }
      }
      return outcomes;
    },
  };
  return client;
}

/** Errors after which a connection is gone (postgres.js codes and socket errors). */
function isConnectionLoss(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return (
    typeof code === "string" &&
    [
      "CONNECTION_CLOSED",
      "CONNECTION_DESTROYED",
      "CONNECTION_ENDED",
      "ECONNRESET",
      "ECONNREFUSED",
      "EPIPE",
    ].includes(code)
  );
}
