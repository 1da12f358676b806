// What one step runner remembers of the threads it runs, between their steps: the top-level
// history, scripted-call counts, the last logged request per side, and the run's flow id and
// ThreadState.context. Forgotten whenever a run parks, loses its lease or fails.
import { randomUUID } from "node:crypto";
import type { SqlClient } from "@/lib/db/sql-client";
import { readHistory } from "../../store/message-store";
import type { StoredMessage } from "../../store/messages";
import type { ThreadRow } from "../../store/thread-row";
import type { OneOffReportRoute } from "../../subagents/report-to-parent";
import { extendsHistory } from "../history-prefix";
import type { ParkedCaches } from "../parked-caches";
import { ReplayRecordings } from "./replay-recordings";
import type { ThreadCache } from "./types";

export class RunMemory {
  constructor(
    private readonly db: SqlClient,
    private readonly parked: {
      parkedCaches?: ParkedCaches<ThreadCache>;
      spawnedCaches?: ParkedCaches<ThreadCache>;
    },
  ) {}

  /**
   * What this process remembers of a thread it is running: the top-level history (valid while the
   * thread's message_seq matches), scripted-call counts, and the last logged request per side (for
   * delta-encoded request logs).
   */
  private readonly caches = new Map<string, ThreadCache>();

  /** Per-execution state (spec ThreadState.context and the flow id), from input drained to parked. */
  private readonly runs = new Map<string, { flowId: string; context: Record<string, unknown> }>();

  /** Source recordings replayed threads are answered from (kept across runs: they never change). */
  readonly replayRecordings = new ReplayRecordings();

  /** Threads whose session ended in the step now running (for the after_terminal_commit crash point). */
  readonly endedSessions = new Map<string, string>();

  /**
   * Messages stored with a thread's run started, not drained, that its next step announces to
   * after_create_message (`TakenThread.announce`). Kept here, with the run, not in the parked caches
   * whose bounds may drop an entry before the run takes it.
   */
  private readonly unannounced = new Map<string, StoredMessage[]>();

  /** Forgets the thread's run and cache (a run ended); returns the cache it had. */
  forget(threadId: string): ThreadCache | undefined {
    this.runs.delete(threadId);
    this.unannounced.delete(threadId);
    const cache = this.caches.get(threadId);
    this.caches.delete(threadId);
    return cache;
  }

  /** Drops the thread's cache alone (its contents belong to a transaction that rolled back). */
  dropCache(threadId: string): void {
    this.caches.delete(threadId);
  }

  /** The thread's cache when it has one (no new one is made). */
  peek(threadId: string): ThreadCache | undefined {
    return this.caches.get(threadId);
  }

  /**
   * Takes back the cache a thread had when it parked, if the thread's message_seq is still the one
   * the cache saw: every message and every successful model call of any process bumps it, so the
   * history, the scripted-call counts and the last logged requests are then all still exact.
   */
  restoreParked(row: ThreadRow): void {
    const parked = this.parked.parkedCaches?.take(row.id) ?? this.parked.spawnedCaches?.take(row.id);
    if (!parked || this.caches.has(row.id)) return;
    // Running again: how it parked is said anew when it parks next (parkThread).
    delete parked.parkedAs;
    if (parked.history?.version === row.message_seq) this.caches.set(row.id, parked);
  }

  /** The run's next step announces `messages` (stored without a drain) to after_create_message. */
  announceLater(threadId: string, messages: readonly StoredMessage[]): void {
    this.unannounced.set(threadId, [...(this.unannounced.get(threadId) ?? []), ...messages]);
  }

  /** The messages stored with the run started and not announced yet, in order; handed out once. */
  takeUnannounced(threadId: string): StoredMessage[] {
    const messages = this.unannounced.get(threadId) ?? [];
    this.unannounced.delete(threadId);
    return messages;
  }

  cache(threadId: string): ThreadCache {
    let cache = this.caches.get(threadId);
    if (!cache) {
      cache = { history: null, modelCalls: new Map(), requests: new Map() };
      this.caches.set(threadId, cache);
    }
    return cache;
  }

  /** The top-level history (silent included), from memory while nobody else changed it. */
  async historyOf(row: ThreadRow): Promise<StoredMessage[]> {
    const cache = this.cache(row.id);
    if (cache.history && cache.history.version === row.message_seq) return cache.history.messages;
    const messages = await readHistory(this.db, row.id);
    cache.history = { version: row.message_seq, messages };
    return messages;
  }

  /** The thread's current run (flow id and context); `fresh` starts a new one (input was drained). */
  run(threadId: string, fresh = false): { flowId: string; context: Record<string, unknown> } {
    let run = this.runs.get(threadId);
    if (!run || fresh) {
      run = { flowId: randomUUID(), context: {} };
      this.runs.set(threadId, run);
    }
    return run;
  }

  /**
   * The one-off report route of a child spawned here (`OneOffReportRoute`), while what this run
   * remembers shows it has no children of its own (none of its messages came from or went to one).
   */
  oneOffRoute(threadId: string): OneOffReportRoute | null {
    const cache = this.caches.get(threadId);
    const history = cache?.history?.messages;
    if (!cache?.report || !history) return null;
    const hasChildren = history.some(
      (message) => message.subagent_id !== null || message.metadata.subagent !== undefined,
    );
    return hasChildren ? null : cache.report;
  }
}

/** Bytes a message costs beyond its text (its row's other fields, the object itself): an estimate. */
const MESSAGE_OVERHEAD_BYTES = 512;

/**
 * A cache's size in memory, estimated: its history's text (two bytes a character) and a fixed
 * amount per message and per remembered request message (whose texts are the history's own strings).
 */
export function threadCacheBytes(cache: ThreadCache): number {
  let bytes = MESSAGE_OVERHEAD_BYTES + historyBytes(cache);
  for (const request of cache.requests.values())
    bytes += 64 * (request.messages.length + request.tools.length);
  // Context memos: a small object per assembled message, a pointer per remembered one.
  for (const memo of cache.contexts?.values() ?? [])
    bytes += 64 * memo.pass.result.length + 8 * (memo.fed.length + memo.settled.length);
  return bytes;
}

/**
 * The history's part of the estimate: counted once per message while the history only grows (a
 * thread is estimated each time it parks, so a long conversation's turn would otherwise cost
 * O(history) here). The array counted last is kept, not a copy: the run memory replaces a thread's
 * history array when it changes (thread-committer.ts), it does not rewrite one (an estimate could only
 * go stale if it did).
 */
function historyBytes(cache: ThreadCache): number {
  const messages = cache.history?.messages ?? [];
  const counted = cache.historyBytes;
  const from = counted && extendsHistory(counted.messages, messages, counted.length) ? counted.length : 0;
  let bytes = from > 0 ? (counted?.bytes ?? 0) : 0;
  for (let index = from; index < messages.length; index += 1) {
    const message = messages[index] as StoredMessage;
    bytes += MESSAGE_OVERHEAD_BYTES + 2 * (message.content?.length ?? 0);
    for (const call of message.tool_calls ?? [])
      bytes += MESSAGE_OVERHEAD_BYTES / 4 + 2 * call.function.arguments.length;
  }
  cache.historyBytes = { messages, length: messages.length, bytes };
  return bytes;
}
