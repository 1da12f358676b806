// The replayable event log as the SSE route reads it (GET /api/threads/:id/events): pages of a
// root's events after a cursor, and the subtree a stream below the root is limited to.
import type { SqlExecutor } from "@/lib/db/sql-client";
import { readEventsAfter, type StoredEvent } from "../store/event-log";
import { findSubtreeIds } from "../store/thread-store";

export class EventLogService {
  constructor(private readonly db: SqlExecutor) {}

  /** Up to `limit` events of the root after `cursor`; `complete` when nothing more is committed. */
  readAfter(
    rootId: string,
    cursor: number,
    limit: number,
  ): Promise<{ events: StoredEvent[]; complete: boolean }> {
    return readEventsAfter(this.db, rootId, cursor, limit);
  }

  /** The thread and all its descendants, as of now. */
  subtreeIds(threadId: string): Promise<string[]> {
    return findSubtreeIds(this.db, threadId);
  }
}
