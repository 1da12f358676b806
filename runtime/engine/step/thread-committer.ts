// Commits a step's work on a thread this process holds the lease of: in a transaction holding the
// thread's row lock, after checking lease, termination and user stop; speculatively in one round
// trip when the thread's current version is known (docs/runtime.md "Speculative commits"). It also
// numbers the transaction's messages, keeps the cached history in step with them, and wakes the
// parents whose children reported once the commit is through.
import type { SqlClient, SqlExecutor } from "@/lib/db/sql-client";
import { crashPoint } from "../../faults";
import { nextMessageSeq, writeMessageSeqDeferred } from "../../store/message-seq";
import {
  bumpMessageSeq,
  insertMessages,
  insertMessagesAfter,
  type NewMessage,
} from "../../store/message-store";
import type { StoredMessage } from "../../store/messages";
import { commitReadingThreadBack, speculativeStepTransaction } from "../../store/one-statement-commits";
import type { ThreadRow } from "../../store/thread-row";
import { wakeParent } from "../../store/thread-scheduling";
import {
  findThreadForStep,
  isStaleThreadError,
  lockThread,
  type ThreadChanges,
  type ThreadForStep,
} from "../../store/thread-store";
import type { ParentWaker } from "../../subagents/parent-waker";
import { LeaseLost, StoppedByUser, ThreadTerminated } from "./errors";
import { MessageNumbering } from "./message-numbering";
import type { RunMemory } from "./run-memory";

/**
 * Work in a step's transaction: `row` is the thread as the transaction sees it; `read` is the row as
 * read before it, when the commit is speculative (checked against that version), else null.
 */
export type CommitWork<T> = (tx: SqlExecutor, row: ThreadRow, read: ThreadForStep | null) => Promise<T>;

export interface CommitOptions<T> {
  /** Commit even though a user stopped the thread (the work itself handles the stop). */
  allowUserStopped?: boolean;
  /** Read the thread as this transaction leaves it (pipelined with the COMMIT), for the next step. */
  snapshot?: boolean;
  /**
   * Read its version back (pipelined with the COMMIT), for the next speculative commit; a function
   * decides from the work's result (a step that parked the thread needs no read-back).
   */
  readBack?: boolean | ((result: T) => boolean);
  /**
   * Try the commit speculatively when the thread's version is known. Only for work that does
   * nothing but write in the transaction (no side effects outside it), since it may run twice.
   */
  speculate?: boolean;
}

export class ThreadCommitter {
  constructor(
    private readonly db: SqlClient,
    private readonly leaseOwner: string,
    private readonly memory: RunMemory,
    private readonly parentWaker: Pick<ParentWaker, "request"> | undefined,
  ) {}

  /**
   * The latest version of the thread this runner knows (read at a step's start or by its last
   * commit), for a speculative commit; cleared by every commit that does not read it back.
   */
  private expected: ThreadForStep | null = null;

  /**
   * The thread as the last step's commit left it: the next step starts from it instead of reading
   * the thread again. Only a step whose work after its commit cannot change the thread (no hooks, no
   * tools) leaves one; input that arrives later is seen by the next commit, exactly as it would be
   * by a read at the next step's start; a stop or a termination is still checked under the row
   * lock when that step commits.
   */
  private snapshot: ThreadForStep | null = null;

  /** Numbers the open transaction's messages. */
  private readonly numbering = new MessageNumbering();

  /** Parents whose children reported in the transaction now running (woken once it commits). */
  private readonly wakeAfterCommit = new Set<string>();

  /** The next step of `read`'s thread starts from it (the claim that took the lease just read it). */
  startFrom(read: ThreadForStep): void {
    this.snapshot = read;
  }

  /** The thread as the last commit left it, if it was `threadId` (taken: a snapshot is used once). */
  takeSnapshot(threadId: string): ThreadForStep | null {
    const snapshot = this.snapshot?.row.id === threadId ? this.snapshot : null;
    this.snapshot = null;
    return snapshot;
  }

  /** Forgets the snapshot (the run ended). */
  dropSnapshot(): void {
    this.snapshot = null;
  }

  /** The thread was just read as `found`: the next commit may speculate on that version. */
  expect(found: ThreadForStep): void {
    this.expected = found;
  }

  /** Wakes `parentId` once the open transaction commits (its child reported in it). */
  wakeParentAfterCommit(parentId: string): void {
    this.wakeAfterCommit.add(parentId);
  }

  /**
   * Runs `work` in a transaction holding the thread's row lock, after checking lease and termination.
   *
   * `speculate`: when this runner knows the row's current version (`expected`: read at the step's
   * start or by the last commit), the lock is checked with the work instead of awaited
   * (`threadVersionCheck`, usually all in one statement: LazyTransaction), so a step commits in one
   * round trip. If anyone changed the row meanwhile, that transaction fails as a whole; the cache
   * the work touched is dropped and the work runs again under a lock read the ordinary way.
   */
  async commit<T>(threadId: string, work: CommitWork<T>, options: CommitOptions<T> = {}): Promise<T> {
    const known = this.expected?.row.id === threadId ? this.expected : null;
    this.expected = null;
    const expected =
      options.speculate && known && this.canCommitOn(known.row, options.allowUserStopped === true)
        ? known
        : null;
    if (expected) {
      // A lease renewal since `expected` was read is no conflict: the check accepts its copy
      // (`threadVersionCheck`).
      try {
        return await this.attempt(threadId, work, options, expected);
      } catch (error) {
        if (!isStaleThreadError(error)) throw error;
        // The work's in-memory effects (cached history, request-log base, call counts) belong to
        // a transaction that rolled back.
        this.memory.dropCache(threadId);
      }
    }
    return this.attempt(threadId, work, options, null);
  }

  /** What the locked path checks, on a row known to be current. */
  private canCommitOn(row: ThreadRow, allowUserStopped: boolean): boolean {
    return (
      row.terminated_at === null &&
      row.lease_owner === this.leaseOwner &&
      (allowUserStopped || !row.user_stopped)
    );
  }

  /** One try: speculative on `expected` when given, else under a lock read first. */
  // One function: a try reads top to bottom (checks, the work, the commit and read-back, then the
  // parents' wake-ups); splitting it would hide the order of its writes.
  private async attempt<T>(
    threadId: string,
    work: CommitWork<T>,
    options: CommitOptions<T>,
    expected: ThreadForStep | null,
  ): Promise<T> {
    this.snapshot = null;
    this.wakeAfterCommit.clear();
    this.numbering.reset();
    let result: T;
    let agentName = "";
    const readBackAfter = (done: T): boolean =>
      typeof options.readBack === "function"
        ? options.readBack(done)
        : options.snapshot === true || options.readBack === true;
    const checked = async (tx: SqlExecutor, row: ThreadRow | null): Promise<T> => {
      agentName = row?.agent_name ?? "";
      if (!row || row.terminated_at !== null) throw new ThreadTerminated();
      if (row.lease_owner !== this.leaseOwner) throw new LeaseLost();
      // A user stop wins over work in flight: nothing this step produced after it is committed.
      if (row.user_stopped && !options.allowUserStopped) throw new StoppedByUser();
      this.numbering.begin(row.id, row.message_seq);
      const done = await work(tx, row, expected);
      await this.flushMessageSeq(tx);
      return done;
    };
    let found: ThreadForStep | null = null;
    try {
      if (expected) {
        // Speculative: the work's statements and the version check usually go out as one statement
        // (LazyTransaction), the read-back in the same round trip.
        const lazy = speculativeStepTransaction(this.db, {
          id: threadId,
          rootId: expected.row.root_id,
          version: expected.version,
        });
        try {
          result = await checked(lazy, expected.row);
          const readBack = readBackAfter(result);
          // The thread update's RETURNING is the read-back when it was combined (updateLockedThread).
          // A failed read after the commit only means the next step reads the thread itself.
          found = await commitReadingThreadBack(lazy, threadId, { read: readBack, fromReturning: readBack });
        } catch (error) {
          await lazy.rollback(error);
          throw error;
        }
      } else {
        let snapshot: Promise<ThreadForStep | null> | null = null;
        result = await this.db.transaction(async (tx) => {
          const done = await checked(tx, await lockThread(tx, threadId));
          if (readBackAfter(done)) {
            snapshot = findThreadForStep(tx, threadId);
            snapshot.catch(() => {}); // a failure fails the COMMIT too
          }
          return done;
        });
        if (snapshot) found = await snapshot;
      }
      if (found) {
        this.expected = found;
        if (options.snapshot) this.snapshot = found;
      }
    } catch (error) {
      this.wakeAfterCommit.clear();
      throw error;
    }
    if (this.wakeAfterCommit.size > 0) crashPoint("before_parent_wake", agentName);
    for (const parentId of this.wakeAfterCommit) {
      if (this.parentWaker) this.parentWaker.request(parentId);
      else await wakeParent(this.db, parentId);
    }
    this.wakeAfterCommit.clear();
    return result;
  }

  /** Inserts messages and keeps the cached history in step (or drops it when someone else wrote). */
  async insert(tx: SqlExecutor, threadId: string, messages: NewMessage[]): Promise<StoredMessage[]> {
    const after = this.numbering.lastSeqFor(threadId);
    if (after === null) await this.flushMessageSeq(tx);
    const stored =
      after !== null
        ? await insertMessagesAfter(tx, threadId, after, messages)
        : await insertMessages(tx, threadId, messages);
    this.numbering.inserted(stored.at(-1)?.seq, after !== null);
    const cache = this.memory.peek(threadId);
    const history = cache?.history;
    if (history && stored.length > 0) {
      if (stored[0]!.seq === history.version + 1) {
        history.messages = [...history.messages, ...stored.filter((message) => message.depth === 0)];
        history.version = stored[stored.length - 1]!.seq;
      } else {
        cache.history = null;
      }
    }
    return stored;
  }

  /** `changes` plus the thread's message_seq when this transaction's inserts still owe it. */
  withMessageSeq(threadId: string, changes: ThreadChanges): ThreadChanges {
    const owed = this.numbering.takeOwed(threadId);
    return owed === null ? changes : { ...changes, messageSeq: owed };
  }

  /** Writes the owed message_seq on its own, before anything reads or moves it in SQL. */
  private async flushMessageSeq(tx: SqlExecutor): Promise<void> {
    const owed = this.numbering.takeFlush();
    if (!owed) return;
    await writeMessageSeqDeferred(tx, owed.threadId, owed.messageSeq);
  }

  /**
   * `message` (already in the history) was rewritten in this transaction, which also stores a new
   * message (so message_seq moves on): the cached history shows the new version.
   */
  replaced(threadId: string, message: StoredMessage): void {
    const history = this.memory.peek(threadId)?.history;
    if (history)
      history.messages = history.messages.map((entry) => (entry.id === message.id ? message : entry));
  }

  /** A message of this thread changed in place: bump the history version, forget the cached copy. */
  async changedHistory(tx: SqlExecutor, threadId: string): Promise<void> {
    await this.flushMessageSeq(tx);
    await bumpMessageSeq(tx, threadId);
    this.numbering.renumbered();
    const cache = this.memory.peek(threadId);
    if (cache) cache.history = null;
  }

  /** The seq the thread's next message will get (for turnStartSeq), without a query when known. */
  async nextSeq(tx: SqlExecutor, threadId: string): Promise<number> {
    const known = this.numbering.nextSeq();
    if (known !== null) return known;
    return nextMessageSeq(tx, threadId);
  }
}
