// What this process knows of the threads that parked here, for a message posted to one of them: the
// thread as it parked (so the post can store the message and start the run in its own statement,
// `postRunningInput`), and the history it keeps extended by the message stored that way.
import type { StoredMessage } from "../store/messages";
import type { ParkedAs } from "../store/thread-lifecycle";
import type { ParkedCaches } from "./parked-caches";
import type { ThreadCache } from "./step/types";

export interface ParkedHere {
  /** The thread as it parked here, or null when this process keeps no cache of how it parked. */
  known(threadId: string): (ParkedAs & { projectId: string }) | null;
  /**
   * A message stored with the thread's run started (`postRunningInput`): its next run finds it in
   * the history (the post hands it to that run to announce: `TakenThread.announce`).
   */
  storedWith(threadId: string, message: StoredMessage): void;
  /** The thread is no longer as it parked here (a post found it changed): forget how it parked. */
  changed(threadId: string): void;
  /**
   * A root thread this process just created idle, with no message and no run yet: it rests as if it
   * had parked here with an empty history, so the first message posted to it stores itself and
   * starts the run in one statement too (the statement still checks the row is exactly so).
   */
  createdIdle(threadId: string, as: { projectId: string; projectVersion: number; agentName: string }): void;
}

export function parkedHere(parkedCaches: ParkedCaches<ThreadCache>): ParkedHere {
  return {
    known(threadId) {
      const cache = parkedCaches.peek(threadId);
      if (!cache?.parkedAs || !cache.history) return null;
      return { ...cache.parkedAs, messageSeq: cache.history.version };
    },
    createdIdle(threadId, as) {
      parkedCaches.park(threadId, {
        history: { version: 0, messages: [] },
        modelCalls: new Map(),
        requests: new Map(),
        parkedAs: { ...as, rootId: threadId },
      });
    },
    changed(threadId) {
      const cache = parkedCaches.peek(threadId);
      if (cache) delete cache.parkedAs;
    },
    storedWith(threadId, message) {
      const cache: ThreadCache = parkedCaches.take(threadId) ?? {
        history: null,
        modelCalls: new Map(),
        requests: new Map(),
      };
      const previous = cache.history;
      // The run has started: how the thread parked no longer holds.
      delete cache.parkedAs;
      parkedCaches.park(threadId, {
        ...cache,
        history:
          previous && previous.version === message.seq - 1
            ? { version: message.seq, messages: [...previous.messages, message] }
            : null,
      });
    },
  };
}
