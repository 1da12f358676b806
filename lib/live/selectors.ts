// Read-only views of the live state for the tree, registry, transcript and status panels. Walks
// are bounded by what they show (a subtree, the expanded rows); memoise them on the state objects
// they read (e.g. `state.threads`, `state.childrenByParent`), which change only when events do.
import { isActiveStatus, workEndedAt } from "./apply-thread";
import type { LiveMessage, LiveThread, RegistryEntry, Usage } from "./events";
import { getEntry, mapValues } from "./persistent-map";
import { EMPTY_TELEMETRY, type LiveState, type StatusCounts, type ThreadTelemetry } from "./state";

const NO_IDS: readonly string[] = [];
const NO_MESSAGES: readonly LiveMessage[] = [];

export function selectThread(state: LiveState, threadId: string): LiveThread | undefined {
  return getEntry(state.threads, threadId);
}

/** Known children of a thread in creation order (also those that arrived before the thread itself). */
export function selectChildIds(state: LiveState, threadId: string): readonly string[] {
  return getEntry(state.childrenByParent, threadId) ?? NO_IDS;
}

export function selectTranscript(state: LiveState, threadId: string): readonly LiveMessage[] {
  return getEntry(state.transcripts, threadId)?.messages ?? NO_MESSAGES;
}

export interface StreamingMessage {
  messageId: string;
  text: string;
  /** The side whose reply it is, when the server said (a dual_ai view names it by the side's label). */
  side?: "a" | "b";
}

/** Text being streamed for messages not persisted yet, to show after the transcript. */
export function selectStreamingMessages(state: LiveState, threadId: string): StreamingMessage[] {
  const streams = getEntry(state.streaming, threadId) ?? {};
  return Object.entries(streams).map(([messageId, text]) => {
    const side = state.streamSides[messageId];
    return side ? { messageId, text, side } : { messageId, text };
  });
}

/**
 * A parent's registry in the server's order (createdAt, then reference). References are the
 * registry's keys, so two entries never tie on both.
 */
export function selectRegistry(state: LiveState, parentId: string): RegistryEntry[] {
  const registry = getEntry(state.registries, parentId);
  if (!registry) return [];
  return [...mapValues(registry.entries)].sort(
    (left, right) => left.createdAt - right.createdAt || (left.reference < right.reference ? -1 : 1),
  );
}

/** One child's entry in its parent's registry: a direct lookup, for rows that show only their own entry. */
export function selectRegistryEntry(
  state: LiveState,
  parentId: string,
  childId: string,
): RegistryEntry | undefined {
  const registry = getEntry(state.registries, parentId);
  return registry ? getEntry(registry.entries, childId) : undefined;
}

/** How many children the server counts for a parent (may exceed the entries seen through partial events). */
export function selectRegistryTotal(state: LiveState, parentId: string): number {
  return getEntry(state.registries, parentId)?.total ?? 0;
}

export function selectTelemetry(state: LiveState, threadId: string): ThreadTelemetry {
  return getEntry(state.telemetry, threadId) ?? EMPTY_TELEMETRY;
}

/** Tokens and cost of a thread and all its known descendants. */
export function selectSubtreeUsage(state: LiveState, threadId: string): Usage {
  const total = { input_tokens: 0, output_tokens: 0, cost_usd: 0 };
  const pending = [threadId];
  while (pending.length > 0) {
    const id = pending.pop()!;
    const usage = getEntry(state.threads, id)?.usage;
    if (usage) {
      total.input_tokens += usage.input_tokens;
      total.output_tokens += usage.output_tokens;
      total.cost_usd += usage.cost_usd;
    }
    pending.push(...selectChildIds(state, id));
  }
  return total;
}

export function selectStatusCounts(state: LiveState): StatusCounts {
  return state.statusCounts;
}

/** Queued or running threads per agent id. */
export function selectActiveThreadsByAgent(state: LiveState): Readonly<Record<string, number>> {
  return state.activeThreadsByAgent;
}

/**
 * Microseconds a thread has been at work since it was created: up to `nowMicroseconds` while it is
 * queued or running, else up to when it stopped working (`workEndedAt`: went idle, ended, was stopped).
 */
export function selectTimeRunning(
  state: LiveState,
  threadId: string,
  nowMicroseconds: number,
): number | null {
  const thread = getEntry(state.threads, threadId);
  if (!thread) return null;
  const end = isActiveStatus(thread.status) ? nowMicroseconds : workEndedAt(thread);
  return Math.max(0, end - thread.created_at);
}

/** Threads whose parent has not arrived yet (they join the tree when it does). */
export function selectOrphanIds(state: LiveState): string[] {
  const orphans: string[] = [];
  for (const thread of mapValues(state.threads)) {
    if (thread.parent_id === null || thread.id === state.rootId) continue;
    if (!getEntry(state.threads, thread.parent_id)) orphans.push(thread.id);
  }
  return orphans;
}

/** Which rows are open: every id in `toggled` has the opposite of `defaultExpanded`. */
export interface TreeExpansion {
  defaultExpanded: boolean;
  toggled: ReadonlySet<string>;
}

export interface TreeRow {
  id: string;
  /** Nesting level in this view (0 for the roots), for indentation. */
  depth: number;
  hasChildren: boolean;
  expanded: boolean;
  thread: LiveThread;
}

export function isExpanded(expansion: TreeExpansion, threadId: string): boolean {
  return expansion.toggled.has(threadId) !== expansion.defaultExpanded;
}

interface TreeRowsMemo {
  childrenByParent: LiveState["childrenByParent"];
  roots: LiveState["roots"];
  expansion: TreeExpansion;
  rows: readonly TreeRow[];
}

/** The last rows per threads map: the tree and the timeline of one page share one walk per event. */
const treeRowsMemo = new WeakMap<LiveState["threads"], TreeRowsMemo>();

/**
 * The visible rows of the tree in display order, for a virtualised list: O(visible rows), and the
 * same array again while the threads, the parent → children lists, the roots and the expansion are
 * the same objects. Do not mutate the result.
 */
export function selectTreeRows(state: LiveState, expansion: TreeExpansion): readonly TreeRow[] {
  const memo = treeRowsMemo.get(state.threads);
  if (
    memo &&
    memo.childrenByParent === state.childrenByParent &&
    memo.roots === state.roots &&
    memo.expansion === expansion
  )
    return memo.rows;
  const rows = walkTreeRows(state, expansion);
  treeRowsMemo.set(state.threads, {
    childrenByParent: state.childrenByParent,
    roots: state.roots,
    expansion,
    rows,
  });
  return rows;
}

function walkTreeRows(state: LiveState, expansion: TreeExpansion): TreeRow[] {
  const rows: TreeRow[] = [];
  const pending: { id: string; depth: number }[] = [...state.roots].reverse().map((id) => ({ id, depth: 0 }));
  while (pending.length > 0) {
    const { id, depth } = pending.pop()!;
    // Roots and children are threads already placed, so they are in `threads`.
    const thread = getEntry(state.threads, id)!;
    const children = selectChildIds(state, id);
    const expanded = isExpanded(expansion, id);
    rows.push({ id, depth, hasChildren: children.length > 0, expanded, thread });
    if (!expanded) continue;
    for (let index = children.length - 1; index >= 0; index--)
      pending.push({ id: children[index]!, depth: depth + 1 });
  }
  return rows;
}
