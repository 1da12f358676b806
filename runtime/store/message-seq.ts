// A thread's message_seq (the number of its last message) as the step's commits keep it: written
// when inserts numbered in memory owe it, and read when the next number is not known in memory.
import type { SqlExecutor } from "@/lib/db/sql-client";

/** Writes the thread's message_seq, deferred (sent with the transaction's next statement). */
export function writeMessageSeqDeferred(
  tx: SqlExecutor,
  threadId: string,
  messageSeq: number,
): Promise<void> {
  return tx.defer("UPDATE threads SET message_seq = $2 WHERE id = $1", [threadId, messageSeq]);
}

/** The number the thread's next message will get. */
export async function nextMessageSeq(tx: SqlExecutor, threadId: string): Promise<number> {
  const [{ next }] = (await tx.query<{ next: number }>(
    "SELECT message_seq + 1 AS next FROM threads WHERE id = $1",
    [threadId],
  )) as [{ next: number }];
  return Number(next);
}
