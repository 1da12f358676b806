// Transactions that go out as one statement when they can (LazyTransaction, lib/db/lazy-transaction.ts),
// guarded by a check that runs first, with the thread read back for its next step in the same round
// trip: a step's speculative commit on a known row version (ThreadCommitter) and a root thread's
// creation checked against its project's current version (ThreadService.create). The caller does its
// work in the transaction opened here, then commits it here (`commitReadingThreadBack`) or rolls it back.
import { LazyTransaction } from "@/lib/db/lazy-transaction";
import type { SqlClient } from "@/lib/db/sql-client";
import { projectVersionCheck } from "./project-versions";
import type { ThreadRow } from "./thread-row";
import {
  type ThreadForStep,
  threadForStepAfterUpdate,
  threadForStepStatement,
  threadRowLock,
  threadVersionCheck,
  toThreadForStep,
} from "./thread-store";

export type { LazyTransaction };

/**
 * A step's speculative commit on the thread at `version`: it fails as a whole when the row moved
 * (`threadVersionCheck`); in a group commit its locks go in the order root, thread, and the group
 * locks the thread's row ahead.
 */
export function speculativeStepTransaction(
  db: SqlClient,
  thread: { id: string; rootId: string; version: string },
): LazyTransaction {
  return new LazyTransaction(
    db,
    [threadVersionCheck(thread.id, thread.version)],
    `${thread.rootId}/${thread.id}`,
    threadRowLock(thread.id),
  );
}

/**
 * A root thread's creation pinned to `projectVersion`, which fails as a whole unless that is still
 * its project's current version (`projectVersionCheck`).
 */
export function threadCreationTransaction(
  db: SqlClient,
  creation: { threadId: string; projectId: string; projectVersion: number },
): LazyTransaction {
  return new LazyTransaction(
    db,
    [projectVersionCheck(creation.projectId, creation.projectVersion)],
    `${creation.threadId}/${creation.threadId}`,
  );
}

/** What `commitReadingThreadBack` reads back. */
export interface ThreadReadBack {
  /** Read the thread for its next step (pipelined with the COMMIT); false: nothing is read. */
  read: boolean;
  /**
   * Take it from the RETURNING of the thread's own insert or update when that was combined into the
   * one statement (then nothing else is sent), else read it after the commit.
   */
  fromReturning: boolean;
}

/**
 * Commits `tx` and, with `readBack.read`, returns `threadId` as the commit left it, for its next
 * step; null without a read-back, or when the read after a one-statement commit failed (the commit
 * stands: the next step reads the thread itself).
 */
export async function commitReadingThreadBack(
  tx: LazyTransaction,
  threadId: string,
  readBack: ThreadReadBack,
): Promise<ThreadForStep | null> {
  const committed = await tx.commit(readBack.read ? [threadForStepStatement(threadId)] : [], {
    returnedInsteadOfAfter: readBack.fromReturning,
  });
  // The combined insert or update returned the row's version; the row is what it wrote (`describes`).
  const returned = committed.returned?.[0];
  const known = committed.returnedFrom?.describes as ThreadRow | undefined;
  if (returned && known) return threadForStepAfterUpdate(known, returned);
  const row = returned ?? committed.after[0]?.[0];
  return row ? toThreadForStep(row) : null;
}
