// The `total` of a thread's message list (GET /api/threads/:id/messages), counted from where this
// process counted it last, so the first page of a long thread costs as much as a short one's.
//
// Why a remembered count stays right: a thread's messages are appended numbered above its
// message_seq, which the same transaction moves past them; anything else (a message's silent flag
// changed, a message deleted) goes through `bumpMessageSeq`, which records the new message_seq as
// history_rewritten_seq. So a count made at message_seq S still holds for the messages numbered up
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

export class MessageTotals {
  private readonly counted = new Map<string, { seq: number; total: number }>();

  constructor(private readonly capacity = REMEMBERED_COUNTS) {}

  /** The message_seq the thread's list under `filter` was counted at (0: not counted): count above it. */
  countedSeq(threadId: string, filter: MessageListFilter): number {
    return this.counted.get(keyOf(threadId, filter))?.seq ?? 0;
  }

  /** The list's total from what was read (`null`: the thread does not exist), remembered for next time. */
  settle(threadId: string, filter: MessageListFilter, read: CountRead | null): number | null {
    const key = keyOf(threadId, filter);
    const known = this.counted.get(key);
    this.counted.delete(key); // set again last when kept: the Map's order is the recency order
    if (!read) return null;
    const total = (read.fromSeq > 0 ? (known?.total ?? 0) : 0) + read.counted;
    if (read.top <= read.messageSeq) {
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
