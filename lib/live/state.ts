// The shape of one root thread's live view: everything the tree, registry and transcript panels
// read, built only by the reducer (reducer.ts) and read through selectors (selectors.ts). Every
// collection that grows with the tree is a PersistentMap, so an event copies only what it changes.
import type { ApprovalView } from "@/lib/contracts/approval";
import type { Divergence } from "@/lib/contracts/replay";
import type { LiveEventError, LiveMessage, LiveThread, RegistryEntry, ThreadStatus } from "./events";
import { THREAD_STATUSES } from "./events";
import { emptyMap, type PersistentMap } from "./persistent-map";

export interface Transcript {
  /** Ordered by `seq` (then id), one entry per message id. */
  readonly messages: readonly LiveMessage[];
  readonly seqById: PersistentMap<number>;
}

export interface ChildRegistry {
  readonly entries: PersistentMap<RegistryEntry>;
  /** How many children the server counts; larger than `entries.size` until a partial stream has shown them all. */
  readonly total: number;
}

export interface Handoff {
  readonly toAgentId: string;
  readonly toAgentTitle: string | null;
  readonly at: number;
}

/** Facts read off `telemetry` events, per thread. */
export interface ThreadTelemetry {
  /** The latest step the thread began (the server reports it when the step's model call commits). */
  readonly step: { readonly number: number; readonly side: "a" | "b"; readonly at: number } | null;
  readonly model: string | null;
  readonly lastLatencyMs: number | null;
  readonly modelErrors: number;
  readonly lastModelError: string | null;
  readonly fallbacks: number;
  readonly lastTool: { readonly name: string; readonly status: string | null } | null;
  readonly stop: { readonly reason: string; readonly side: "a" | "b" | null; readonly at: number } | null;
  readonly handoffs: readonly Handoff[];
  /** The model call's wait before its next attempt (a `model_wait` event), until the next attempt is reported. */
  readonly modelWait: ModelWait | null;
}

/** A model call waiting on its provider: rate limited, unavailable, or after another error. */
export interface ModelWait {
  readonly reason: "rate_limited" | "unavailable" | "error";
  readonly provider: string;
  readonly model: string;
  /** The event's time (µs) and the wait it announced (ms). */
  readonly at: number;
  readonly delayMs: number;
}

export type StatusCounts = Readonly<Record<ThreadStatus, number>>;

export interface LiveState {
  /** The thread the stream was opened for; always a root of the tree, even when it has a parent. */
  readonly rootId: string;
  /** The highest persisted event id applied: send it as Last-Event-ID when reconnecting. */
  readonly lastEventId: number;
  /** The latest `thread` payload per thread id. */
  readonly threads: PersistentMap<LiveThread>;
  /**
   * Child ids per parent id in creation order. A child whose parent has not arrived yet is already
   * listed under that parent's id, so it appears in the tree the moment the parent does.
   */
  readonly childrenByParent: PersistentMap<readonly string[]>;
  /** Known threads without a parent (or the stream's own thread), in creation order. */
  readonly roots: readonly string[];
  readonly registries: PersistentMap<ChildRegistry>;
  readonly transcripts: PersistentMap<Transcript>;
  /** Text streamed so far per thread, keyed by the id its persisted message will have. */
  readonly streaming: PersistentMap<Readonly<Record<string, string>>>;
  /** The side each streamed message speaks for, by message id (when the server said). */
  readonly streamSides: Readonly<Record<string, "a" | "b">>;
  readonly telemetry: PersistentMap<ThreadTelemetry>;
  /** Kept by the reducer so the status bar never walks the tree. */
  readonly statusCounts: StatusCounts;
  /** Queued or running threads per agent id (agents with none are absent). */
  readonly activeThreadsByAgent: Readonly<Record<string, number>>;
  /** The latest malformed events (at most MAX_PROBLEMS), for a diagnostics panel. */
  readonly problems: readonly LiveEventError[];
  /** Tool approvals anywhere in the tree, by approval id, as their latest `approval` event left them. */
  readonly approvals: PersistentMap<ApprovalView>;
  /** In a replay: each thread's first divergence from the recording, by thread id (`divergence` events). */
  readonly divergences: PersistentMap<Divergence>;
}

export const MAX_PROBLEMS = 50;

export const EMPTY_STATUS_COUNTS: StatusCounts = Object.fromEntries(
  THREAD_STATUSES.map((status) => [status, 0]),
) as Record<ThreadStatus, number>;

export const EMPTY_TELEMETRY: ThreadTelemetry = {
  step: null,
  model: null,
  lastLatencyMs: null,
  modelErrors: 0,
  lastModelError: null,
  fallbacks: 0,
  lastTool: null,
  stop: null,
  handoffs: [],
  modelWait: null,
};

export function initialLiveState(rootId: string): LiveState {
  return {
    rootId,
    lastEventId: 0,
    threads: emptyMap(),
    childrenByParent: emptyMap(),
    roots: [],
    registries: emptyMap(),
    transcripts: emptyMap(),
    streaming: emptyMap(),
    streamSides: {},
    telemetry: emptyMap(),
    statusCounts: EMPTY_STATUS_COUNTS,
    activeThreadsByAgent: {},
    problems: [],
    approvals: emptyMap(),
    divergences: emptyMap(),
  };
}
