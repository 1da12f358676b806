// One step of one thread (spec runtime §3), as a short sequence of transactions so that a crash
// re-runs at most the model call or the tool call in flight:
//   1. drain the inbox into messages (a new turn starts for the side the first input addresses)
//   2. assemble context → one model call (text streamed as ephemeral chunks)
//   3. commit the assistant message, its model-call log, usage and counters
//   4. run tool calls one at a time in returned order, committing each result; the last commit also
//      evaluates the stop rules and moves the thread on (continue, switch side, park, end)
// Every commit checks that this process still holds the thread's lease and that it is not terminated.

import { randomUUID } from "node:crypto";
import type { Database } from "@/lib/db/database";
import { LazyTransaction } from "@/lib/db/lazy-transaction";
import type { SqlExecutor } from "@/lib/db/sql-client";
import {
  type AgentDefinition,
  type PromptDefinition,
  type ResolvedSideConfig,
  resolvePromptOptions,
  resolveSideConfig,
  resolveSubpromptConfig,
} from "@/lib/standard";
import { crashPoint } from "../faults";
import { appendEvents, type NewEvent } from "../store/event-log";
import { messageEvent, telemetryEvent, telemetryEvents, threadEvent } from "../store/thread-events";
import type { ParentWaker } from "../subagents/parent-waker";
import type { ParkedCaches } from "./parked-caches";

export { messageEvent, threadEvent };

import type {
  AttachmentRef,
  LLMMessage,
  Message,
  ThreadState,
  ToolAttachment,
  ToolCall,
  ToolResult,
} from "../extensions/define";
import { declaredHookIds, HookRunner } from "../extensions/hook-runner";
import { EMPTY_REGISTRY, type ExtensionRegistry } from "../extensions/registry";
import type { ModelCallRequest, ModelCallResult, ModelTelemetry } from "../models/types";
import { loadContextImages } from "../store/attachments";
import type { DefinitionsCache, LoadedDefinitions } from "../store/definitions";
import { consumeInboxItems, drainInbox } from "../store/inbox";
import {
  bumpMessageSeq,
  insertMessages,
  insertMessagesAfter,
  type NewMessage,
  readHistory,
} from "../store/message-store";
import {
  type ExecutionState,
  otherSide,
  type Side,
  type StoredMessage,
  type StoredToolCall,
} from "../store/messages";
import { nowMicroseconds, type ThreadRow } from "../store/thread-row";
import {
  findThread,
  findThreadForStep,
  isStaleThreadError,
  lockThread,
  type ThreadChanges,
  type ThreadForStep,
  threadForStepAfterUpdate,
  threadForStepStatement,
  threadVersionCheck,
  toThreadForStep,
  updateLockedThread,
  updateThread,
} from "../store/thread-store";
import {
  childInputFromArgs,
  type EnvLookup,
  envLookup,
  handedDownEnv,
  immediateCalls,
  missingChildVariables,
  registrySystemMessage,
  type SubagentBranch,
  subagentBranches,
} from "../subagents/branches";
import {
  childOutcomeOf,
  type OneOffReportRoute,
  oneOffReportRoute,
  type SpawnRequest,
  settleChild,
  settleOneOffChild,
  spawnChildren,
  wakeParent,
} from "../subagents/child-transactions";
import { findInvocation, registryEvent, registryOf, setLinkStatus } from "../subagents/registry-store";
import {
  callSubagentCreate,
  callSubagentMessage,
  callSubagentTool,
  DEFAULT_SUBAGENT_LIMITS,
  type SubagentLimits,
  startedResult,
} from "../subagents/subagent-tool-calls";
import { assembleContext } from "./context";
import { applyFilteredMessages, fromToolResult, messageView, toToolResult } from "./hook-values";
import { renderPromptContent } from "./prompt-render";
import { encodeRequest, type RequestMemory } from "./request-log";
import { type ExecutedToolCall, evaluateStop, type StopDecision, sessionTurnLimitReason } from "./stop-rules";
import { assembleSubpromptResult, type SubpromptCall } from "./subprompt-result";
import {
  type ActiveExecution,
  type ExecutionControl,
  loadThreadState,
  newExecutionControl,
} from "./thread-state";
import { buildToolCatalog, type CatalogEntry, type ToolCatalog } from "./tool-catalog";
import {
  errorContent,
  executeToolCall,
  type SubagentCatalogEntry,
  type ToolExecution,
} from "./tool-executor";

/** A runaway turn stops here even without maxSteps (the reference runtime's cap). */
export const MAX_STEPS_PER_TURN = 250;

/** How deep prompts called as tools may nest. */
export const MAX_SUBPROMPT_DEPTH = 5;

export const EXECUTION_STOPPED_RESULT = "Execution stopped by state.execution.stop()";

export const EMPTY_RESPONSE_RESULT =
  "You must reply. Empty response was rejected. Return non-empty content, call a tool, or include attachments.";

export type StepOutcome = "continue" | "parked" | "lease_lost" | "terminated" | "aborted";

export type CallModelFunction = (
  modelName: string,
  models: LoadedDefinitions["bundle"]["models"],
  request: ModelCallRequest,
  options: { onTelemetry?: (event: ModelTelemetry) => void },
) => Promise<ModelCallResult>;

export interface StepRunnerDependencies {
  database: Database;
  definitions: DefinitionsCache;
  callModel: CallModelFunction;
  leaseOwner: string;
  /** Ephemeral token chunks for live views (never persisted). */
  publishChunk?: (chunk: { rootId: string; threadId: string; messageId: string; chunk: string }) => void;
  /** The message whose chunks were published is persisted, or will never be: its chunk buffer can go. */
  endMessage?: (messageId: string) => void;
  /** Code tools and hooks installed on this server; none when absent. */
  extensions?: () => Promise<{ registry: ExtensionRegistry; hooks: HookRunner }>;
  /** Terminates a thread and its subtree (ThreadState.terminate). */
  terminate?: (threadId: string) => Promise<void>;
  /** Stores files a tool returned in the thread filesystem (ToolResult.attachments). */
  storeToolAttachments?: (
    threadId: string,
    attachments: Array<ToolAttachment | AttachmentRef>,
  ) => Promise<{ refs: AttachmentRef[]; pathLines: string }>;
  /** Fan-out governance for subagents. */
  subagentLimits?: SubagentLimits;
  /** Caches of parked threads, shared by the runs of this process (none: every run reads afresh). */
  parkedCaches?: ParkedCaches<ThreadCache>;
  /** Wakes parents after their children's reports commit, off the children's runs (none: inline). */
  parentWaker?: ParentWaker;
  /** Caches of children this process spawned (their first message), for their first run. */
  spawnedCaches?: ParkedCaches<ThreadCache>;
}

/** The per-run view of one step's extension surface: hooks in force and the ThreadState factory. */
interface StepExtensions {
  registry: ExtensionRegistry | null;
  hooks: HookRunner | null;
  hookIds: string[];
  control: ExecutionControl;
  /** The top-level history as this step knows it; messages the step stores are appended. */
  history: StoredMessage[];
  state: (promptName: string, promptPath: string[]) => Promise<ThreadState>;
}

class LeaseLost extends Error {}
class ThreadTerminated extends Error {}
class StoppedByUser extends Error {}

export interface ThreadCache {
  history: { version: number; messages: StoredMessage[] } | null;
  modelCalls: Map<string, number>;
  requests: Map<string, RequestMemory>;
  /** A child spawned here as a one-off subagent: how it reports without reading (settleOneOffChild). */
  report?: OneOffReportRoute;
}

interface ActiveSide {
  agent: AgentDefinition;
  side: Side;
  sideConfig: ResolvedSideConfig;
  definitions: LoadedDefinitions;
}

/**
 * Work in a step's transaction: `row` is the thread as the transaction sees it; `read` is the row as
 * read before it, when the commit is speculative (checked against that version), else null.
 */
type GuardedWork<T> = (tx: SqlExecutor, row: ThreadRow, read: ThreadForStep | null) => Promise<T>;

export class StepRunner {
  constructor(private readonly deps: StepRunnerDependencies) {}

  private get db() {
    return this.deps.database.sql;
  }

  /**
   * What this process remembers of a thread it is running: the top-level history (valid while the
   * thread's message_seq matches), scripted-call counts, and the last logged request per side (for
   * delta-encoded request logs). Dropped whenever the run parks, loses its lease or fails.
   */
  private readonly caches = new Map<string, ThreadCache>();

  /** Per-execution state (spec ThreadState.context and the flow id), from input drained to parked. */
  private readonly runs = new Map<string, { flowId: string; context: Record<string, unknown> }>();

  /** Threads whose session ended in the step now running (for the after_terminal_commit crash point). */
  private readonly endedSessions = new Map<string, string>();

  /**
   * The thread as the caller just read it (the claim that took its lease): the next step starts from
   * it instead of reading the thread again, exactly as from a read at the step's start.
   */
  startFrom(read: ThreadForStep): void {
    this.snapshot = read;
  }

  /** Runs one step of the thread; the caller holds its lease and loops while the outcome is "continue". */
  async runStep(threadId: string, abortSignal: AbortSignal): Promise<StepOutcome> {
    let outcome: StepOutcome;
    try {
      this.endedSessions.delete(threadId);
      outcome = await this.step(threadId, abortSignal);
      const ended = this.endedSessions.get(threadId);
      if (ended !== undefined) crashPoint("after_terminal_commit", ended);
    } catch (error) {
      this.snapshot = null;
      this.runs.delete(threadId);
      this.caches.delete(threadId);
      if (error instanceof LeaseLost) return "lease_lost";
      if (error instanceof ThreadTerminated) return "terminated";
      if (error instanceof StoppedByUser) return "aborted";
      throw error;
    }
    if (outcome !== "continue") {
      this.snapshot = null;
      this.runs.delete(threadId);
      const cache = this.caches.get(threadId);
      this.caches.delete(threadId);
      // A parked thread (an ai_human waiting for its next message, a parent waiting for a child)
      // usually runs again here soon: keep its cache, bounded, for the next run to reuse if nothing
      // changed the thread meanwhile (see restoreParkedCache).
      if (outcome === "parked" && cache?.history) this.deps.parkedCaches?.park(threadId, cache);
    }
    return outcome;
  }

  /**
   * Ends the thread's run because a time limit passed (the scheduler enforces them, holding the
   * lease). Input still waiting is drained into the history first, so nothing queued is lost and the
   * thread does not run again for it; a child reports to its parent in the same commit (finish).
   * False when the thread was parked, terminated or taken by another process meanwhile.
   */
  async endForLimit(
    threadId: string,
    limit: { status: "failed" | "stopped"; reason: string },
  ): Promise<boolean> {
    this.snapshot = null;
    this.runs.delete(threadId);
    this.caches.delete(threadId);
    const found = await findThreadForStep(this.db, threadId);
    if (!found) return false;
    const definitions = await this.deps.definitions.load(found.row.project_id, found.row.project_version);
    try {
      return await this.guarded(
        threadId,
        async (tx, row) => {
          const started = await this.startStep(tx, row, definitions);
          if (started.kind === "parked") return false;
          await this.finish(tx, started.row, {
            status: limit.status,
            stopReason: limit.reason,
            ...(limit.status === "failed" ? { failure: limit.reason } : {}),
          });
          return true;
        },
        { allowUserStopped: true },
      );
    } catch (error) {
      if (error instanceof LeaseLost || error instanceof ThreadTerminated) return false;
      throw error;
    } finally {
      this.runs.delete(threadId);
      this.caches.delete(threadId);
    }
  }

  /**
   * Takes back the cache a thread had when it parked, if the thread's message_seq is still the one
   * the cache saw: every message and every successful model call of any process bumps it, so the
   * history, the scripted-call counts and the last logged requests are then all still exact.
   */
  private restoreParkedCache(row: ThreadRow): void {
    const parked = this.deps.parkedCaches?.take(row.id) ?? this.deps.spawnedCaches?.take(row.id);
    if (parked && !this.caches.has(row.id) && parked.history?.version === row.message_seq)
      this.caches.set(row.id, parked);
  }

  private cache(threadId: string): ThreadCache {
    let cache = this.caches.get(threadId);
    if (!cache) {
      cache = { history: null, modelCalls: new Map(), requests: new Map() };
      this.caches.set(threadId, cache);
    }
    return cache;
  }

  /** The top-level history (silent included), from memory while nobody else changed it. */
  private async historyOf(row: ThreadRow): Promise<StoredMessage[]> {
    const cache = this.cache(row.id);
    if (cache.history && cache.history.version === row.message_seq) return cache.history.messages;
    const messages = await readHistory(this.db, row.id);
    cache.history = { version: row.message_seq, messages };
    return messages;
  }

  /**
   * The thread's last message seq as of this transaction's own inserts (it holds the row lock, so
   * nobody else numbers messages meanwhile); null when unknown (nothing inserted, or renumbered).
   */
  private txLastSeq: number | null = null;
  /** The thread whose row lock the open guarded transaction holds. */
  private txThreadId: string | null = null;

  /** Inserts messages and keeps the cached history in step (or drops it when someone else wrote). */
  private async insert(tx: SqlExecutor, threadId: string, messages: NewMessage[]): Promise<StoredMessage[]> {
    const known = this.txThreadId === threadId && this.txLastSeq !== null && Number.isFinite(this.txLastSeq);
    if (!known) await this.flushMessageSeq(tx);
    const stored = known
      ? await insertMessagesAfter(tx, threadId, this.txLastSeq as number, messages)
      : await insertMessages(tx, threadId, messages);
    if (known && stored.length > 0) this.txSeqPending = true;
    const last = stored.at(-1);
    if (last && (this.txLastSeq === null || last.seq > this.txLastSeq)) this.txLastSeq = last.seq;
    const cache = this.caches.get(threadId);
    const history = cache?.history;
    if (history && stored.length > 0) {
      if (stored[0]!.seq === history.version + 1) {
        history.messages = [...history.messages, ...stored.filter((message) => message.depth === 0)];
        history.version = stored[stored.length - 1]!.seq;
      } else {
        cache.history = null;
      }
    }
    return stored;
  }

  /**
   * `insertMessagesAfter` leaves the thread's message_seq to us: it goes out with the transaction's
   * next thread update (`withMessageSeq`), or here, before anything reads or moves it in SQL.
   */
  private txSeqPending = false;

  /** `changes` plus the thread's message_seq when this transaction's inserts still owe it. */
  private withMessageSeq(threadId: string, changes: ThreadChanges): ThreadChanges {
    if (!this.txSeqPending || threadId !== this.txThreadId) return changes;
    this.txSeqPending = false;
    return { ...changes, messageSeq: this.txLastSeq as number };
  }

  private async flushMessageSeq(tx: SqlExecutor): Promise<void> {
    if (!this.txSeqPending || this.txThreadId === null) return;
    this.txSeqPending = false;
    await tx.defer("UPDATE threads SET message_seq = $2 WHERE id = $1", [this.txThreadId, this.txLastSeq]);
  }

  /** A message of this thread changed in place: bump the history version, forget the cached copy. */
  private async changedHistory(tx: SqlExecutor, threadId: string): Promise<void> {
    await this.flushMessageSeq(tx);
    await bumpMessageSeq(tx, threadId);
    this.txLastSeq = Number.NaN; // renumbered: ask the database
    const cache = this.caches.get(threadId);
    if (cache) cache.history = null;
  }

  private run(threadId: string, fresh = false) {
    let run = this.runs.get(threadId);
    if (!run || fresh) {
      run = { flowId: randomUUID(), context: {} };
      this.runs.set(threadId, run);
    }
    return run;
  }

  /** Hooks in force for the active prompt and a (memoised) ThreadState factory for this step. */
  private async stepExtensions(
    row: ThreadRow,
    active: ActiveSide,
    history: readonly StoredMessage[],
    abortSignal: AbortSignal,
  ): Promise<StepExtensions> {
    const loaded = this.deps.extensions ? await this.deps.extensions() : null;
    const prompt = active.definitions.index.prompts.get(active.sideConfig.prompt)?.definition;
    const control = newExecutionControl();
    const run = this.run(row.id);
    const hooks = loaded?.hooks ?? null;
    const states = new Map<string, Promise<ThreadState>>();
    const known = [...history];
    const state = (promptName: string, promptPath: string[]) => {
      const key = promptPath.join("/");
      let cached = states.get(key);
      if (!cached) {
        const execution: ActiveExecution = {
          flowId: run.flowId,
          promptPath,
          messageHistory: () => known.map(messageView),
          abortSignal,
          control,
          context: run.context,
        };
        cached = loadThreadState(
          {
            db: this.db,
            definitions: this.deps.definitions,
            hooks: hooks ?? new HookRunner(EMPTY_REGISTRY),
            terminate:
              this.deps.terminate ?? (() => Promise.reject(new Error("terminate is not available here"))),
          },
          row.id,
          { promptName, execution },
        ).then((value) => {
          if (!value) throw new ThreadTerminated();
          return value;
        });
        states.set(key, cached);
      }
      return cached;
    };
    return {
      registry: loaded?.registry ?? null,
      hooks,
      hookIds: declaredHookIds(prompt, active.agent),
      control,
      history: known,
      state,
    };
  }

  /**
   * Runs `work` in a transaction holding the thread's row lock, after checking lease and termination.
   *
   * `speculate`: when this runner knows the row's current version (`this.expected`: read at the
   * step's start or by the last commit), the lock is checked with the work instead of awaited
   * (`threadVersionCheck`, usually all in one statement: LazyTransaction), so a step commits in one
   * round trip. If anyone changed the row
   * meanwhile, that transaction fails as a whole; the cache the work touched is dropped and the work
   * runs again under a lock read the ordinary way. Only for work that does nothing but write in the
   * transaction (no side effects outside it), since it may run twice.
   */
  private async guarded<T>(
    threadId: string,
    work: GuardedWork<T>,
    options: {
      allowUserStopped?: boolean;
      /** Read the thread as this transaction leaves it (pipelined with the COMMIT), for the next step. */
      snapshot?: boolean;
      /**
       * Read its version back (pipelined with the COMMIT), for the next speculative commit; a
       * function decides from the work's result (a step that parked the thread needs no read-back).
       */
      readBack?: boolean | ((result: T) => boolean);
      speculate?: boolean;
    } = {},
  ): Promise<T> {
    const known = this.expected?.row.id === threadId ? this.expected : null;
    this.expected = null;
    const expected =
      options.speculate && known && this.canCommitOn(known.row, options.allowUserStopped === true)
        ? known
        : null;
    if (expected) {
      try {
        return await this.guardedOnce(threadId, work, options, expected);
      } catch (error) {
        if (!isStaleThreadError(error)) throw error;
        // The work's in-memory effects (cached history, request-log base, call counts) belong to a
        // transaction that rolled back.
        this.caches.delete(threadId);
      }
    }
    return this.guardedOnce(threadId, work, options, null);
  }

  /** What the locked path checks, on a row known to be current. */
  private canCommitOn(row: ThreadRow, allowUserStopped: boolean): boolean {
    return (
      row.terminated_at === null &&
      row.lease_owner === this.deps.leaseOwner &&
      (allowUserStopped || !row.user_stopped)
    );
  }

  private async guardedOnce<T>(
    threadId: string,
    work: GuardedWork<T>,
    options: {
      allowUserStopped?: boolean;
      snapshot?: boolean;
      readBack?: boolean | ((result: T) => boolean);
    },
    expected: ThreadForStep | null,
  ): Promise<T> {
    this.snapshot = null;
    this.wakeAfterCommit.clear();
    this.txLastSeq = null;
    this.txThreadId = null;
    this.txSeqPending = false;
    let result: T;
    let agentName = "";
    const readBackAfter = (done: T): boolean =>
      typeof options.readBack === "function"
        ? options.readBack(done)
        : options.snapshot === true || options.readBack === true;
    const checked = async (tx: SqlExecutor, row: ThreadRow | null): Promise<T> => {
      agentName = row?.agent_name ?? "";
      if (!row || row.terminated_at !== null) throw new ThreadTerminated();
      if (row.lease_owner !== this.deps.leaseOwner) throw new LeaseLost();
      // A user stop wins over work in flight: nothing this step produced after it is committed.
      if (row.user_stopped && !options.allowUserStopped) throw new StoppedByUser();
      this.txThreadId = row.id;
      this.txLastSeq = row.message_seq;
      const done = await work(tx, row, expected);
      await this.flushMessageSeq(tx);
      return done;
    };
    let found: ThreadForStep | null = null;
    try {
      if (expected) {
        // Speculative: the work's statements and the version check usually go out as one statement
        // (LazyTransaction), the read-back in the same round trip.
        const lazy = new LazyTransaction(this.db, [threadVersionCheck(threadId, expected.version)]);
        try {
          result = await checked(lazy, expected.row);
          const readBack = readBackAfter(result);
          // The thread update's RETURNING is the read-back when it was combined (updateLockedThread).
          const committed = await lazy.commit(readBack ? [threadForStepStatement(threadId)] : [], {
            returnedInsteadOfAfter: readBack,
          });
          // A failed read after the commit only means the next step reads the thread itself.
          const returned = committed.returned?.[0];
          const known = committed.returnedFrom?.describes as ThreadRow | undefined;
          const row = returned ?? committed.after[0]?.[0];
          found =
            returned && known ? threadForStepAfterUpdate(known, returned) : row ? toThreadForStep(row) : null;
        } catch (error) {
          await lazy.rollback(error);
          throw error;
        }
      } else {
        let snapshot: Promise<ThreadForStep | null> | null = null;
        result = await this.db.transaction(async (tx) => {
          const done = await checked(tx, await lockThread(tx, threadId));
          if (readBackAfter(done)) {
            snapshot = findThreadForStep(tx, threadId);
            snapshot.catch(() => {}); // a failure fails the COMMIT too
          }
          return done;
        });
        if (snapshot) found = await snapshot;
      }
      if (found) {
        this.expected = found;
        if (options.snapshot) this.snapshot = found;
      }
    } catch (error) {
      this.wakeAfterCommit.clear();
      throw error;
    }
    if (this.wakeAfterCommit.size > 0) crashPoint("before_parent_wake", agentName);
    for (const parentId of this.wakeAfterCommit) {
      if (this.deps.parentWaker) this.deps.parentWaker.request(parentId);
      else await wakeParent(this.db, parentId);
    }
    this.wakeAfterCommit.clear();
    return result;
  }

  /**
   * The latest version of the thread this runner knows (read at a step's start or by its last
   * commit), for a speculative commit; cleared by every commit that does not read it back.
   */
  private expected: ThreadForStep | null = null;

  /**
   * The thread as the last step's commit left it, and whether input waited then: the next step
   * starts from it instead of reading the thread again. Only a step whose work after its commit
   * cannot change the thread (no hooks, no tools) leaves one; input that arrives later is seen by
   * the next commit, exactly as it would be by a read at the next step's start; a stop or a
   * termination is still checked under the row lock when that step commits.
   */
  private snapshot: ThreadForStep | null = null;
  /** The root of the thread this runner steps (for events written outside its transactions). */
  private rootId: string | null = null;

  /** Parents whose children reported in the transaction now running (woken once it commits). */
  private readonly wakeAfterCommit = new Set<string>();

  private async step(threadId: string, abortSignal: AbortSignal): Promise<StepOutcome> {
    // Definitions are read before any transaction: on PGlite (one connection) a query outside the
    // open transaction would wait for it forever.
    const snapshot = this.snapshot?.row.id === threadId ? this.snapshot : null;
    this.snapshot = null;
    const found = snapshot ?? (await findThreadForStep(this.db, threadId));
    if (!found) return "terminated";
    this.expected = found;
    const current = found.row;
    this.restoreParkedCache(current);
    this.rootId = current.root_id;
    const definitions = await this.deps.definitions.load(current.project_id, current.project_version);
    // Mid-run with no new input (the common case), there is nothing to drain: skip that transaction.
    // The step's commit still checks lease, termination and user stop under the row lock.
    // Waiting for a blocking subagent call: park (input waits too) until its child reports; once it
    // has, answer the call first, before new input is drained.
    const blockedOn = current.execution.blockedOn;
    if (blockedOn && !(await this.invocationEnded(current.id, blockedOn.callId))) {
      return this.guarded(threadId, (tx, row) => this.parkOnChild(tx, row, blockedOn.callId), {
        allowUserStopped: true,
      });
    }
    const midRun =
      (!found.hasInput || blockedOn !== null) &&
      current.status === "running" &&
      !current.user_stopped &&
      current.terminated_at === null &&
      current.lease_owner === this.deps.leaseOwner;
    const started = midRun
      ? { kind: "run" as const, row: current, drained: [] as StoredMessage[] }
      : await this.guarded(threadId, (tx, row, read) => this.startStep(tx, row, definitions, read), {
          allowUserStopped: true,
          speculate: true,
          readBack: true,
        });
    if (started.kind === "parked") return "parked";
    const row = started.row;
    const active = await this.activeSide(row);
    if (typeof active === "string") {
      await this.guarded(threadId, (tx, current) =>
        this.finish(tx, current, { status: "failed", failure: active, stopReason: active }),
      );
      return "parked";
    }
    const history = await this.historyOf(row);
    const prompt = active.definitions.index.prompts.get(active.sideConfig.prompt)?.definition;
    if (!prompt) return "parked"; // activeSide checked it
    const ext = await this.stepExtensions(row, active, history, abortSignal);
    if (started.drained.length > 0 && ext.hooks?.has("after_create_message", ext.hookIds)) {
      const state = await ext.state(prompt.name, [prompt.name]);
      for (const message of started.drained)
        await ext.hooks.notify("after_create_message", ext.hookIds, state, messageView(message));
    }
    // A spawned child runs its after_thread_created hooks before its first step, once (a crash
    // between the hooks and this commit runs them again: at least once, like every hook).
    if (
      row.parent_id !== null &&
      !row.execution.createdHooksRan &&
      row.execution.stepCount === 0 &&
      ext.hooks?.has("after_thread_created", ext.hookIds)
    ) {
      await ext.hooks.notify(
        "after_thread_created",
        ext.hookIds,
        await ext.state(prompt.name, [prompt.name]),
      );
      await this.guarded(row.id, async (tx, current) => {
        await updateLockedThread(
          tx,
          current,
          this.withMessageSeq(current.id, { execution: { ...current.execution, createdHooksRan: true } }),
        );
      });
      return "continue"; // the next step reads what the hooks wrote
    }
    const threadEnv = envLookup(row.env, row.scoped_env, active.agent.env, prompt.env);
    const catalog = this.catalogFor(prompt, active, ext, threadEnv);

    const pending = unansweredToolCalls(history, active.side);
    if (pending)
      return this.runTools(row.id, pending.message, pending.calls, active, catalog, ext, abortSignal);

    const branches = subagentBranches(prompt, active.definitions.index, threadEnv);
    if (!row.execution.immediateDone.includes(prompt.name)) {
      const immediate = await this.startImmediate(row, active, prompt.name, branches, history, threadEnv);
      if (immediate) {
        ext.history.push(immediate.message);
        return this.runTools(row.id, immediate.message, immediate.calls, active, catalog, ext, abortSignal);
      }
    }

    if (abortSignal.aborted) return "aborted";
    const options = resolvePromptOptions(prompt);
    // Resolution order of the reference runtime: thread, then agent, then prompt (first hit wins).
    const env = { ...(prompt.env ?? {}), ...(active.agent.env ?? {}), ...row.env };
    let system = renderPromptContent({
      prompt,
      findPrompt: (name) => active.definitions.index.prompts.get(name)?.definition,
      resolveEnv: (name) => env[name],
    });
    let contextHistory: StoredMessage[] = history;
    const hooks = ext.hooks;
    if (hooks && ext.hookIds.length > 0) {
      const state = await ext.state(prompt.name, [prompt.name]);
      if (hooks.has("after_system_message", ext.hookIds)) {
        const rewritten = await hooks.transform(
          "after_system_message",
          ext.hookIds,
          state,
          (value: string) => [value] as [string],
          system,
        );
        if (typeof rewritten === "string") system = rewritten;
      }
      if (hooks.has("filter_messages", ext.hookIds)) {
        const filtered = await hooks.transform(
          "filter_messages",
          ext.hookIds,
          state,
          (value: Message[]) => [value] as [Message[]],
          history.map(messageView),
        );
        contextHistory = applyFilteredMessages(history, filtered);
      }
    }
    const imageData = await loadContextImages(
      this.db,
      threadId,
      contextHistory,
      options.recentImageThreshold,
      active.side,
    );
    // The child registry, whenever children exist (spec §7.11).
    // Children always leave a trace in their parent's history (a call's result or a report).
    const mayHaveChildren =
      branches.length > 0 ||
      history.some((message) => message.subagent_id !== null || message.metadata.subagent !== undefined);
    const registry = mayHaveChildren ? await registryOf(this.db, row.id) : [];
    let messages = assembleContext({
      systemPrompt: system,
      ...(registry.length > 0 ? { systemAppendix: registrySystemMessage(registry) } : {}),
      messages: contextHistory,
      actingSide: active.side,
      turnStartSeq: row.execution.turnStartSeq,
      options,
      ...(imageData.size > 0 ? { imageData } : {}),
    });
    if (hooks?.has("prefilter_llm_history", ext.hookIds)) {
      const adjusted = await hooks.transform(
        "prefilter_llm_history",
        ext.hookIds,
        await ext.state(prompt.name, [prompt.name]),
        (value: LLMMessage[]) => [value] as [LLMMessage[]],
        messages as LLMMessage[],
      );
      if (Array.isArray(adjusted)) messages = adjusted as ModelCallRequest["messages"];
    }
    const assistantId = randomUUID();
    const telemetry: ModelTelemetry[] = [];
    const scriptedCallIndex = await this.countModelCalls(row, active.side, prompt.model);
    const startedAt = nowMicroseconds();
    // Late subscribers are replayed this message's chunks until it is persisted (or never will be).
    try {
      let result: ModelCallResult;
      crashPoint("before_model_call", active.agent.name);
      try {
        result = await this.deps.callModel(
          prompt.model,
          active.definitions.bundle.models,
          {
            messages,
            tools: catalog.specs,
            toolChoice: options.toolChoice,
            parallelToolCalls: options.parallelToolCalls,
            ...(prompt.reasoning ? { reasoning: prompt.reasoning } : {}),
            abortSignal,
            scriptedCallIndex,
            onTextDelta: (chunk) =>
              this.deps.publishChunk?.({
                rootId: row.root_id,
                threadId: row.id,
                messageId: assistantId,
                chunk,
              }),
          },
          { onTelemetry: (event) => telemetry.push(event) },
        );
      } catch (error) {
        if (abortSignal.aborted) return "aborted";
        const reason = `Error: ${describeModelFailure(error)}`;
        await this.guarded(row.id, async (tx, current) => {
          await this.logModelCall(
            tx,
            current.id,
            active.side,
            prompt.model,
            messages,
            catalog,
            null,
            reason,
            startedAt,
          );
          return this.finish(
            tx,
            current,
            { status: "failed", failure: reason, stopReason: reason },
            telemetryEvents(current, telemetry),
          );
        });
        return "parked";
      }
      if (abortSignal.aborted) return "aborted";
      crashPoint("after_model_call", active.agent.name);

      // Tool-call ids must be unique within the thread (scripted ids repeat across sides and models).
      const usedIds = new Set(history.flatMap((message) => message.tool_calls?.map((call) => call.id) ?? []));
      const unique: ModelCallResult = {
        ...result,
        toolCalls: result.toolCalls.map((call) =>
          usedIds.has(call.id) ? { ...call, id: `${call.id}_${assistantId.slice(0, 8)}` } : call,
        ),
      };
      return this.commitAssistant(
        row.id,
        active,
        catalog,
        prompt.model,
        messages,
        unique,
        assistantId,
        telemetry,
        startedAt,
        ext,
        abortSignal,
      );
    } finally {
      this.deps.endMessage?.(assistantId);
    }
  }

  private catalogFor(
    prompt: PromptDefinition,
    active: ActiveSide,
    ext: StepExtensions,
    env: EnvLookup,
  ): ToolCatalog {
    return buildToolCatalog(
      prompt,
      prompt.name === active.sideConfig.prompt
        ? active.sideConfig
        : resolveSideConfig({ prompt: prompt.name }),
      active.definitions.index,
      (moduleId) => ext.registry?.tools.get(moduleId)?.inputSchema,
      env,
    );
  }

  /** The seq the thread's next message will get (for turnStartSeq), without a query when known. */
  private async nextSeq(tx: SqlExecutor, threadId: string): Promise<number> {
    if (this.txLastSeq !== null && Number.isFinite(this.txLastSeq)) return this.txLastSeq + 1;
    const [{ next }] = (await tx.query<{ next: number }>(
      "SELECT message_seq + 1 AS next FROM threads WHERE id = $1",
      [threadId],
    )) as [{ next: number }];
    return Number(next);
  }

  private async invocationEnded(threadId: string, callId: string): Promise<boolean> {
    const invocation = await findInvocation(this.db, threadId, callId);
    return invocation === null || invocation.finished_at !== null;
  }

  /**
   * Parks the thread on a blocking subagent call (not runnable, lease released) unless the child
   * already reported (then the step goes on). Checked under the thread's lock: a child's report
   * locks the parent after its own row, so it either commits before this check or wakes the parent after.
   */
  private async parkOnChild(tx: SqlExecutor, row: ThreadRow, callId: string): Promise<StepOutcome> {
    const invocation = await findInvocation(tx, row.id, callId);
    if (!invocation || invocation.finished_at !== null) return "continue";
    const updated = await updateThread(
      tx,
      row.id,
      this.withMessageSeq(row.id, {
        execution: { ...row.execution, blockedOn: { callId } },
        status: "running",
        runnable: false,
        releaseLease: true,
      }),
    );
    if (row.execution.blockedOn?.callId !== callId) await appendEvents(tx, [threadEvent(updated)]);
    return "parked";
  }

  /**
   * Immediate subagent tools (spec §7.6): when a prompt first becomes active in this thread, its
   * immediate branches run before its first model step, as a runtime-made tool call the model then
   * sees answered. Arguments come from the input that activated the prompt and the nameEnv /
   * descriptionEnv hints; scopedEnv values are handed to the child and never appear in them.
   */
  private async startImmediate(
    row: ThreadRow,
    active: ActiveSide,
    promptName: string,
    branches: readonly SubagentBranch[],
    history: readonly StoredMessage[],
    env: EnvLookup,
  ): Promise<{ message: StoredMessage; calls: StoredToolCall[] } | null> {
    const trigger = [...history]
      .reverse()
      .find(
        (message) =>
          message.depth === 0 &&
          message.side !== active.side &&
          (message.role === "user" || message.role === "assistant") &&
          (message.content ?? "").trim() !== "",
      );
    const calls = immediateCalls(branches, trigger?.content ?? null, env);
    if (calls.length === 0) return null;
    const toolCalls: StoredToolCall[] = calls.map((call) => ({
      id: `immediate_${randomUUID()}`,
      type: "function",
      function: { name: call.name, arguments: JSON.stringify(call.args) },
    }));
    return this.guarded(row.id, async (tx, current) => {
      const [message] = await this.insert(tx, current.id, [
        {
          role: active.side === "a" ? "assistant" : "user",
          side: active.side,
          content: "",
          tool_calls: toolCalls,
          prompt: promptName,
          metadata: { immediate: true },
        },
      ]);
      const updated = await updateThread(
        tx,
        current.id,
        this.withMessageSeq(current.id, {
          execution: {
            ...current.execution,
            immediateDone: [...current.execution.immediateDone, promptName],
          },
        }),
      );
      await appendEvents(tx, [messageEvent(updated, message!), threadEvent(updated)]);
      return { message: message!, calls: toolCalls };
    });
  }

  /** A subagent tool call of the active prompt (spec §7): spawn, message, or wait for a result. */
  private async runSubagentCall(
    threadId: string,
    active: ActiveSide,
    entry: SubagentCatalogEntry,
    args: Record<string, unknown>,
    callId: string,
    ext: StepExtensions,
    spawnGroupId: string,
  ): Promise<ToolExecution> {
    const parent = await findThread(this.db, threadId);
    if (!parent) throw new ThreadTerminated();
    const promptName = active.sideConfig.prompt;
    const prompt = active.definitions.index.prompts.get(promptName)?.definition;
    const hooks = ext.hooks;
    const context = {
      db: this.db,
      parent,
      index: active.definitions.index,
      callId,
      spawnGroupId,
      limits: this.deps.subagentLimits ?? DEFAULT_SUBAGENT_LIMITS,
      env: envLookup(parent.env, parent.scoped_env, active.agent.env, prompt?.env),
      ...(hooks?.has("after_subagent_created", ext.hookIds)
        ? {
            afterCreated: async (childId: string) => {
              const parentState = await ext.state(promptName, [promptName]);
              const childState = await parentState.getChildThread(childId);
              if (childState)
                await hooks.notify("after_subagent_created", ext.hookIds, parentState, childState);
            },
          }
        : {}),
    };
    if (entry.kind === "subagent") return callSubagentTool(context, entry.branch, args);
    if (entry.kind === "subagent_create") return callSubagentCreate(context, entry.branches, args);
    return callSubagentMessage(context, entry.branches, args);
  }

  /** Drains the inbox; decides whether there is anything to do. */
  private async startStep(
    tx: SqlExecutor,
    row: ThreadRow,
    definitions: LoadedDefinitions | null,
    /** The row as read before this transaction, with the input waiting then (a speculative commit). */
    read: ThreadForStep | null = null,
  ): Promise<{ kind: "parked" } | { kind: "run"; row: ThreadRow; drained: StoredMessage[] }> {
    if (row.user_stopped) {
      const human = await tx.query(
        "SELECT 1 FROM inbox_items WHERE thread_id = $1 AND consumed_at IS NULL AND (payload->>'fromHuman')::boolean LIMIT 1",
        [row.id],
      );
      if (human.length === 0) {
        await this.finish(tx, row, {});
        return { kind: "parked" };
      }
    }
    const agent = definitions?.index.agents.get(row.agent_name)?.definition;
    const isHumanChat = (agent?.type ?? "ai_human") === "ai_human";
    // Input read with the row is consumed by id, in the commit's one statement; else drained here.
    const prefetched = read?.pendingInput ?? null;
    const items = prefetched ?? (await drainInbox(tx, row.id));
    if (prefetched) await consumeInboxItems(tx, prefetched);
    if (items.length === 0) {
      if (row.status === "running") return { kind: "run", row, drained: [] };
      await this.finish(tx, row, {});
      return { kind: "parked" };
    }
    const stored = await this.insert(
      tx,
      row.id,
      items.map((item) => ({
        id: item.payload.messageId,
        role: item.payload.role,
        side: item.payload.role === "assistant" ? "a" : isHumanChat ? "b" : null,
        content: item.payload.content,
        silent: item.payload.silent,
        metadata: item.payload.metadata,
        attachments: item.payload.attachments,
        subagent_id:
          typeof item.payload.metadata.subagent_id === "string" ? item.payload.metadata.subagent_id : null,
      })),
    );
    const first = items[0]!;
    const acting: Side = isHumanChat ? "a" : first.payload.role === "assistant" ? "b" : "a";
    const humanTurns = isHumanChat && items.some((item) => item.payload.fromHuman) ? 1 : 0;
    const execution: ExecutionState = {
      ...row.execution,
      currentSide: acting,
      turnStartSeq: stored[0]!.seq,
      turnSteps: 0,
      runSteps: 0,
      turnsB: row.execution.turnsB + humanTurns,
    };
    // Computed here (pipelined); the message_seq the insert above reached goes out with it.
    const updated = await updateLockedThread(
      tx,
      { ...row, message_seq: stored.at(-1)!.seq },
      this.withMessageSeq(row.id, {
        status: "running",
        execution,
        runnable: true,
        ...(humanTurns > 0 || items.some((item) => item.payload.fromHuman)
          ? { userStopped: false, stopReason: null }
          : {}),
      }),
      { consumesInput: prefetched !== null },
    );
    await appendEvents(tx, [
      ...stored.map((message) => messageEvent(updated, message)),
      threadEvent(updated),
    ]);
    this.run(row.id, true);
    return { kind: "run", row: updated, drained: stored };
  }

  private async activeSide(row: ThreadRow): Promise<ActiveSide | string> {
    const definitions = await this.deps.definitions.load(row.project_id, row.project_version);
    if (!definitions) return `Project version ${row.project_version} of this thread no longer exists.`;
    const agent = definitions.index.agents.get(row.agent_name)?.definition;
    if (!agent) return `Agent "${row.agent_name}" is not defined in version ${row.project_version}.`;
    const side = row.execution.currentSide;
    const rawSide = side === "a" ? agent.sideA : agent.sideB;
    if (!rawSide) return `Agent "${agent.name}" has no side ${side.toUpperCase()}.`;
    const sideConfig = resolveSideConfig(rawSide);
    if (!definitions.index.prompts.has(sideConfig.prompt)) {
      return `Side ${side.toUpperCase()} of agent "${agent.name}" uses prompt "${sideConfig.prompt}", which is not defined.`;
    }
    return { agent, side, sideConfig, definitions };
  }

  /** Successful model calls so far by this side with this model (the scripted provider's index). */
  private async countModelCalls(row: ThreadRow, side: Side, modelName: string): Promise<number> {
    const threadId = row.id;
    const counts = this.cache(threadId).modelCalls;
    const key = `${side}|${modelName}`;
    const known = counts.get(key);
    if (known !== undefined) return known;
    // A side's first successful call commits with its first step: before that, there are none.
    const sideSteps = side === "a" ? row.execution.sideASteps : row.execution.sideBSteps;
    if (sideSteps === 0) {
      counts.set(key, 0);
      return 0;
    }
    const rows = await this.db.query<{ count: number }>(
      "SELECT count(*)::int AS count FROM model_calls WHERE thread_id = $1 AND side = $2 AND model_name = $3 AND error IS NULL",
      [threadId, side, modelName],
    );
    const count = Number(rows[0]?.count ?? 0);
    counts.set(key, count);
    return count;
  }

  private async logModelCall(
    tx: SqlExecutor,
    threadId: string,
    side: Side,
    modelName: string,
    messages: ModelCallRequest["messages"],
    catalog: ToolCatalog,
    result: ModelCallResult | null,
    error: string | null,
    startedAt: number,
  ): Promise<void> {
    const id = randomUUID();
    const cache = this.cache(threadId);
    const memoryKey = `${side}|${modelName}`;
    const encoded = encodeRequest(id, { messages, tools: catalog.specs }, cache.requests.get(memoryKey));
    cache.requests.set(memoryKey, encoded.memory);
    if (result) {
      const counted = cache.modelCalls.get(memoryKey);
      if (counted !== undefined) cache.modelCalls.set(memoryKey, counted + 1);
    }
    await tx.defer(
      `INSERT INTO model_calls (id, thread_id, side, model_name, answered_by, provider_model_id, request, response, error,
         input_tokens, output_tokens, cost_usd, latency_ms, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7::text::json, $8::text::json, $9, $10, $11, $12, $13, $14)`,
      [
        id,
        threadId,
        side,
        modelName,
        result?.modelName ?? null,
        result?.providerModelId ?? null,
        JSON.stringify(encoded.stored),
        result
          ? JSON.stringify({ text: result.text, toolCalls: result.toolCalls, usage: result.usage })
          : null,
        error,
        result?.usage.inputTokens ?? 0,
        result?.usage.outputTokens ?? 0,
        result?.costUsd ?? 0,
        result?.latencyMs ?? Math.round((nowMicroseconds() - startedAt) / 1000),
        startedAt,
      ],
    );
  }

  private async commitAssistant(
    threadId: string,
    active: ActiveSide,
    catalog: ToolCatalog,
    modelName: string,
    requestMessages: ModelCallRequest["messages"],
    result: ModelCallResult,
    assistantId: string,
    telemetry: ModelTelemetry[],
    startedAt: number,
    ext: StepExtensions,
    abortSignal: AbortSignal,
  ): Promise<StepOutcome> {
    const empty = result.text.trim() === "" && result.toolCalls.length === 0;
    const toolCalls: StoredToolCall[] = empty
      ? [
          {
            id: `invalid_${assistantId}`,
            type: "function",
            function: {
              name: "invalid_assistant_response",
              arguments: JSON.stringify({ reason: "empty_response", assistantMessageId: assistantId }),
            },
          },
        ]
      : result.toolCalls.map((call) => ({
          id: call.id,
          type: "function",
          function: {
            name: call.name,
            arguments: typeof call.args === "string" ? call.args : JSON.stringify(call.args ?? {}),
          },
        }));

    const draft = await this.beforeCreate(ext, active.sideConfig.prompt, {
      id: assistantId,
      role: active.side === "a" ? "assistant" : "user",
      side: active.side,
      content: result.text,
      tool_calls: toolCalls.length > 0 ? toolCalls : null,
      prompt: active.sideConfig.prompt,
    });
    // Calls of session bindings alone (sessionStop, sessionFail, sessionStatus) are answered at once
    // and change nothing outside this thread's rows: the step commits the reply and their results
    // together, one commit instead of one per call after the reply's.
    const answered = empty ? null : await this.answerBindingsAtOnce(threadId, toolCalls, catalog, ext);
    if (answered) crashPoint("before_tool_commit", active.agent.name);
    const usage = {
      inputTokens: result.usage.inputTokens,
      outputTokens: result.usage.outputTokens,
      costUsd: result.costUsd,
    };
    const logCall = (tx: SqlExecutor, id: string) =>
      this.logModelCall(tx, id, active.side, modelName, requestMessages, catalog, result, null, startedAt);
    const committed = await this.guarded(
      threadId,
      async (tx, row) => {
        if (answered)
          return this.commitReplyWithResults(tx, row, active, draft, answered, {
            logModelCall: () => logCall(tx, row.id),
            telemetry,
            usage,
            control: ext.control,
          });
        // Independent statements go out together (pipelined on one connection, run in this order).
        const [, inserted] = await Promise.all([
          logCall(tx, row.id),
          this.insert(tx, row.id, [
            draft,
            ...(empty
              ? [
                  {
                    role: "tool" as const,
                    side: active.side,
                    content: `Failed to execute tool: ${EMPTY_RESPONSE_RESULT}`,
                    name: "invalid_assistant_response",
                    tool_call_id: toolCalls[0]!.id,
                    tool_status: "error" as const,
                  },
                ]
              : []),
          ]),
        ]);
        const [assistant, ...extra] = inserted;
        const execution = countStep(row.execution, active.side);
        const events: NewEvent[] = [
          ...telemetryEvents(row, telemetry),
          telemetryEvent(row, { type: "step_started", step: execution.stepCount, side: active.side }),
          messageEvent(row, assistant!),
          ...extra.map((message) => messageEvent(row, message)),
        ];
        if (toolCalls.length > 0 && !empty) {
          const updated = await updateLockedThread(
            tx,
            row,
            this.withMessageSeq(row.id, { execution, usage }),
          );
          await appendEvents(tx, [...events, threadEvent(updated)]);
          return { toolsPending: true as const, assistant: assistant!, created: [assistant!] };
        }
        // An empty reply never ends a turn by response, but maxSteps still applies to it.
        const decision = evaluateStop(
          { text: empty ? "" : (draft.content ?? ""), toolCalls: [] },
          { side: active.side, sideConfig: active.sideConfig, turnSteps: execution.turnSteps },
        );
        const outcome = await this.applyDecisionOrControl(
          tx,
          row,
          execution,
          decision,
          active,
          ext.control,
          usage,
          events,
        );
        return { toolsPending: false as const, outcome, created: [assistant!, ...extra] };
      },
      {
        // Nothing after this commit can change the thread: no hooks, and no calls left to run.
        snapshot: (toolCalls.length === 0 || answered !== null) && ext.hookIds.length === 0,
        readBack: (done) => done.toolsPending || done.outcome !== "parked",
        speculate: true,
      },
    );
    this.deps.endMessage?.(assistantId);
    if (answered) crashPoint("after_tool_commit", active.agent.name);
    ext.history.push(...committed.created);
    await this.afterCreate(ext, active.sideConfig.prompt, committed.created);
    if (!committed.toolsPending) return committed.outcome;
    return this.runTools(threadId, committed.assistant, toolCalls, active, catalog, ext, abortSignal);
  }

  /**
   * The results of `calls` when every one is a session binding without an underlying tool and no
   * hook observes tool calls or messages (then runTools would store exactly these, one commit per
   * call); null otherwise.
   */
  private async answerBindingsAtOnce(
    threadId: string,
    calls: readonly StoredToolCall[],
    catalog: ToolCatalog,
    ext: StepExtensions,
  ): Promise<{ call: StoredToolCall; execution: ToolExecution }[] | null> {
    if (calls.length === 0 || ext.hookIds.length > 0 || ext.control.stopRequested) return null;
    for (const call of calls) {
      const entry = catalog.entries.get(call.function.name);
      if (entry?.kind !== "binding" || entry.tool !== undefined) return null;
    }
    const answered: { call: StoredToolCall; execution: ToolExecution }[] = [];
    for (const call of calls)
      answered.push({ call, execution: await executeToolCall(call, { threadId, db: this.db, catalog }) });
    return answered;
  }

  /**
   * A reply whose calls were all answered at once (`answerBindingsAtOnce`), committed with their
   * results: the rows, events and decision runTools would have left after its last call.
   */
  private async commitReplyWithResults(
    tx: SqlExecutor,
    row: ThreadRow,
    active: ActiveSide,
    draft: NewMessage,
    answered: readonly { call: StoredToolCall; execution: ToolExecution }[],
    step: {
      logModelCall: () => Promise<void>;
      telemetry: ModelTelemetry[];
      usage: NonNullable<ThreadChanges["usage"]>;
      control: ExecutionControl;
    },
  ): Promise<{ toolsPending: false; outcome: StepOutcome; created: StoredMessage[] }> {
    const promptName = active.sideConfig.prompt;
    const startedAt = nowMicroseconds();
    const execution = countStep(row.execution, active.side);
    const results: NewMessage[] = answered.map(({ call, execution: result }) => ({
      id: randomUUID(),
      role: "tool" as const,
      side: active.side,
      content: result.content,
      name: call.function.name,
      tool_call_id: call.id,
      tool_status: result.status,
      prompt: promptName,
      ...(result.metadata ? { metadata: result.metadata } : {}),
    }));
    const executedCalls = answered.map(({ call, execution: result }) =>
      executedCallRecord(call, result.status, result.metadata),
    );
    const decision = evaluateStop(
      { text: draft.content ?? "", toolCalls: executedCalls },
      { side: active.side, sideConfig: active.sideConfig, turnSteps: execution.turnSteps },
    );
    // A turn ended by a stop tool with an empty reply takes the tool's response as its content.
    const reply =
      decision.kind === "turn_ended" && decision.responseText !== undefined && !(draft.content ?? "").trim()
        ? { ...draft, content: decision.responseText }
        : draft;
    const [, stored] = await Promise.all([step.logModelCall(), this.insert(tx, row.id, [reply, ...results])]);
    await insertToolRuns(
      tx,
      row.id,
      answered.map(({ call, execution: result }) => ({
        toolCallId: call.id,
        name: call.function.name,
        args: result.args,
        status: result.status,
        result: result.content,
        startedAt,
      })),
    );
    const [assistant, ...toolMessages] = stored;
    const events: NewEvent[] = [
      ...telemetryEvents(row, step.telemetry),
      telemetryEvent(row, { type: "step_started", step: execution.stepCount, side: active.side }),
      messageEvent(row, assistant!),
      ...answered.flatMap(({ call, execution: result }, index) => [
        telemetryEvent(row, { type: "tool_started", tool: call.function.name }),
        telemetryEvent(row, { type: "tool_completed", tool: call.function.name, status: result.status }),
        messageEvent(row, toolMessages[index]!),
      ]),
    ];
    const statusText = answered.findLast(({ execution: result }) => result.statusText !== undefined)
      ?.execution.statusText;
    const statusChange: ThreadChanges = statusText !== undefined ? { statusText } : {};
    if (statusText !== undefined && row.parent_id) {
      // sessionStatus of a child: the parent's registry entry shows it (spec §7.10).
      await setLinkStatus(tx, row.id, statusText || "running", nowMicroseconds());
      events.push(await registryEvent(tx, { id: row.parent_id, root_id: row.root_id }, [row.id]));
    }
    const outcome = await this.applyDecisionOrControl(
      tx,
      row,
      execution,
      decision,
      active,
      step.control,
      step.usage,
      events,
      statusChange,
    );
    return { toolsPending: false, outcome, created: stored };
  }

  /** before_create_message hooks on a message the runtime is about to store (content, silent, metadata). */
  private async beforeCreate(
    ext: StepExtensions,
    promptName: string,
    message: NewMessage,
  ): Promise<NewMessage> {
    if (!ext.hooks?.has("before_create_message", ext.hookIds)) return message;
    const view = messageView({
      id: message.id ?? randomUUID(),
      seq: 0,
      role: message.role,
      side: message.side,
      content: message.content,
      name: message.name ?? null,
      tool_calls: message.tool_calls ?? null,
      tool_call_id: message.tool_call_id ?? null,
      tool_status: message.tool_status ?? null,
      parent_id: message.parent_id ?? null,
      depth: message.depth ?? 0,
      silent: message.silent ?? false,
      metadata: message.metadata ?? {},
      subagent_id: message.subagent_id ?? null,
      attachments: message.attachments ?? [],
      prompt: message.prompt ?? null,
      created_at: 0,
    });
    const changed = await ext.hooks.transform(
      "before_create_message",
      ext.hookIds,
      await ext.state(promptName, [promptName]),
      (value: Message) => [value] as [Message],
      view,
    );
    if (!changed || typeof changed !== "object") return message;
    return {
      ...message,
      ...(changed.content === null || typeof changed.content === "string"
        ? { content: changed.content }
        : {}),
      ...(typeof changed.silent === "boolean" ? { silent: changed.silent } : {}),
      ...(changed.metadata && typeof changed.metadata === "object" ? { metadata: changed.metadata } : {}),
    };
  }

  private async afterCreate(
    ext: StepExtensions,
    promptName: string,
    messages: StoredMessage[],
  ): Promise<void> {
    if (messages.length === 0 || !ext.hooks?.has("after_create_message", ext.hookIds)) return;
    const state = await ext.state(promptName, [promptName]);
    for (const message of messages)
      await ext.hooks.notify("after_create_message", ext.hookIds, state, messageView(message));
  }

  private async runTools(
    threadId: string,
    assistant: StoredMessage,
    calls: StoredToolCall[],
    active: ActiveSide,
    catalog: ToolCatalog,
    ext: StepExtensions,
    abortSignal: AbortSignal,
  ): Promise<StepOutcome> {
    const promptName = active.sideConfig.prompt;
    let current = assistant;
    for (let index = 0; index < calls.length; index += 1) {
      const call = calls[index]!;
      if (abortSignal.aborted) return "aborted";
      // A run of non-blocking subagent calls spawns its children in one transaction.
      const batch = this.batchableSpawns(calls, index, catalog, ext);
      if (batch.length > 0) {
        const committed = await this.commitSpawnBatch(threadId, assistant, batch, active, ext).catch(
          (error: unknown) => {
            if (
              error instanceof LeaseLost ||
              error instanceof ThreadTerminated ||
              error instanceof StoppedByUser
            )
              throw error;
            return 0; // e.g. an attachment that does not exist: the calls run one by one and say so
          },
        );
        if (committed > 0) {
          crashPoint("after_tool_commit", active.agent.name);
          index += committed - 1;
          continue;
        }
      }
      const startedAt = nowMicroseconds();
      const toolMessageId = randomUUID();
      // Work that takes time (code, HTTP and built-in tools, sub-prompts) is announced before it
      // runs, so live views show it running; instant runtime tools announce with their result.
      const announced = announcesStart(catalog.entries.get(call.function.name));
      if (announced && this.rootId) {
        await appendEvents(this.db, [
          telemetryEvent(
            { id: threadId, root_id: this.rootId },
            { type: "tool_started", tool: call.function.name },
          ),
        ]);
      }
      const executed = await executeToolCall(call, {
        threadId,
        db: this.db,
        catalog,
        abortSignal,
        ...this.toolExtensions(threadId, ext, promptName, [promptName]),
        runSubprompt: (entry, args) =>
          this.runSubprompt(threadId, active, entry, args, toolMessageId, 1, ext, [promptName], abortSignal),
        runSubagent: (entry, args, callId) =>
          this.runSubagentCall(threadId, active, entry, args, callId, ext, assistant.id),
      });
      if (abortSignal.aborted) return "aborted";
      crashPoint("before_tool_commit", active.agent.name);
      if (executed.pending) {
        return this.guarded(threadId, (tx, row) => this.parkOnChild(tx, row, call.id));
      }
      const execution = await this.afterToolHooks(ext, promptName, call, executed);
      const draft =
        execution &&
        (await this.beforeCreate(ext, promptName, {
          id: toolMessageId,
          role: "tool",
          side: active.side,
          content: execution.content,
          name: call.function.name,
          tool_call_id: call.id,
          tool_status: execution.status,
          prompt: promptName,
          ...(execution.metadata ? { metadata: execution.metadata } : {}),
          ...(execution.attachments ? { attachments: execution.attachments } : {}),
        }));
      // After a stop request the remaining calls are answered as stopped and the run ends here.
      const remaining = ext.control.stopRequested ? calls.slice(index + 1) : [];
      const isLast = index === calls.length - 1 || ext.control.stopRequested;
      const outcome = await this.guarded(
        threadId,
        async (tx, lockedRow) => {
          let row = lockedRow;
          if (row.execution.blockedOn?.callId === call.id) {
            row = await updateThread(tx, row.id, { execution: { ...row.execution, blockedOn: null } });
          }
          const created: StoredMessage[] = [];
          if (!draft) {
            // after_tool_call_* returned null: the call leaves history and nothing is stored for it.
            const kept = (current.tool_calls ?? []).filter((entry) => entry.id !== call.id);
            await tx.query("UPDATE messages SET tool_calls = $1::text::jsonb WHERE id = $2", [
              kept.length > 0 ? JSON.stringify(kept) : null,
              current.id,
            ]);
            current = { ...current, tool_calls: kept.length > 0 ? kept : null };
            await this.changedHistory(tx, row.id);
          }
          const stoppedResults = remaining.map((open) => ({
            role: "tool" as const,
            side: active.side,
            content: errorContent(EXECUTION_STOPPED_RESULT),
            name: open.function.name,
            tool_call_id: open.id,
            tool_status: "error" as const,
            prompt: promptName,
          }));
          // Independent statements go out together (pipelined on one connection, run in this order).
          const [, stored] = await Promise.all([
            tx.defer(
              `INSERT INTO tool_runs (id, thread_id, tool_call_id, name, args, status, result, started_at, finished_at)
             VALUES ($1, $2, $3, $4, $5::text::jsonb, $6, $7, $8, $9)`,
              [
                randomUUID(),
                row.id,
                call.id,
                call.function.name,
                JSON.stringify(executed.args ?? null),
                executed.status,
                executed.content,
                startedAt,
                nowMicroseconds(),
              ],
            ),
            this.insert(tx, row.id, [...(draft ? [draft] : []), ...stoppedResults]),
          ]);
          created.push(...stored);
          const events: NewEvent[] = [
            ...(announced && this.rootId
              ? []
              : [telemetryEvent(row, { type: "tool_started", tool: call.function.name })]),
            telemetryEvent(row, {
              type: "tool_completed",
              tool: call.function.name,
              status: executed.status,
            }),
            ...created.map((message) => messageEvent(row, message)),
          ];
          const statusChange: ThreadChanges =
            execution?.statusText !== undefined ? { statusText: execution.statusText } : {};
          if (execution?.statusText !== undefined && row.parent_id) {
            // sessionStatus of a child: the parent's registry entry shows it (spec §7.10).
            await setLinkStatus(tx, row.id, execution.statusText || "running", nowMicroseconds());
            events.push(await registryEvent(tx, { id: row.parent_id, root_id: row.root_id }, [row.id]));
          }
          if (!isLast) {
            const updated = await updateLockedThread(tx, row, this.withMessageSeq(row.id, statusChange));
            await appendEvents(tx, [
              ...events,
              ...(execution?.statusText !== undefined ? [threadEvent(updated)] : []),
            ]);
            return { created, outcome: null };
          }
          // The stop evaluation needs every call's result: from memory when this run stored them
          // all, else read (after a crash, earlier results come from an earlier run).
          const executedCalls =
            executedCallsKnown(current, [...ext.history, ...stored]) ??
            (await executedCallsOf(tx, row.id, current));
          const decision = evaluateStop(
            { text: current.content ?? "", toolCalls: executedCalls },
            { side: active.side, sideConfig: active.sideConfig, turnSteps: row.execution.turnSteps },
          );
          if (
            decision.kind === "turn_ended" &&
            decision.responseText !== undefined &&
            !(current.content ?? "").trim()
          ) {
            await tx.query("UPDATE messages SET content = $1 WHERE id = $2", [
              decision.responseText,
              current.id,
            ]);
            events.push(messageEvent(row, { ...current, content: decision.responseText }));
          }
          const handoff = executedCalls
            .filter((entry) => entry.status === "success" && entry.handoffTo)
            .at(-1);
          if (handoff && decision.kind !== "session_completed" && decision.kind !== "session_failed") {
            await this.applyHandoff(tx, row, handoff, catalog, events, statusChange);
            return { created, outcome: "continue" as const };
          }
          const outcome = await this.applyDecisionOrControl(
            tx,
            row,
            row.execution,
            decision,
            active,
            ext.control,
            undefined,
            events,
            statusChange,
          );
          return { created, outcome };
        },
        { speculate: true, readBack: (done) => done.outcome !== "parked" },
      );
      crashPoint("after_tool_commit", active.agent.name);
      ext.history.push(...outcome.created);
      await this.afterCreate(ext, promptName, outcome.created);
      if (outcome.outcome) return outcome.outcome;
    }
    return "continue";
  }

  /**
   * Consecutive non-blocking calls of one-off subagent branches from `index` on, all but the last
   * (which runs the ordinary way, so the step's last call still ends the step). Empty when hooks
   * that observe single tool calls or messages are declared: those run call by call.
   */
  private batchableSpawns(
    calls: readonly StoredToolCall[],
    index: number,
    catalog: ToolCatalog,
    ext: StepExtensions,
  ): SpawnBatchItem[] {
    const observed = [
      "after_tool_call_success",
      "after_tool_call_failure",
      "before_store_tool_result",
      "before_create_message",
      "after_create_message",
      "after_subagent_created",
    ] as const;
    if (ext.hooks && observed.some((hook) => ext.hooks?.has(hook, ext.hookIds))) return [];
    const run: SpawnBatchItem[] = [];
    for (const call of calls.slice(index)) {
      const entry = catalog.entries.get(call.function.name);
      if (entry?.kind !== "subagent" || entry.branch.config.blocking) break;
      const args = safeJson(call.function.arguments);
      if (!args || typeof args !== "object" || Array.isArray(args)) break;
      run.push({ call, branch: entry.branch, args: args as Record<string, unknown> });
    }
    return run.length > 2 ? run.slice(0, -1) : [];
  }

  /**
   * Spawns a batch of children and stores every call's result in one transaction (all or nothing).
   * Returns how many calls it answered; 0 sends the calls down the ordinary path, which also
   * explains every refusal (limits, missing variables, a child already spawned by a re-run call).
   */
  private async commitSpawnBatch(
    threadId: string,
    assistant: StoredMessage,
    batch: readonly SpawnBatchItem[],
    active: ActiveSide,
    ext: StepExtensions,
  ): Promise<number> {
    const parent = await findThread(this.db, threadId);
    if (!parent) throw new ThreadTerminated();
    const promptName = active.sideConfig.prompt;
    const prompt = active.definitions.index.prompts.get(promptName)?.definition;
    const env = envLookup(parent.env, parent.scoped_env, active.agent.env, prompt?.env);
    const limits = this.deps.subagentLimits ?? DEFAULT_SUBAGENT_LIMITS;
    if (parent.depth + 1 > limits.maxDepth) return 0;
    const requests: SpawnRequest[] = [];
    for (const { call, branch, args } of batch) {
      const scopedEnv = handedDownEnv(branch, env);
      if (missingChildVariables(branch.agent, active.definitions.index, scopedEnv).missing.length > 0)
        return 0;
      const input = childInputFromArgs(branch.config, args);
      requests.push({
        parentId: threadId,
        branch,
        callId: call.id,
        message: input.message,
        attachmentPaths: input.attachmentPaths,
        instanceName: input.instanceName,
        description: null,
        resumable: false,
        waits: false,
        scopedEnv,
        spawnGroupId: assistant.id,
      });
    }
    const callIds = batch.map((item) => item.call.id);
    const startedAt = nowMicroseconds();
    crashPoint("before_tool_commit", active.agent.name);
    const created = await this.guarded(threadId, async (tx, row) => {
      const [counts] = await tx.query<Record<string, number>>(
        `SELECT (SELECT count(*)::int FROM threads WHERE parent_id = $1 AND status IN ('queued', 'running')) AS children,
                (SELECT count(*)::int FROM threads WHERE status IN ('queued', 'running')) AS everywhere,
                (SELECT count(*)::int FROM subagents WHERE parent_id = $1 AND spawn_call_id = ANY($2)) AS spawned,
                (SELECT count(*)::int FROM subagent_env_requests WHERE parent_id = $1 AND call_id = ANY($2)) AS deferred`,
        [row.id, callIds],
      );
      if (
        !counts ||
        Number(counts.spawned) > 0 ||
        Number(counts.deferred) > 0 ||
        Number(counts.children) + batch.length > limits.maxActiveChildren ||
        Number(counts.everywhere) + batch.length > limits.maxActiveThreads
      )
        return null;
      const spawned = await spawnChildren(tx, row.id, requests);
      const results = spawned.links.map((link, index) => ({
        call: batch[index]!.call,
        execution: startedResult(link, "started", batch[index]!.args),
      }));
      const stored = await this.insert(
        tx,
        row.id,
        results.map(({ call, execution }) => ({
          role: "tool" as const,
          side: active.side,
          content: execution.content,
          name: call.function.name,
          tool_call_id: call.id,
          tool_status: execution.status,
          prompt: promptName,
          ...(execution.metadata ? { metadata: execution.metadata } : {}),
        })),
      );
      await insertToolRuns(
        tx,
        row.id,
        results.map(({ call, execution }) => ({
          toolCallId: call.id,
          name: call.function.name,
          args: execution.args,
          status: execution.status,
          result: execution.content,
          startedAt,
        })),
      );
      await appendEvents(tx, [
        ...results.flatMap(({ call }) => [
          telemetryEvent(row, { type: "tool_started", tool: call.function.name }),
          telemetryEvent(row, { type: "tool_completed", tool: call.function.name, status: "success" }),
        ]),
        ...stored.map((message) => messageEvent(row, message)),
        ...spawned.events,
      ]);
      const siblings = Number(counts.children) + spawned.links.length;
      const routes = new Map(
        spawned.links.map((link) => [
          link.child_id,
          oneOffReportRoute(link, spawned.invocations.get(link.child_id) ?? "", siblings),
        ]),
      );
      return { stored, firstMessages: spawned.firstMessages, routes };
    });
    if (!created) return 0;
    // A child's first run (likely in this process) then starts without reading its history, and
    // a one-off child reports without reading its registry row.
    for (const [childId, first] of created.firstMessages) {
      const report = created.routes.get(childId);
      this.deps.spawnedCaches?.park(childId, {
        history: { version: first.seq, messages: [first] },
        modelCalls: new Map(),
        requests: new Map(),
        ...(report ? { report } : {}),
      });
    }
    ext.history.push(...created.stored);
    return created.stored.length;
  }

  /** What code tools need from this step: installed modules, a ThreadState, attachment storage. */
  private toolExtensions(threadId: string, ext: StepExtensions, promptName: string, promptPath: string[]) {
    const store = this.deps.storeToolAttachments;
    return {
      ...(ext.registry ? { extensions: ext.registry } : {}),
      threadState: () => ext.state(promptName, promptPath),
      ...(store
        ? { storeAttachments: (list: Array<ToolAttachment | AttachmentRef>) => store(threadId, list) }
        : {}),
    };
  }

  /**
   * after_tool_call_success / after_tool_call_failure (null drops the call from history), then
   * before_store_tool_result. Returns null when the call is dropped.
   */
  private async afterToolHooks(
    ext: StepExtensions,
    promptName: string,
    call: StoredToolCall,
    execution: ToolExecution,
  ): Promise<ToolExecution | null> {
    const hooks = ext.hooks;
    if (!hooks || ext.hookIds.length === 0) return execution;
    const kind = execution.status === "success" ? "after_tool_call_success" : "after_tool_call_failure";
    const toolCall: ToolCall = { id: call.id, type: "function", function: { ...call.function } };
    let current = execution;
    if (hooks.has(kind, ext.hookIds)) {
      const result = await hooks.transform(
        kind,
        ext.hookIds,
        await ext.state(promptName, [promptName]),
        (value: ToolResult) => [toolCall, value] as [ToolCall, ToolResult],
        toToolResult(current),
        { nullable: true },
      );
      if (result === null) return null;
      current = fromToolResult(result, current);
    }
    if (hooks.has("before_store_tool_result", ext.hookIds)) {
      const result = await hooks.transform(
        "before_store_tool_result",
        ext.hookIds,
        await ext.state(promptName, [promptName]),
        (value: ToolResult) => [toolCall, value] as [ToolCall, ToolResult],
        toToolResult(current),
      );
      if (result) current = fromToolResult(result, current);
    }
    return current;
  }

  /**
   * Handoff (spec notes §2.5): after the step's tools ran, the thread's agent becomes the target,
   * history is kept, side A of the new agent takes the next step; a configured
   * initUserMessageProperty becomes a real user message built from the call's arguments.
   */
  private async applyHandoff(
    tx: SqlExecutor,
    row: ThreadRow,
    handoff: ExecutedCallRecord,
    catalog: ToolCatalog,
    events: NewEvent[],
    extra: ThreadChanges,
  ): Promise<void> {
    const target = handoff.handoffTo ?? handoff.name;
    const entry = catalog.entries.get(handoff.name);
    const config = entry?.kind === "handoff" ? entry.config : undefined;
    const next = await this.nextSeq(tx, row.id);
    const initProperty = config?.initUserMessageProperty;
    const initValue =
      initProperty && handoff.args && typeof handoff.args === "object"
        ? (handoff.args as Record<string, unknown>)[initProperty]
        : undefined;
    const initMessages =
      initValue === undefined || initValue === null
        ? []
        : await this.insert(tx, row.id, [
            {
              role: "user",
              side: "b",
              content: typeof initValue === "string" ? initValue : JSON.stringify(initValue),
            },
          ]);
    const execution: ExecutionState = {
      ...row.execution,
      currentSide: "a",
      turnSteps: 0,
      turnStartSeq: Number(next),
    };
    const updated = await updateThread(
      tx,
      row.id,
      this.withMessageSeq(row.id, {
        ...extra,
        agentName: target,
        execution,
        status: "running",
        runnable: true,
      }),
    );
    const agent = entry?.kind === "handoff" ? entry.agent : undefined;
    await appendEvents(tx, [
      ...events,
      telemetryEvent(row, {
        type: "agent_handoff",
        new_agent_id: target,
        new_agent_title: agent?.title ?? null,
      }),
      ...initMessages.map((message) => messageEvent(updated, message)),
      threadEvent(updated),
    ]);
  }

  /**
   * A prompt called as a tool (spec notes §1.8): one model step at depth+1 in this thread, its own
   * tool calls run in order, everything stored under the parent tool message (never in the
   * parent's context); the result string follows the reference format. A crash re-runs it whole.
   */
  private async runSubprompt(
    threadId: string,
    active: ActiveSide,
    entry: Extract<CatalogEntry, { kind: "subprompt" }>,
    args: Record<string, unknown>,
    parentMessageId: string,
    depth: number,
    ext: StepExtensions,
    parentPath: string[],
    abortSignal: AbortSignal,
  ): Promise<ToolExecution> {
    if (depth > MAX_SUBPROMPT_DEPTH) {
      return {
        status: "error",
        content: errorContent(`Sub-prompts nest at most ${MAX_SUBPROMPT_DEPTH} deep.`),
        args,
      };
    }
    const config = entry.config;
    const options = resolveSubpromptConfig({
      name: entry.name,
      ...(config.initUserMessageProperty !== undefined
        ? { initUserMessageProperty: config.initUserMessageProperty }
        : {}),
      ...(config.includeTextResponse !== undefined
        ? { includeTextResponse: config.includeTextResponse }
        : {}),
      ...(config.includeToolCalls !== undefined ? { includeToolCalls: config.includeToolCalls } : {}),
      ...(config.includeErrors !== undefined ? { includeErrors: config.includeErrors } : {}),
    });
    const prompt = entry.prompt;
    const definitions = active.definitions;
    const row = await findThread(this.db, threadId);
    const env = { ...(prompt.env ?? {}), ...(active.agent.env ?? {}), ...(row?.env ?? {}) };
    const system = renderPromptContent({
      prompt,
      findPrompt: (name) => definitions.index.prompts.get(name)?.definition,
      resolveEnv: (name) => env[name],
    });
    const initValue = options.initUserMessageProperty ? args[options.initUserMessageProperty] : undefined;
    const initText =
      initValue === undefined || initValue === null
        ? null
        : typeof initValue === "string"
          ? initValue
          : JSON.stringify(initValue);
    const nested = { depth, parent_id: parentMessageId };
    if (initText !== null) {
      await this.guarded(threadId, (tx) =>
        this.insert(tx, threadId, [{ role: "user", side: null, content: initText, ...nested }]),
      );
    }
    const promptPath = [...parentPath, prompt.name];
    const catalog = buildToolCatalog(
      prompt,
      resolveSideConfig({ prompt: prompt.name }),
      definitions.index,
      (moduleId) => ext.registry?.tools.get(moduleId)?.inputSchema,
    );
    const promptOptions = resolvePromptOptions(prompt);
    const messages: ModelCallRequest["messages"] = [
      { role: "system", content: system },
      ...(initText !== null ? [{ role: "user" as const, content: initText }] : []),
    ];
    const startedAt = nowMicroseconds();
    let result: ModelCallResult;
    try {
      result = await this.deps.callModel(
        prompt.model,
        definitions.bundle.models,
        {
          messages,
          tools: catalog.specs,
          toolChoice: promptOptions.toolChoice,
          parallelToolCalls: promptOptions.parallelToolCalls,
          abortSignal,
          scriptedCallIndex: await this.countModelCalls(
            row ?? (await findThread(this.db, threadId))!,
            active.side,
            prompt.model,
          ),
        },
        {},
      );
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      return {
        status: "error",
        content: options.includeErrors ? `Error: ${message}` : "Error: Tool execution failed",
        args,
      };
    }
    const toolCalls: StoredToolCall[] = result.toolCalls.map((call) => ({
      id: call.id,
      type: "function",
      function: {
        name: call.name,
        arguments: typeof call.args === "string" ? call.args : JSON.stringify(call.args ?? {}),
      },
    }));
    await this.guarded(threadId, async (tx, current) => {
      await this.logModelCall(
        tx,
        threadId,
        active.side,
        prompt.model,
        messages,
        catalog,
        result,
        null,
        startedAt,
      );
      await this.insert(tx, threadId, [
        {
          role: "assistant",
          side: active.side,
          content: result.text,
          tool_calls: toolCalls.length > 0 ? toolCalls : null,
          prompt: prompt.name,
          ...nested,
        },
      ]);
      await updateThread(
        tx,
        current.id,
        this.withMessageSeq(current.id, {
          usage: {
            inputTokens: result.usage.inputTokens,
            outputTokens: result.usage.outputTokens,
            costUsd: result.costUsd,
          },
        }),
      );
    });
    const calls: SubpromptCall[] = [];
    for (const call of toolCalls) {
      if (abortSignal.aborted) break;
      const messageId = randomUUID();
      const execution = await executeToolCall(call, {
        threadId,
        db: this.db,
        catalog,
        abortSignal,
        ...this.toolExtensions(threadId, ext, prompt.name, promptPath),
        runSubprompt: (inner, innerArgs) =>
          this.runSubprompt(
            threadId,
            active,
            inner,
            innerArgs,
            messageId,
            depth + 1,
            ext,
            promptPath,
            abortSignal,
          ),
      });
      const content =
        execution.status === "error" && options.includeErrors && !execution.content.startsWith("Error: ")
          ? `Error: ${execution.content}`
          : execution.content;
      await this.guarded(threadId, (tx) =>
        this.insert(tx, threadId, [
          {
            id: messageId,
            role: "tool",
            side: active.side,
            content,
            name: call.function.name,
            tool_call_id: call.id,
            tool_status: execution.status,
            prompt: prompt.name,
            ...nested,
          },
        ]),
      );
      calls.push({
        name: call.function.name,
        argumentsJson: call.function.arguments,
        status: execution.status,
        content,
      });
    }
    const assembled = assembleSubpromptResult(result.text, calls, options);
    return { status: assembled.status, content: assembled.content, args };
  }

  /**
   * Applies the step's stop decision, unless a tool or hook asked the run to stop
   * (state.execution.stop()) or forced the next turn (state.execution.forceTurn); a session end or a
   * limit always wins. Returns what the scheduler does next.
   */
  private async applyDecisionOrControl(
    tx: SqlExecutor,
    row: ThreadRow,
    execution: ExecutionState,
    decision: StopDecision,
    active: ActiveSide,
    control: ExecutionControl,
    usage: ThreadChanges["usage"],
    events: NewEvent[],
    extra: ThreadChanges = {},
  ): Promise<StepOutcome> {
    const ended =
      decision.kind === "session_completed" ||
      decision.kind === "session_failed" ||
      decision.kind === "limit";
    const base: ThreadChanges = { ...extra, execution, ...(usage ? { usage } : {}) };
    events.push(
      telemetryEvent(row, { type: "step_completed", step: execution.stepCount, side: active.side }),
    );
    if (!ended && control.stopRequested) {
      await this.finish(
        tx,
        row,
        { ...base, status: "stopped", stopReason: EXECUTION_STOPPED_RESULT },
        events,
        active.side,
      );
      return "parked";
    }
    let effective = decision;
    if (!ended && control.forcedSide) {
      const isHumanChat = (active.agent.type ?? "ai_human") === "ai_human";
      if (isHumanChat && control.forcedSide === "b") {
        await this.finish(tx, row, { ...base, status: "idle", stopReason: null }, events);
        return "parked";
      }
      if (control.forcedSide === active.side) {
        const updated = await updateLockedThread(
          tx,
          row,
          this.withMessageSeq(row.id, { ...base, status: "running", runnable: true }),
        );
        await appendEvents(tx, [...events, threadEvent(updated)]);
        return "continue";
      }
      effective = { kind: "turn_ended", reason: "response" };
    }
    return this.applyDecision(tx, row, execution, effective, active, usage, events, extra);
  }

  /**
   * Moves the thread on after a step, in the step's last transaction: "continue" when the thread
   * goes on (same side, or the other side of a dual_ai), "parked" when it finished (lease released).
   */
  private async applyDecision(
    tx: SqlExecutor,
    row: ThreadRow,
    execution: ExecutionState,
    decision: StopDecision,
    active: ActiveSide,
    usage: ThreadChanges["usage"],
    events: NewEvent[],
    extra: ThreadChanges = {},
  ): Promise<StepOutcome> {
    const base: ThreadChanges = { ...extra, execution, ...(usage ? { usage } : {}) };
    const side = active.side;
    if (decision.kind === "session_completed") {
      return this.finishAndPark(
        tx,
        row,
        { ...base, status: "completed", result: decision.result, stopReason: "Session completed" },
        events,
        side,
        decision.attachments,
      );
    }
    if (decision.kind === "session_failed") {
      return this.finishAndPark(
        tx,
        row,
        { ...base, status: "failed", failure: decision.failure, stopReason: "Session failed" },
        events,
        side,
        decision.attachments,
      );
    }
    if (decision.kind === "limit") {
      return this.finishAndPark(
        tx,
        row,
        { ...base, status: "stopped", stopReason: decision.reason },
        events,
        side,
      );
    }
    // Per execution (since the last input), like the reference: max(250, the sides' maxSteps).
    const cap = Math.max(
      MAX_STEPS_PER_TURN,
      active.agent.sideA.maxSteps ?? 0,
      active.agent.sideB?.maxSteps ?? 0,
    );
    if (execution.runSteps >= cap && decision.kind !== "turn_ended") {
      const reason = `Maximum steps reached (${cap})`;
      return this.finishAndPark(tx, row, { ...base, status: "stopped", stopReason: reason }, events, side);
    }
    const isDual = (active.agent.type ?? "ai_human") === "dual_ai";
    if (
      decision.kind === "continue" &&
      isDual &&
      !active.sideConfig.stopOnResponse &&
      !active.sideConfig.stopTool
    ) {
      // No turn-stop condition on this side: the turn passes after every step (reference runtime).
      const passTurn: StopDecision = { kind: "turn_ended", reason: "response" };
      return this.applyDecision(tx, row, execution, passTurn, active, usage, events, extra);
    }
    if (decision.kind === "continue") {
      const updated = await updateLockedThread(
        tx,
        row,
        this.withMessageSeq(row.id, { ...base, status: "running", runnable: true }),
      );
      await appendEvents(tx, [...events, threadEvent(updated)]);
      return "continue";
    }
    // The side's turn ended.
    const turns =
      side === "a"
        ? { ...execution, turnsA: execution.turnsA + 1 }
        : { ...execution, turnsB: execution.turnsB + 1 };
    const limit = sessionTurnLimitReason(turns.turnsA, turns.turnsB, active.agent.maxSessionTurns);
    if (limit)
      return this.finishAndPark(
        tx,
        row,
        { ...base, execution: turns, status: "stopped", stopReason: limit },
        events,
        side,
      );
    if ((active.agent.type ?? "ai_human") === "ai_human") {
      return this.finishAndPark(
        tx,
        row,
        { ...base, execution: turns, status: "idle", stopReason: null },
        events,
      );
    }
    const next = await this.nextSeq(tx, row.id);
    if (execution.runSteps >= cap) {
      const reason = `Maximum steps reached (${cap})`;
      return this.finishAndPark(
        tx,
        row,
        { ...base, execution: turns, status: "stopped", stopReason: reason },
        events,
        side,
      );
    }
    const switched: ExecutionState = {
      ...turns,
      currentSide: otherSide(side),
      turnSteps: 0,
      turnStartSeq: Number(next),
    };
    const updated = await updateLockedThread(
      tx,
      row,
      this.withMessageSeq(row.id, {
        ...base,
        execution: switched,
        status: "running",
        runnable: true,
      }),
    );
    await appendEvents(tx, [...events, threadEvent(updated)]);
    return "continue";
  }

  /**
   * The one-off report route of a child spawned here (`OneOffReportRoute`), while what this run
   * remembers shows it has no children of its own (none of its messages came from or went to one).
   */
  private oneOffRoute(threadId: string): OneOffReportRoute | null {
    const cache = this.caches.get(threadId);
    const history = cache?.history?.messages;
    if (!cache?.report || !history) return null;
    const hasChildren = history.some(
      (message) => message.subagent_id !== null || message.metadata.subagent !== undefined,
    );
    return hasChildren ? null : cache.report;
  }

  /** `finish`, for a step's outcome: the thread is parked. */
  private async finishAndPark(...args: Parameters<StepRunner["finish"]>): Promise<StepOutcome> {
    await this.finish(...args);
    return "parked";
  }

  /** Parks the thread: applies the changes, releases the lease, stays runnable only if input waits. */
  private async finish(
    tx: SqlExecutor,
    row: ThreadRow,
    changes: ThreadChanges,
    events: NewEvent[] = [],
    side?: Side,
    reportedAttachments: readonly string[] = [],
  ): Promise<void> {
    // A child's session end and its report to the parent commit together (spec §7.10).
    const outcome =
      row.parent_id && changes.status
        ? childOutcomeOf(changes.status, {
            result: changes.result ?? null,
            failure: changes.failure ?? null,
            stopReason: changes.stopReason ?? null,
          })
        : null;
    const oneOff = outcome && reportedAttachments.length === 0 ? this.oneOffRoute(row.id) : null;
    // A user stop parks queued input until the next human message (which marks the thread runnable).
    // A one-off child can get no input but its spawn's, and no report (it has no children).
    const stoppedByUser = changes.userStopped ?? row.user_stopped;
    const updated = await updateLockedThread(
      tx,
      row,
      this.withMessageSeq(row.id, {
        ...changes,
        runnable: stoppedByUser || oneOff ? false : "if_input",
        releaseLease: true,
      }),
    );
    const stopped =
      changes.status &&
      changes.status !== row.status &&
      ["completed", "failed", "stopped"].includes(changes.status)
        ? [
            telemetryEvent(row, {
              type: "stopped",
              reason: changes.stopReason ?? changes.status,
              side: side ?? null,
            }),
          ]
        : [];
    if (changes.status === "completed" || changes.status === "failed" || changes.status === "stopped") {
      crashPoint("before_terminal_commit", row.agent_name);
      this.endedSessions.set(row.id, row.agent_name);
    }
    const wake = (parentId: string) => this.wakeAfterCommit.add(parentId);
    const parentEvents = !outcome
      ? []
      : oneOff && outcome.kind !== "terminated"
        ? await settleOneOffChild(tx, row, oneOff, outcome, wake)
        : await settleChild(tx, row, outcome, reportedAttachments, wake);
    await appendEvents(tx, [...events, ...stopped, threadEvent(updated), ...parentEvents]);
  }
}

/** The model layer's message plus the last provider error it wraps, so users see the real cause. */
function describeModelFailure(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const details = (error as { details?: { lastError?: unknown } }).details;
  return typeof details?.lastError === "string"
    ? `${error.message} (last error: ${details.lastError})`
    : error.message;
}

function countStep(execution: ExecutionState, side: Side): ExecutionState {
  return {
    ...execution,
    stepCount: execution.stepCount + 1,
    sideASteps: execution.sideASteps + (side === "a" ? 1 : 0),
    sideBSteps: execution.sideBSteps + (side === "b" ? 1 : 0),
    turnSteps: execution.turnSteps + 1,
    runSteps: execution.runSteps + 1,
  };
}

/** The latest message of this side with tool calls that still lack results (after a crash or stop). */
export function unansweredToolCalls(
  history: readonly StoredMessage[],
  side: Side,
): { message: StoredMessage; calls: StoredToolCall[] } | null {
  const own = history.filter(
    (message) => message.side === side && message.role !== "tool" && message.depth === 0,
  );
  const last = own[own.length - 1];
  if (!last?.tool_calls?.length) return null;
  const answered = new Set(
    history
      .filter((message) => message.role === "tool" && message.depth === 0 && message.seq > last.seq)
      .map((message) => message.tool_call_id),
  );
  const calls = last.tool_calls.filter((call) => !answered.has(call.id));
  return calls.length > 0 ? { message: last, calls } : null;
}

interface SpawnBatchItem {
  call: StoredToolCall;
  branch: SubagentBranch;
  args: Record<string, unknown>;
}

/** Tool runs of several calls in one statement. */
async function insertToolRuns(
  tx: SqlExecutor,
  threadId: string,
  runs: readonly {
    toolCallId: string;
    name: string;
    args: unknown;
    status: string;
    result: string;
    startedAt: number;
  }[],
): Promise<void> {
  if (runs.length === 0) return;
  const finishedAt = nowMicroseconds();
  const values: unknown[] = [];
  const rows = runs.map((run, index) => {
    values.push(
      randomUUID(),
      threadId,
      run.toolCallId,
      run.name,
      JSON.stringify(run.args ?? null),
      run.status,
      run.result,
      run.startedAt,
      finishedAt,
    );
    const p = (offset: number) => `$${index * 9 + offset}`;
    return `(${p(1)}, ${p(2)}, ${p(3)}, ${p(4)}, ${p(5)}::text::jsonb, ${p(6)}, ${p(7)}, ${p(8)}, ${p(9)})`;
  });
  await tx.defer(
    `INSERT INTO tool_runs (id, thread_id, tool_call_id, name, args, status, result, started_at, finished_at)
     VALUES ${rows.join(", ")}`,
    values as never[],
  );
}

interface ExecutedCallRecord extends ExecutedToolCall {
  /** The agent a successful handoff call transferred the thread to. */
  handoffTo?: string;
}

/**
 * The executed calls of `assistant` (as `executedCallsOf` reads them) from messages in memory, or
 * null when a call's result is not among them.
 */
function executedCallsKnown(
  assistant: StoredMessage,
  messages: readonly StoredMessage[],
): ExecutedCallRecord[] | null {
  const results = new Map<string, StoredMessage>();
  for (const message of messages) {
    if (message.role === "tool" && message.depth === 0 && message.seq > assistant.seq && message.tool_call_id)
      results.set(message.tool_call_id, message);
  }
  const executed: ExecutedCallRecord[] = [];
  for (const call of assistant.tool_calls ?? []) {
    const result = results.get(call.id);
    if (!result) return null;
    executed.push(executedCallRecord(call, result.tool_status ?? "error", result.metadata));
  }
  return executed;
}

async function executedCallsOf(
  tx: SqlExecutor,
  threadId: string,
  assistant: StoredMessage,
): Promise<ExecutedCallRecord[]> {
  const results = await tx.query<{
    tool_call_id: string;
    tool_status: "success" | "error";
    metadata: unknown;
  }>(
    "SELECT tool_call_id, tool_status, metadata FROM messages WHERE thread_id = $1 AND role = 'tool' AND depth = 0 AND seq > $2",
    [threadId, assistant.seq],
  );
  const byId = new Map(results.map((result) => [result.tool_call_id, result]));
  return (assistant.tool_calls ?? []).map((call) => {
    const result = byId.get(call.id);
    return executedCallRecord(call, result?.tool_status ?? "error", result?.metadata);
  });
}

function executedCallRecord(
  call: StoredToolCall,
  status: "success" | "error",
  rawMetadata: unknown,
): ExecutedCallRecord {
  const metadata = (typeof rawMetadata === "string" ? JSON.parse(rawMetadata) : rawMetadata) as
    | { handoff?: { agent?: string } }
    | undefined;
  return {
    id: call.id,
    name: call.function.name,
    args: safeJson(call.function.arguments),
    status,
    ...(metadata?.handoff?.agent ? { handoffTo: metadata.handoff.agent } : {}),
  };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Whether a tool call's start is worth its own event: it may take a while to answer. */
function announcesStart(entry: CatalogEntry | undefined): boolean {
  if (!entry) return false;
  return (
    entry.kind === "tool" ||
    entry.kind === "subprompt" ||
    (entry.kind === "binding" && entry.tool !== undefined)
  );
}
