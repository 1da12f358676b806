// Applies a `thread` event: the thread's latest payload, its place in the tree (once, when first
// seen), and the status and per-agent counters. Work is O(siblings) for a new thread, O(1) otherwise.
import type { LiveThread, ThreadStatus } from "./events";
import { getEntry, setEntry, updateEntry } from "./persistent-map";
import type { LiveState, StatusCounts } from "./state";

const ACTIVE_STATUSES: ReadonlySet<ThreadStatus> = new Set(["queued", "running"]);
/** Statuses after which no model call of the thread is in flight, so partial streamed text is moot. */
const SETTLED_STATUSES: ReadonlySet<ThreadStatus> = new Set(["completed", "failed", "stopped", "terminated"]);

export function isActiveStatus(status: ThreadStatus): boolean {
  return ACTIVE_STATUSES.has(status);
}

/**
 * When a thread that is not queued or running stopped working: `finished_at`, else (an older server,
 * a thread that never worked) its last update. Not `updated_at` alone: a terminate or stop of the
 * tree rewrites that on children that had finished long before.
 */
export function workEndedAt(thread: Pick<LiveThread, "finished_at" | "updated_at">): number {
  return thread.finished_at ?? thread.updated_at;
}

export function isSettledStatus(status: ThreadStatus): boolean {
  return SETTLED_STATUSES.has(status);
}

export function applyThread(state: LiveState, thread: LiveThread): LiveState {
  const previous = getEntry(state.threads, thread.id);
  // A payload older than the one we hold (a replay without an id) must not roll the thread back.
  if (previous && thread.updated_at < previous.updated_at) return state;
  const next: LiveState = {
    ...state,
    threads: setEntry(state.threads, thread.id, thread),
    statusCounts: recount(state.statusCounts, previous?.status, thread.status),
    activeThreadsByAgent: recountAgents(state.activeThreadsByAgent, previous, thread),
    streaming:
      isSettledStatus(thread.status) && getEntry(state.streaming, thread.id)
        ? setEntry(state.streaming, thread.id, {})
        : state.streaming,
  };
  return previous ? next : placeInTree(next, thread);
}

function recount(counts: StatusCounts, before: ThreadStatus | undefined, after: ThreadStatus): StatusCounts {
  if (before === after) return counts;
  const next = { ...counts, [after]: counts[after] + 1 };
  if (before !== undefined) next[before] = counts[before] - 1;
  return next;
}

function recountAgents(
  counts: Readonly<Record<string, number>>,
  previous: LiveThread | undefined,
  thread: LiveThread,
): Readonly<Record<string, number>> {
  const wasActive = previous !== undefined && isActiveStatus(previous.status);
  const isActive = isActiveStatus(thread.status);
  // Unchanged unless the thread starts or stops being active, or an active thread changes agent
  // (both active: `wasActive` says there is a previous payload).
  if (wasActive === isActive && (!isActive || previous!.agent_id === thread.agent_id)) return counts;
  const next: Record<string, number> = { ...counts };
  if (wasActive) {
    const remaining = (next[previous.agent_id] ?? 0) - 1;
    if (remaining > 0) next[previous.agent_id] = remaining;
    else delete next[previous.agent_id];
  }
  if (isActive) next[thread.agent_id] = (next[thread.agent_id] ?? 0) + 1;
  return next;
}

/**
 * Lists a newly seen thread under its parent (known or not yet) or among the roots, keeping
 * creation order by (created_at, id) — the order the server's registry uses — so the result does
 * not depend on the order in which the events arrived.
 */
function placeInTree(state: LiveState, thread: LiveThread): LiveState {
  const createdBefore = (id: string): boolean => {
    // Every listed id is a thread already placed, so it is in `threads`.
    const other = getEntry(state.threads, id)!;
    return (
      other.created_at < thread.created_at || (other.created_at === thread.created_at && other.id < thread.id)
    );
  };
  if (thread.parent_id === null || thread.id === state.rootId) {
    return { ...state, roots: insertOrdered(state.roots, thread.id, createdBefore) };
  }
  return {
    ...state,
    childrenByParent: updateEntry(state.childrenByParent, thread.parent_id, (siblings = []) =>
      insertOrdered(siblings, thread.id, createdBefore),
    ),
  };
}

/** Inserts `id` after every id for which `comesBefore` holds (a binary search; ids are in that order). */
function insertOrdered(
  ids: readonly string[],
  id: string,
  comesBefore: (id: string) => boolean,
): readonly string[] {
  let low = 0;
  let high = ids.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (comesBefore(ids[middle]!)) low = middle + 1;
    else high = middle;
  }
  return [...ids.slice(0, low), id, ...ids.slice(low)];
}
