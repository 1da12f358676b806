// Group commit (issue 19 item 2). A one-statement commit (LazyTransaction) is a whole transaction by
// itself: one statement, one commit, one WAL flush. When many threads commit at the same moment, the
// batcher collects the one-statement commits submitted in the same turn of the event loop and sends
// them as ONE transaction on one connection, pipelined in one round trip:
//
//   BEGIN; check₁; …; checkₙ; commit₁; …; commitₙ; COMMIT; reads₁ …; readsₙ
//
// so n threads' steps share a round trip, a BEGIN/COMMIT and a WAL flush. Each part keeps its own
// checks (the thread's version check: lease, termination and user stop), run first, in a fixed order
// (`order`: root, then thread), so a group locks the rows it will write before it takes any event
// lock, and two groups take their locks in one order. The reads after a commit go out after COMMIT.
//
// A part that fails must not take its batch-mates down, and none may commit twice:
// - a check or commit raising a guard of its own (SQLSTATE P0001: `tandem_expect`, e.g. a stale
//   thread) fails that part alone — it would have failed the same way alone, run at that point — and
//   the other parts go again as a new group (nothing of the failed group was committed; after three
//   tries, each goes alone);
// - any other server error (a deadlock, a serialization failure, a constraint) rolls the group back,
//   and every part then runs alone, as it would have without group commit, and gets its own outcome;
// - a lost connection leaves the outcome unknown: every part gets that error, exactly as a
//   one-statement commit sent alone would.
// A group of one is sent alone (no BEGIN/COMMIT). At most `maxInFlight` groups are in flight, each on
// its own connection: what is ready when connections are free is spread evenly over them (a group's
// statements run one after another in one backend; several groups keep several cores busy), at most
// `maxParts` per group. While all are busy, new commits queue and form the next groups (the longer a
// commit takes, the larger groups grow: classic group commit).
//
// One tree (the root in a part's `order`, before the `/`) has at most one group in flight, and its
// parts ready at once go in one group, not spread over several: every commit of a tree appends to the
// tree's event log under the root's event lock, which a group holds from its first events insert
// through its COMMIT's WAL flush. Parallel groups of one tree would only queue on that lock inside
// Postgres, each paying its own flush in turn, while holding connections other trees could use; held
// here instead, the tree's next commits wait for its group and then share one transaction and one
// flush (docs/benchmarks.md, session 44).
import type { SqlOutcome, SqlStatement } from "./sql-client";

/** One thread's one-statement commit, waiting for its group. */
export interface CommitPart {
  statement: SqlStatement;
  /** Checks the statement itself starts with (LazyTransaction's), run first in a group. */
  checks: readonly SqlStatement[];
  /** Reads of what the statement committed, sent after it (after the group's COMMIT). */
  after: readonly SqlStatement[];
  /** Where the part's locks go in a group (root, then thread): groups lock in one order. */
  order: string;
  /**
   * The row its checks lock (the thread's row), when they lock just that one: in a group, one
   * statement locks every part's row ahead (`rowLocksAhead`) and the checks run only once, inside
   * each part's statement, instead of on their own first and again in the statement.
   */
  lock?: RowLock;
}

/** One row a part's checks lock FOR NO KEY UPDATE: table, the type of its `id` column, the id. */
export interface RowLock {
  table: string;
  idType: string;
  id: string;
}

/** What the wire sent for one group: each part's rows and reads, or the failure that stopped it. */
export type GroupOutcome =
  | { committed: true; parts: SqlOutcome[][] }
  | {
      committed: false;
      /** The first statement that failed: its part (null: BEGIN or COMMIT), and its error. */
      failedPart: number | null;
      error: unknown;
    };

export interface CommitBatcherWire {
  /** One part alone, as without group commit: `[statement, ...after]`, each its own transaction. */
  alone(part: CommitPart): Promise<SqlOutcome[]>;
  /** The parts in one transaction, pipelined (see the file comment). */
  group(parts: readonly CommitPart[]): Promise<GroupOutcome>;
  /** Whether the error is one the server answered (the transaction rolled back), not a lost connection. */
  isServerError(error: unknown): boolean;
}

/** How one-statement commits were grouped in this process (GET /api/health `load.commits`). */
export interface CommitBatchStats {
  /** Whether group commit is on (TANDEM_GROUP_COMMIT; never on the embedded database). */
  grouped: boolean;
  /** Transactions that committed two or more threads' commits together. */
  batches: number;
  /** The commits they held. */
  parts: number;
  /** The most commits one of them held. */
  largest: number;
  /** One-statement commits sent alone (nothing else was ready at that moment). */
  alone: number;
  /** Groups that failed as a whole: a part's own guard (the rest went again) or anything else. */
  retried: number;
  /** Groups whose parts then ran alone each (a server error not attributable to one part). */
  fallbacks: number;
}

export function emptyCommitBatchStats(grouped: boolean): CommitBatchStats {
  return { grouped, batches: 0, parts: 0, largest: 0, alone: 0, retried: 0, fallbacks: 0 };
}

interface Waiting {
  part: CommitPart;
  resolve: (outcomes: SqlOutcome[]) => void;
  reject: (error: unknown) => void;
}

/** A group that failed on a part's own guard is tried again without it, up to this many times in all. */
const GROUP_TRIES = 3;
/** SQLSTATE of RAISE EXCEPTION without a code: the runtime's guards (`tandem_expect`). */
const RAISED_GUARD = "P0001";

export class CommitBatcher {
  private readonly waiting: Waiting[] = [];
  private inFlight = 0;
  /** The trees with a group in flight: their parts wait for it (see the file comment). */
  private readonly treesInFlight = new Set<string>();
  private scheduled = false;
  readonly stats = emptyCommitBatchStats(true);
  /** Told the size of every transaction that committed (1: a commit sent alone); metrics only. */
  onCommitted: ((parts: number) => void) | null = null;

  constructor(
    private readonly wire: CommitBatcherWire,
    private readonly limits: { maxInFlight: number; maxParts: number },
  ) {}

  /** Commits `part` (alone or with others ready now); resolves like `sequence([statement, ...after])`. */
  submit(part: CommitPart): Promise<SqlOutcome[]> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ part, resolve, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled || this.waiting.length === 0 || this.inFlight >= this.limits.maxInFlight) return;
    this.scheduled = true;
    // After the current turn's I/O callbacks: every commit submitted in this turn joins the group.
    setImmediate(() => {
      this.scheduled = false;
      // Spread what is ready over the free connections: several groups run in parallel (a group's
      // statements run one after another in one backend), each as large as its share.
      const free = this.limits.maxInFlight - this.inFlight;
      for (const batch of this.formGroups(free)) {
        const trees = new Set(batch.map((waiting) => treeOf(waiting.part)));
        for (const tree of trees) if (tree !== null) this.treesInFlight.add(tree);
        this.inFlight += 1;
        void this.send(batch).finally(() => {
          for (const tree of trees) if (tree !== null) this.treesInFlight.delete(tree);
          this.inFlight -= 1;
          this.schedule();
        });
      }
    });
  }

  /**
   * Takes up to `free` groups out of `waiting`: the parts of trees with no group in flight, each
   * tree's ready parts whole in one group (the largest trees first, each into the smallest group so
   * far), the groups about equal, at most `maxParts` each. A tree with more parts ready than fit sends
   * `maxParts` of them now (the first to arrive); the rest, and the parts of trees in flight, keep
   * their places in `waiting`.
   */
  private formGroups(free: number): Waiting[][] {
    // Keyed by tree; a part with no tree is a tree of its own.
    const trees = new Map<string | Waiting, Waiting[]>();
    let ready = 0;
    for (const waiting of this.waiting) {
      const tree = treeOf(waiting.part);
      if (tree !== null && this.treesInFlight.has(tree)) continue;
      ready += 1;
      const key = tree ?? waiting;
      const parts = trees.get(key);
      if (parts) parts.push(waiting);
      else trees.set(key, [waiting]);
    }
    if (ready === 0) return [];
    const count = Math.min(free, trees.size);
    const size = Math.min(this.limits.maxParts, Math.ceil(ready / count));
    const groups: Waiting[][] = Array.from({ length: count }, () => []);
    const taken = new Set<Waiting>();
    for (const parts of [...trees.values()].sort((one, other) => other.length - one.length)) {
      const smallest = groups.reduce((least, group) => (group.length < least.length ? group : least));
      // A tree goes whole into one group (up to maxParts, then the rest waits for that group);
      // past the groups' even share it waits for the next round rather than overfill one.
      if (smallest.length > 0 && smallest.length + parts.length > size) continue;
      for (const waiting of parts.slice(0, this.limits.maxParts - smallest.length)) {
        smallest.push(waiting);
        taken.add(waiting);
      }
    }
    const kept = this.waiting.filter((waiting) => !taken.has(waiting));
    this.waiting.splice(0, this.waiting.length, ...kept);
    return groups.filter((group) => group.length > 0);
  }

  private async send(batch: Waiting[]): Promise<void> {
    let left = [...batch].sort((one, other) => compare(one.part.order, other.part.order));
    for (let tries = 0; left.length > 0; tries += 1) {
      if (left.length === 1 || tries >= GROUP_TRIES) {
        await this.sendAlone(left);
        return;
      }
      let outcome: GroupOutcome;
      try {
        outcome = await this.wire.group(left.map((waiting) => waiting.part));
      } catch (error) {
        outcome = { committed: false, failedPart: null, error };
      }
      if (outcome.committed) {
        this.stats.batches += 1;
        this.stats.parts += left.length;
        this.stats.largest = Math.max(this.stats.largest, left.length);
        this.onCommitted?.(left.length);
        for (const [index, waiting] of left.entries()) waiting.resolve(outcome.parts[index]!);
        return;
      }
      this.stats.retried += 1;
      if (!this.wire.isServerError(outcome.error)) {
        // The connection went: whether the group committed is unknown, as for a commit sent alone.
        for (const waiting of left) waiting.reject(outcome.error);
        return;
      }
      const failed = outcome.failedPart === null ? undefined : left[outcome.failedPart];
      if (failed && errorCode(outcome.error) === RAISED_GUARD) {
        // The part's own guard: it fails alone; nothing of the group committed, the rest goes again.
        failed.reject(outcome.error);
        left = left.filter((waiting) => waiting !== failed);
        continue;
      }
      this.stats.fallbacks += 1;
      await this.sendAlone(left);
      return;
    }
  }

  /** Each part alone, as without group commit (all at once: the pool pipelines them). */
  private async sendAlone(parts: Waiting[]): Promise<void> {
    this.stats.alone += parts.length;
    await Promise.all(
      parts.map(async (waiting) => {
        try {
          waiting.resolve(await this.wire.alone(waiting.part));
          this.onCommitted?.(1);
        } catch (error) {
          waiting.reject(error);
        }
      }),
    );
  }
}

/** The tree of a part: the root its `order` names first (before the `/`); null when it names none. */
function treeOf(part: CommitPart): string | null {
  if (part.order === "") return null;
  const slash = part.order.indexOf("/");
  return slash === -1 ? part.order : part.order.slice(0, slash);
}

function compare(left: string, right: string): number {
  return left < right ? -1 : left > right ? 1 : 0;
}

function errorCode(error: unknown): unknown {
  return (error as { code?: unknown } | null)?.code;
}
