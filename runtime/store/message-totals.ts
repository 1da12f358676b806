// The `total` of a thread's message list (GET /api/threads/:id/messages), counted from where this
// process counted it last, so the first page of a long thread costs as much as a short one's.
//
// Why a remembered count stays right: a thread's messages are appended numbered above its
// message_seq, which the same transaction moves past them; a change that can alter which messages a
// list shows (a message's silent flag, a message deleted) goes through `bumpMessageSeq`, which
// records the new message_seq as history_rewritten_seq. So a count made at message_seq S still holds for the messages numbered up
// to S while history_rewritten_seq ≤ S, and only the messages numbered above S are counted anew
// (SQL function tandem_message_total: the thread's row and the count in one snapshot, read with the
// page: readMessageList). A thread
// with a message numbered above its message_seq (which no write path does) is never remembered.
/** How many counts are remembered (least recently used dropped first): ~100 bytes each. */
const REMEMBERED_COUNTS = 10_000;

/** Which of a thread's messages a list shows. */
export interface MessageListFilter {
  includeSilent: boolean;
  /** Sub-prompt messages down to this depth (0: top-level only). */
  maxDepth: number;
}

/** What tandem_message_total reads with a list: the thread's message_seq and the count it made. */
export interface CountRead {
  messageSeq: number;
  /** The seq the count started above (0: the whole list was counted). */
  fromSeq: number;
  counted: number;
  /** The highest seq among the counted messages. */
  top: number;
}

/** A list's count as made at the thread's message_seq `seq`. */
export interface RememberedCount {
  seq: number;
  total: number;
}

export class MessageTotals {
  private readonly counted = new Map<string, RememberedCount>();

  constructor(private readonly capacity = REMEMBERED_COUNTS) {}

  /**
   * The count this process remembers of the thread's list under `filter` (null: none): the list is
   * counted above its message_seq, and `settle` adds to it. Taken before the read, so two reads in
   * flight at once each add their count to the count they started from, not to each other's.
   */
  base(threadId: string, filter: MessageListFilter): RememberedCount | null {
    return this.counted.get(keyOf(threadId, filter)) ?? null;
  }

  /**
   * The list's total from what was read above `base` (`read` null: the thread does not exist); the
   * newest count is remembered for next time.
   */
  settle(
    threadId: string,
    filter: MessageListFilter,
    base: RememberedCount | null,
    read: CountRead | null,
  ): number | null {
    const key = keyOf(threadId, filter);
    const stored = this.counted.get(key);
    if (!read) {
      this.counted.delete(key);
      return null;
    }
    // from_seq is the base's seq when the base still held in the read's snapshot, else 0.
    const total = (base && read.fromSeq > 0 && read.fromSeq === base.seq ? base.total : 0) + read.counted;
    if (read.top <= read.messageSeq && (!stored || stored.seq <= read.messageSeq)) {
      this.counted.delete(key); // set again last: the Map's order is the recency order
      this.counted.set(key, { seq: read.messageSeq, total });
      if (this.counted.size > this.capacity) {
        const oldest = this.counted.keys().next().value;
        if (oldest !== undefined) this.counted.delete(oldest);
      }
    }
    return total;
  }

  /** Counts remembered now (tests). */
  get size(): number {
    return this.counted.size;
  }
}

function keyOf(threadId: string, filter: MessageListFilter): string {
  return `${threadId}|${filter.includeSilent}|${filter.maxDepth}`;
}
