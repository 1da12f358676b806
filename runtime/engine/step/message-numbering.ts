// How the open step transaction numbers the thread's messages without asking the database: it
// holds the thread's row lock, so nobody else numbers messages meanwhile. Pure state; the
// ThreadCommitter runs the SQL it calls for.

export class MessageNumbering {
  /** The thread whose row lock the open transaction holds. */
  private threadId: string | null = null;
  /**
   * The thread's last message seq as of this transaction's own inserts; null when unknown (nothing
   * known yet), NaN once messages were renumbered (ask the database).
   */
  private lastSeq: number | null = null;
  /**
   * Inserts numbered here (`insertMessagesAfter`) leave the thread's message_seq behind: it goes out
   * with the transaction's next thread update (`takeOwed`), or on its own (`takeFlush`).
   */
  private owed = false;

  /** A new transaction: nothing known. */
  reset(): void {
    this.threadId = null;
    this.lastSeq = null;
    this.owed = false;
  }

  /** The transaction locked `threadId`, whose last message has `messageSeq`. */
  begin(threadId: string, messageSeq: number): void {
    this.threadId = threadId;
    this.lastSeq = messageSeq;
  }

  /** The seq after which messages of `threadId` can be numbered here, or null (ask the database). */
  lastSeqFor(threadId: string): number | null {
    return this.threadId === threadId && this.lastSeq !== null && Number.isFinite(this.lastSeq)
      ? this.lastSeq
      : null;
  }

  /** Messages were stored up to `lastStoredSeq`; `numberedHere`: by `lastSeqFor` (message_seq owed). */
  inserted(lastStoredSeq: number | undefined, numberedHere: boolean): void {
    if (lastStoredSeq === undefined) return;
    if (numberedHere) this.owed = true;
    if (this.lastSeq === null || lastStoredSeq > this.lastSeq) this.lastSeq = lastStoredSeq;
  }

  /** Messages changed in place and the thread's message_seq was bumped: the numbering is unknown. */
  renumbered(): void {
    this.lastSeq = Number.NaN;
  }

  /** The seq the next message will get, when known. */
  nextSeq(): number | null {
    return this.lastSeq !== null && Number.isFinite(this.lastSeq) ? this.lastSeq + 1 : null;
  }

  /** The message_seq owed to `threadId`'s next update (then settled), or null when none is owed. */
  takeOwed(threadId: string): number | null {
    if (!this.owed || threadId !== this.threadId) return null;
    this.owed = false;
    return this.lastSeq as number;
  }

  /** The message_seq owed to the locked thread (then settled), for an update of its own; or null. */
  takeFlush(): { threadId: string; messageSeq: number } | null {
    if (!this.owed || this.threadId === null) return null;
    this.owed = false;
    return { threadId: this.threadId, messageSeq: this.lastSeq as number };
  }
}
