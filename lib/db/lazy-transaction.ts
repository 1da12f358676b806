// A transaction that begins only if it has to. Statements whose results nobody reads (`defer`) are
// collected; at `commit` they go out as ONE statement (`combineStatements`), which is its own
// transaction: one statement and one round trip instead of BEGIN, n statements and COMMIT. The
// first statement whose result is read (`query`, `exec`), or parts that cannot be combined, open a
// real transaction instead, replay what was collected into it and go on there: same outcome,
// ordinary cost. Either way all of it commits or none of it does. A one-statement commit goes out
// through `SqlClient.commitStatement`, which may group it with other threads' (group commit).

import { combineStatements } from "./combined-statement";
import type { RowLock } from "./commit-batcher";
import type {
  CombinedForm,
  SqlClient,
  SqlExecutor,
  SqlOutcome,
  SqlParameter,
  SqlStatement,
} from "./sql-client";

interface CollectedStatement extends SqlStatement {
  combined?: CombinedForm;
}

export interface Committed {
  /**
   * The rows of each `after` statement: empty when it was not sent (see `returned`), and null when a
   * read after a one-statement commit failed (the commit itself stands).
   */
  after: (Record<string, unknown>[] | null)[];
  /** With `returnedInsteadOfAfter`: the rows of the part marked `returnsRows`, when one was combined. */
  returned: Record<string, unknown>[] | null;
  /** The combined form whose rows `returned` holds (with what its caller `describes`). */
  returnedFrom: CombinedForm | null;
}

interface OpenTransaction {
  executor: Promise<SqlExecutor>;
  /** Settles the transaction's work: resolve commits, reject rolls back. */
  finish: { resolve: () => void; reject: (error: unknown) => void };
  outcome: Promise<void>;
}

export class LazyTransaction implements SqlExecutor {
  private collected: CollectedStatement[] = [];
  private open: OpenTransaction | null = null;
  private settled = false;

  /**
   * `checks` run before everything else (see combineStatements); they may lock what later parts change.
   * `order`: where a one-statement commit's locks go when it shares a transaction with others' (group
   * commit, `commit-batcher.ts`): the runtime passes the thread's root, then the thread.
   * `lock`: the one row `checks` lock (FOR NO KEY UPDATE), when that is all they lock: a group
   * then locks its parts' rows in one statement and runs each check only inside its part's statement.
   */
  constructor(
    private readonly client: SqlClient,
    private readonly checks: readonly SqlStatement[],
    private readonly order = "",
    private readonly lock?: RowLock,
  ) {}

  /** Whether a real transaction is open (a result was read, so nothing is combined). */
  get began(): boolean {
    return this.open !== null;
  }

  async query<Row = Record<string, unknown>>(
    text: string,
    params: readonly SqlParameter[] = [],
  ): Promise<Row[]> {
    return (await this.begin()).query<Row>(text, params);
  }

  async exec(text: string): Promise<void> {
    await (await this.begin()).exec(text);
  }

  async defer(text: string, params: readonly SqlParameter[] = [], combined?: CombinedForm): Promise<void> {
    if (this.open) await (await this.open.executor).defer(text, params);
    else this.collected.push({ text, params, combined });
  }

  /**
   * Commits what the work did. Without a real transaction, `after` statements (reads of the state
   * just committed) go out in the same round trip, after the combined statement; their rows are
   * returned. With one, they run inside it, just before the COMMIT. `returnedInsteadOfAfter`: when a
   * part marked `returnsRows` was combined, its rows are what the caller wanted, and `after` is not
   * sent at all.
   */
  async commit(
    after: readonly SqlStatement[] = [],
    options: { returnedInsteadOfAfter?: boolean } = {},
  ): Promise<Committed> {
    if (this.settled) throw new Error("This transaction was already committed or rolled back");
    this.settled = true;
    if (!this.open) {
      const wantsRows = options.returnedInsteadOfAfter === true;
      const parts = this.collected.map((statement) =>
        statement.combined && (wantsRows || !statement.combined.returnsRows) ? statement.combined : statement,
      );
      const combined = combineStatements(this.checks, parts);
      if (combined) {
        const returning = wantsRows
          ? ((parts.find((part) => (part as CombinedForm).returnsRows) as CombinedForm | undefined) ?? null)
          : null;
        const outcomes = await this.client.commitStatement({
          statement: combined,
          checks: this.checks,
          after: returning ? [] : after,
          order: this.order,
          ...(this.lock ? { lock: this.lock } : {}),
        });
        const written = outcomes[0]!;
        if ("error" in written) throw written.error;
        if (returning) return { after: after.map(() => []), returned: written.rows, returnedFrom: returning };
        return { after: outcomes.slice(1).map(rowsOrNull), returned: null, returnedFrom: null };
      }
      await this.begin();
    }
    const open = this.open!;
    const executor = await open.executor;
    const reads = after.map((statement) => executor.query(statement.text, statement.params));
    for (const read of reads) read.catch(() => {}); // a failure fails the COMMIT too
    open.finish.resolve();
    await open.outcome;
    return { after: await Promise.all(reads), returned: null, returnedFrom: null };
  }

  /** Abandons the work: nothing collected is sent; an open transaction rolls back. */
  async rollback(reason: unknown): Promise<void> {
    this.settled = true;
    this.collected = [];
    if (!this.open) return;
    this.open.finish.reject(reason);
    await this.open.outcome.catch(() => {});
  }

  private begin(): Promise<SqlExecutor> {
    if (this.open) return this.open.executor;
    let finish!: OpenTransaction["finish"];
    const finished = new Promise<void>((resolve, reject) => {
      finish = { resolve, reject };
    });
    // A transaction that failed before its work began never awaits `finished`: rejecting it then
    // (rollback) must not be an unhandled rejection.
    finished.catch(() => {});
    let started!: (executor: SqlExecutor) => void;
    let failedToStart!: (error: unknown) => void;
    const executor = new Promise<SqlExecutor>((resolve, reject) => {
      started = resolve;
      failedToStart = reject;
    });
    const replay: SqlStatement[] = [...this.checks, ...this.collected];
    this.collected = [];
    const outcome = this.client.transaction(async (tx) => {
      for (const statement of replay) await tx.defer(statement.text, statement.params);
      started(tx);
      await finished;
    });
    outcome.catch(failedToStart);
    executor.catch(() => {}); // the failure surfaces from `outcome` (commit, rollback)
    this.open = { executor, finish, outcome };
    return executor;
  }
}

/** A read's rows, or null when it failed: what was committed before it stands either way. */
function rowsOrNull(outcome: SqlOutcome): Record<string, unknown>[] | null {
  return "rows" in outcome ? outcome.rows : null;
}
