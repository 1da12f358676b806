// Threads through the API: create (pinned to the project's current version), post messages (into
// the durable inbox; the answer comes after the commit), read, list, stop and terminate.
import "server-only";
import { randomUUID } from "node:crypto";
import type { ThreadListFilter } from "@/lib/contracts/thread-list-query";
import type { Database } from "@/lib/db/database";
import type { SqlExecutor } from "@/lib/db/sql-client";
import type { AgentDefinition } from "@/lib/standard";
import type { ParkedHere } from "../engine/parked-here";
import { endRunIfSettled, endRunsOfStoppedThreads } from "../engine/run-trace";
import { inputSide, isHumanChatAgent, runStartedBy, runStartOf } from "../engine/step/drain-input";
import { ConflictError, InvalidInputError, NotFoundError } from "../errors";
import { crashPoint } from "../faults";
import type { LocalTake } from "../scheduler/scheduler";
import { approvalEvent, cancelPendingApprovals } from "../store/approval-store";
import { type AttachmentInput, storeAttachments } from "../store/attachments";
import type { DefinitionsCache, LoadedDefinitions } from "../store/definitions";
import { appendEvents } from "../store/event-log";
import {
  enqueueDeferred,
  hasPendingInput,
  type InboxMessagePayload,
  recordConsumedDeferred,
} from "../store/inbox";
import { insertMessagesAfter, readMessageList, toMessageView } from "../store/message-store";
import { MessageTotals } from "../store/message-totals";
import { initialExecutionState, type StoredMessage } from "../store/messages";
import {
  commitReadingThreadBack,
  type LazyTransaction,
  threadCreationTransaction,
} from "../store/one-statement-commits";
import { isProjectVersionChangedError, ProjectVersions } from "../store/project-versions";
import { queueThreadInput, ThreadTerminatedError } from "../store/queue-input";
import { registryOf } from "../store/registry-store";
import { messageEvent, threadEvent } from "../store/thread-events";
import {
  createRunningThread,
  createThread,
  postRunningInput,
  queueInputAndWake,
  TransitionRefusedError,
  terminate,
} from "../store/thread-lifecycle";
import { forkSourceName, subtreeUsage } from "../store/thread-reads";
import { nowMicroseconds, type ThreadRow, type ThreadView, toThreadView } from "../store/thread-row";
import { wakeThread } from "../store/thread-scheduling";
import {
  findThread,
  lockThread,
  type NewThread,
  notifyAbort,
  subtreeIdsDeepestFirst,
  type ThreadForStep,
} from "../store/thread-store";
import { deferRunTraceInsert, findRunTrace, type RunTraceStart, startRunTrace } from "../store/thread-traces";
import { deferWorkNotification } from "../store/thread-wake";
import { reportToParent } from "../subagents/report-to-parent";
import {
  parseTraceparent,
  randomSpanId,
  randomTraceId,
  type SpanParent,
  tracing,
} from "../telemetry/tracing";
import { isUuid } from "./project-service";
import { runnableVersion } from "./runnable-version";
import { type ListedThread, listThreads, threadLogs, threadTree } from "./thread-queries";
import { STOPPED_BY_USER, stopSubtree } from "./thread-stop";

export type { ListedThread };

export { ThreadTerminatedError };

/** The after_thread_created hook point: whether the agent declares one, and running it. */
export interface AfterThreadCreated {
  declared(agent: AgentDefinition, definitions: LoadedDefinitions): Promise<boolean>;
  run(threadId: string): Promise<void>;
}

export { STOPPED_BY_USER };

/** A creation goes again after its project version turned out stale at most this many times in all. */
const CREATE_ATTEMPTS = 3;

export interface CreateThreadInput {
  projectId: string;
  agentName: string;
  message?: string;
  initialMessages?: { role: "user" | "assistant"; content: string; silent?: boolean }[];
  /** Attachments of `message` (required with them), stored in the new thread's filesystem. */
  attachments?: AttachmentInput[];
  env?: Record<string, string>;
  name?: string;
  /** The caller's W3C `traceparent` (POST /api/threads): the run joins the caller's trace. */
  traceparent?: string | null;
}

/** What `ThreadService.create` answers. */
export interface CreatedThread {
  threadId: string;
  agent_id: string;
  thread: ThreadView;
  trace_id: string | null;
}

/** One message a new thread is created with (`first`: the request's `message`, which carries the attachments). */
interface CreationInput {
  role: "user" | "assistant";
  content: string;
  silent?: boolean;
  first?: boolean;
}

/** A thread creation as planned (`ThreadService.planCreation`) before it is written. */
interface ThreadCreation {
  /** The creation's transaction: one statement when it can be (`threadCreationTransaction`). */
  tx: LazyTransaction;
  thread: NewThread;
  agent: AgentDefinition;
  inputs: CreationInput[];
  attachments: AttachmentInput[];
  /** Inserted runnable: it has input and no after_thread_created hook runs first. */
  startsNow: boolean;
  /** Room in this process's scheduler: the thread is leased to it as it is inserted. */
  take: LocalTake | null;
  /** Its one message is stored with it and its run started (`insertWithFirstMessage`). */
  storedWithIt: boolean;
  runTrace: RunTraceStart | null;
}

/** What writing a creation left: the row, the message stored with it, the row read back for its first step. */
interface WrittenCreation {
  thread: ThreadRow;
  storedFirst: StoredMessage | undefined;
  read: ThreadForStep | null;
}

export class ThreadService {
  constructor(
    private readonly database: Database,
    private readonly definitions: DefinitionsCache,
    private readonly abortLocally: (threadId: string) => void = () => {},
    private readonly afterThreadCreated?: AfterThreadCreated,
    /**
     * Told of every thread created here, with the messages it was stored with (none when its input
     * waits in the inbox): its first run's cache.
     */
    private readonly createdWith: (threadId: string, messages: StoredMessage[]) => void = () => {},
    /** Room in this process's scheduler for a thread made runnable here (`Scheduler.takeLocally`). */
    private readonly takeLocally: () => LocalTake | null = () => null,
    /** What this process knows of threads that parked here (a post to one may start its run at once). */
    private readonly parked: ParkedHere | null = null,
  ) {}

  /** The version new threads of each project are pinned to, as last read here. */
  private readonly projectVersions = new ProjectVersions();
  /** The message lists' totals this process counted, so a long thread's list is counted from there. */
  private readonly messageTotals = new MessageTotals();

  private get sql() {
    return this.database.sql;
  }

  async create(input: CreateThreadInput): Promise<CreatedThread> {
    const attachments = input.attachments ?? [];
    if (attachments.length > 0 && input.message === undefined) {
      throw new InvalidInputError(
        "Attachments go with the first message: send `message` together with `attachments`.",
        { field: "attachments" },
        "attachments_need_message",
      );
    }
    if (!isUuid(input.projectId)) throw new NotFoundError("Project", input.projectId);
    // The version this process last read, when it has one: the creation checks it is still current
    // in its own statement (one round trip in all). When it is not (a publish, here or in another
    // process, or a deleted project), or when the remembered version may be why the creation failed
    // (an agent that only a newer version has), the version is read afresh and the creation goes again.
    let version = this.projectVersions.remembered(input.projectId);
    for (let attempt = 1; ; attempt += 1) {
      const remembered = version !== undefined;
      if (version === undefined) {
        const current = await this.projectVersions.read(this.sql, input.projectId);
        if (current === null) throw new NotFoundError("Project", input.projectId);
        version = current;
      }
      try {
        return await this.createAt(input, version);
      } catch (error) {
        const stale = isProjectVersionChangedError(error);
        if (!stale && !remembered) throw error;
        if (attempt >= CREATE_ATTEMPTS) {
          if (!stale) throw error;
          throw new ConflictError(
            `The project was published again while this thread was being created, ${CREATE_ATTEMPTS} times in a row; nothing was created. Send the request again.`,
            { field: "project_id", attempts: CREATE_ATTEMPTS },
            "project_version_changed",
          );
        }
        this.projectVersions.forget(input.projectId);
        const before = version;
        version = undefined;
        if (!stale) {
          // Not the check: only worth going again if the version really moved on.
          const current = await this.projectVersions.read(this.sql, input.projectId);
          if (current === before) throw error;
          if (current === null) throw new NotFoundError("Project", input.projectId);
          version = current;
        }
      }
    }
  }

  /** Creates the thread pinned to `version`, checking in the same statement that it is current. */
  private async createAt(input: CreateThreadInput, version: number): Promise<CreatedThread> {
    const { definitions, agent } = await runnableVersion(
      this.definitions,
      input.projectId,
      version,
      input.agentName,
    );
    const inputs: CreationInput[] = [
      ...(input.initialMessages ?? []),
      ...(input.message !== undefined
        ? [{ role: "user" as const, content: input.message, first: true }]
        : []),
    ];
    const id = randomUUID();
    // An after_thread_created hook runs before execution: the thread is not runnable until it ran.
    const deferred = (await this.afterThreadCreated?.declared(agent, definitions)) ?? false;
    const creation = this.planCreation({ input, version, agent, inputs, id, deferred });
    const { thread, storedFirst, read } = await this.writeCreation(creation);
    // Leased to this process: it runs here, from the row read back (or read by its first step).
    creation.take?.run({ id, runStartedAt: null, read, ...(storedFirst ? { announce: [storedFirst] } : {}) });
    if (deferred) await this.runAfterThreadCreated(id);
    return {
      threadId: id,
      agent_id: agent.name,
      thread: toThreadView(thread),
      trace_id: creation.runTrace?.traceId ?? null,
    };
  }

  /** How a new thread goes out: its row, its transaction, whether it starts here and how. */
  private planCreation(plan: {
    input: CreateThreadInput;
    version: number;
    agent: AgentDefinition;
    inputs: CreationInput[];
    id: string;
    deferred: boolean;
  }): ThreadCreation {
    const { input, version, agent, inputs, id, deferred } = plan;
    const attachments = input.attachments ?? [];
    // Input and no hook to run first: the thread is inserted runnable, its inputs and the wake-up go
    // out with it.
    const startsNow = inputs.length > 0 && !deferred;
    // Nothing is read back: the version check, the thread, its input, the wake-up and the event go
    // out as one statement (LazyTransaction), which may share a group commit with other threads'
    // commits. Several inputs (one table written twice) or attachments (read) make it an ordinary
    // transaction, with the same outcome.
    const tx = threadCreationTransaction(this.sql, {
      threadId: id,
      projectId: input.projectId,
      projectVersion: version,
    });
    // Room here: the thread is leased to this process as it is inserted (no NOTIFY) and its first
    // step starts right after the commit, from the row read back in the same round trip.
    const take = startsNow ? this.takeLocally() : null;
    const thread: NewThread = {
      id,
      projectId: input.projectId,
      projectVersion: version,
      agentName: agent.name,
      parentId: null,
      rootId: id,
      depth: 0,
      name: input.name ?? null,
      execution: initialExecutionState(),
      env: input.env ?? {},
    };
    // One message without attachments, and this process runs the thread: the message is stored with
    // it and its run started, as a drain would (docs/runtime.md "A thread created with its first
    // message stored"), so its first step goes straight to the model.
    const storedWithIt = take !== null && inputs.length === 1 && attachments.length === 0;
    // Traces out: the run's trace, stored with the thread (runtime/store/thread-traces.ts).
    const runTrace = tracing().enabled ? newRunTrace(parseTraceparent(input.traceparent)) : null;
    return { tx, thread, agent, inputs, attachments, startsNow, take, storedWithIt, runTrace };
  }

  /**
   * Writes the creation and commits it (the first step's row read back when this process runs the
   * thread); on a failure nothing is written and the room taken here is given back.
   */
  private async writeCreation(creation: ThreadCreation): Promise<WrittenCreation> {
    const { tx, thread, startsNow, take, storedWithIt, runTrace } = creation;
    try {
      const written =
        take && storedWithIt
          ? await this.insertWithFirstMessage(creation, take)
          : await this.insertWithQueuedInput(creation);
      if (runTrace) await deferRunTraceInsert(tx, thread.id, runTrace);
      if (startsNow && !take) await deferWorkNotification(tx, thread.id);
      // The row's version for the first step: returned by the insert when the creation was one
      // statement and its message was stored with it (createRunningThread), else read back.
      const read = await commitReadingThreadBack(tx, thread.id, {
        read: take !== null,
        fromReturning: storedWithIt,
      });
      return { ...written, read };
    } catch (error) {
      take?.cancel();
      await tx.rollback(error);
      throw error;
    }
  }

  /** The thread inserted running and leased to this process, its one message stored with it. */
  private async insertWithFirstMessage(
    creation: ThreadCreation,
    take: LocalTake,
  ): Promise<Omit<WrittenCreation, "read">> {
    const { tx, thread: newThread, agent } = creation;
    const id = newThread.id;
    const payload = await inboxPayload(creation, creation.inputs[0]!);
    const isHumanChat = isHumanChatAgent(agent.type);
    const execution = runStartedBy(newThread.execution, isHumanChat, payload.role, payload.fromHuman, 1);
    const thread = await createRunningThread(tx, { ...newThread, execution, messageSeq: 1 }, take);
    const [first] = await insertMessagesAfter(tx, id, 0, [
      {
        id: payload.messageId,
        role: payload.role,
        side: inputSide(payload.role, isHumanChat),
        content: payload.content,
        silent: payload.silent,
        metadata: payload.metadata,
        attachments: payload.attachments,
      },
    ]);
    await recordConsumedDeferred(tx, id, payload, first!.created_at);
    // Before the commit, after which the first step starts: it finds its history here.
    this.createdWith(id, [first!]);
    await appendEvents(tx, [threadEvent(thread), messageEvent(thread, first!)]);
    // The message stored with the thread, which its first step announces to after_create_message.
    return { thread, storedFirst: first };
  }

  /** The thread inserted with its inputs queued in its inbox (none, or more to drain). */
  private async insertWithQueuedInput(creation: ThreadCreation): Promise<Omit<WrittenCreation, "read">> {
    const { tx, thread: newThread, inputs, startsNow, take } = creation;
    const id = newThread.id;
    // Before the commit, whose NOTIFY may start the thread's first run at once: that run then
    // finds the (empty) history here. A failed creation leaves an entry nobody takes, soon dropped.
    this.createdWith(id, []);
    const thread = await createThread(tx, newThread, inputs.length > 0, startsNow, take ?? undefined);
    for (const message of inputs) await enqueueDeferred(tx, id, await inboxPayload(creation, message));
    await appendEvents(tx, [threadEvent(thread)]);
    return { thread, storedFirst: undefined };
  }

  /** Runs the hook (its failures are logged by the hook runner), then lets queued input run. */
  private async runAfterThreadCreated(id: string): Promise<void> {
    try {
      await this.afterThreadCreated?.run(id);
    } finally {
      await this.sql.transaction(async (tx) => {
        const row = await lockThread(tx, id);
        if (!row || row.terminated_at !== null) return;
        if (await hasPendingInput(tx, id)) await wakeThread(tx, id);
      });
    }
  }

  /**
   * The thread's latest trace in the team's tracing tool: `template` (TANDEM_TRACE_URL_TEMPLATE)
   * with `{trace_id}` replaced; null without a template or a trace (traces not exported).
   */
  async traceUrl(threadId: string, template: string | undefined): Promise<string | null> {
    if (!template?.includes("{trace_id}") || !isUuid(threadId)) return null;
    const run = await findRunTrace(this.sql, threadId);
    return run ? template.replaceAll("{trace_id}", run.traceId) : null;
  }

  /** The thread with its child registry and the usage of its whole subtree. */
  async get(id: string): Promise<ThreadView & { subtree_usage: ThreadView["usage"] }> {
    const row = await this.require(id);
    const children = await registryOf(this.sql, id);
    const usage = await subtreeUsage(this.sql, id);
    return {
      ...toThreadView(row, children),
      forked_from: await forkOrigin(this.sql, row),
      subtree_usage: usage,
    };
  }

  /**
   * Threads newest first, filtered (API.md plus the filters of docs/runtime.md); see `listThreads`.
   */
  list(filter: ThreadListFilter): Promise<{ threads: ListedThread[]; total: number; hasMore: boolean }> {
    return listThreads(this.sql, filter);
  }

  /** Top-level messages by default; `maxDepth` includes sub-prompt messages down to that depth. */
  async messages(
    id: string,
    options: { includeSilent: boolean; limit?: number; offset?: number; maxDepth?: number },
  ) {
    const list = isUuid(id)
      ? await readMessageList(
          this.sql,
          id,
          { ...options, maxDepth: options.maxDepth ?? 0 },
          this.messageTotals,
        )
      : null;
    if (!list) throw new NotFoundError("Thread", id);
    const { messages, total } = list;
    return {
      messages: messages.map(toMessageView),
      total,
      hasMore: (options.offset ?? 0) + messages.length < total,
    };
  }

  async postMessage(
    id: string,
    input: {
      content: string;
      silent?: boolean;
      role?: "user" | "assistant";
      /** Uploads and paths of files already in the thread's filesystem (checked in the transaction). */
      attachments?: AttachmentInput[];
      /** The caller's W3C `traceparent`: a new run of the thread joins the caller's trace. */
      traceparent?: string | null;
    },
  ) {
    const attachments = input.attachments ?? [];
    if (input.content.trim() === "" && attachments.length === 0)
      throw new InvalidInputError("Message content or attachments are required.", { field: "content" });
    const trace_id = tracing().enabled ? await this.traceForInput(id, input.traceparent) : null;
    const messageId = randomUUID();
    const role = input.role ?? "user";
    const payload = {
      role,
      content: input.content,
      silent: input.silent ?? false,
      metadata: {},
      fromHuman: role === "user",
      messageId,
      external: true,
    };
    // Without attachments (most messages): one statement, sent on its own (no BEGIN, no COMMIT),
    // locks, queues, wakes and appends the thread's event. A burst of messages then holds each pool
    // connection for one round trip.
    if (attachments.length === 0 && isUuid(id)) {
      const queueId = await this.postInOneStatement(id, { ...payload, attachments: [] });
      return { status: "queued" as const, queueId, messageId, trace_id };
    }
    return this.sql.transaction(async (tx) => {
      const row = await this.lockExisting(tx, id);
      if (row.terminated_at !== null) throw new ThreadTerminatedError(id, row.terminated_at);
      const item = await queueThreadInput(tx, row, {
        ...payload,
        attachments: await storeAttachments(tx, id, attachments),
      });
      return { status: "queued" as const, queueId: item?.id ?? null, messageId, trace_id };
    });
  }

  /**
   * A root thread the caller just created idle in this process, with no message (the eval runner's
   * case threads): the first message posted to it then stores itself and starts the run in one
   * statement, as for a thread that parked here, instead of queueing for a drain.
   */
  createdIdleHere(
    threadId: string,
    as: { projectId: string; projectVersion: number; agentName: string },
  ): void {
    this.parked?.createdIdle(threadId, as);
  }

  /**
   * `postMessage` without attachments, in one statement (see there); a thread nobody holds is leased
   * to this process by that statement and runs here at once. The id of the message's inbox item.
   */
  private async postInOneStatement(id: string, payload: InboxMessagePayload): Promise<string> {
    const take = this.takeLocally();
    const input = { id: randomUUID(), payload, createdAt: nowMicroseconds() };
    let queued: Awaited<ReturnType<typeof queueInputAndWake>>;
    try {
      // A thread that parked here, with nothing else to do first: the message is stored and its run
      // started in the post's statement, as its drain would have (docs/runtime.md "A message
      // posted to a thread parked here"), and its first step goes straight to the model.
      const posted = take ? await this.postRunning(id, input, take) : null;
      if (posted) {
        crashPoint("after_post_commit", posted.agentName);
        this.parked?.storedWith(id, posted.message);
        take!.run({ id, runStartedAt: posted.runStartedAt, read: posted.read, announce: [posted.message] });
        return input.id;
      }
      queued = await queueInputAndWake(this.sql, id, input, take ?? undefined);
    } catch (error) {
      take?.cancel();
      throw error;
    }
    if (queued.kind === "queued" && queued.taken) take?.run({ id, ...queued.taken });
    else take?.cancel();
    if (queued.kind === "missing") throw new NotFoundError("Thread", id);
    if (queued.kind === "terminated") throw new ThreadTerminatedError(id, queued.terminatedAt);
    return queued.item.id;
  }

  /**
   * The trace of the run a message to the thread belongs to (traces exported only): the run going
   * on, or a new one — in the caller's trace when the request carried a `traceparent`. A run that
   * ended (the thread settled) but whose span no process wrote yet is written first. A failure
   * here costs the spans (and a thread that does not exist answers 404 below), never the message.
   */
  private async traceForInput(id: string, traceparent: string | null | undefined): Promise<string | null> {
    if (!isUuid(id)) return null;
    try {
      const current = await findRunTrace(this.sql, id);
      if (current && !current.ended) await endRunIfSettled(this.sql, id, current);
      const fresh = newRunTrace(null);
      const run = await startRunTrace(this.sql, id, parseTraceparent(traceparent), fresh);
      return run.traceId;
    } catch (error) {
      if (!isForeignKeyViolation(error)) console.error("[tandem] starting a run's trace failed:", error);
      return null;
    }
  }

  /**
   * `postRunningInput` for a thread that parked in this process, its run started as `drainInput`
   * would start it; null when this process does not know how the thread parked, or when the thread
   * is no longer as it parked (nothing was written then).
   */
  private async postRunning(
    id: string,
    input: { id: string; payload: InboxMessagePayload; createdAt: number },
    take: LocalTake,
  ) {
    const parkedAs = this.parked?.known(id);
    if (!parkedAs) return null;
    // Definitions that cannot be read here leave the message to the inbox path (its drain reads them).
    const definitions = await this.definitions
      .load(parkedAs.projectId, parkedAs.projectVersion)
      .catch(() => null);
    const agent = definitions?.index.agents.get(parkedAs.agentName)?.definition;
    if (!agent) return null;
    const isHumanChat = isHumanChatAgent(agent.type);
    const { role, fromHuman } = input.payload;
    const posted = await postRunningInput(this.sql, {
      threadId: id,
      input,
      parkedAs,
      start: { messageSide: inputSide(role, isHumanChat), ...runStartOf(isHumanChat, role, fromHuman) },
      take,
    });
    // Refused: the thread changed since it parked here; later posts go straight to the inbox path.
    if (!posted) this.parked?.changed(id);
    return posted && { ...posted, agentName: parkedAs.agentName };
  }

  /**
   * User stop of the thread and of the work below it (runtime/services/thread-stop.ts): abort the
   * runs in flight, answer their open tool calls, keep every thread usable.
   */
  async stop(
    id: string,
  ): Promise<{ status: "stopped"; message: string; thread: ThreadView; stopped: string[] }> {
    if (!isUuid(id)) throw new NotFoundError("Thread", id);
    const result = await this.sql.transaction((tx) => stopSubtree(tx, id));
    for (const member of result.stopped) this.abortLocally(member);
    if (tracing().enabled) await this.endStoppedRuns(result.stopped);
    return {
      status: "stopped",
      message: "Thread execution stopped",
      thread: toThreadView(result.thread),
      stopped: result.stopped,
    };
  }

  /**
   * Spec terminate(): permanent; aborts in-flight work and rejects new work, for the whole subtree.
   * Rows are locked deepest first (a child before its parent, as a child's report does), children
   * spawned meanwhile are picked up, and the parent of the terminated thread gets its report.
   */
  async terminate(id: string): Promise<{ status: "terminated"; terminated: string[]; thread: ThreadView }> {
    await this.require(id);
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await this.terminateOnce(id);
      } catch (error) {
        // Two trees changing at once can deadlock in Postgres; it aborts one of them: try again.
        if ((error as { code?: string }).code !== "40P01" || attempt >= 5) throw error;
      }
    }
  }

  private async terminateOnce(id: string) {
    const result = await this.sql.transaction(async (tx) => {
      const now = Date.now() * 1000;
      const terminated: ThreadRow[] = [];
      const seen = new Set<string>();
      let root: ThreadRow | null = null;
      for (;;) {
        const fresh = (await subtreeIdsDeepestFirst(tx, id)).filter((member) => !seen.has(member));
        if (fresh.length === 0) break;
        for (const member of fresh) {
          seen.add(member);
          const row = await lockThread(tx, member);
          if (!row) continue;
          if (row.terminated_at !== null) {
            if (member === id) root = row;
            continue;
          }
          const updated = await terminate(tx, member, now, { stopReason: "Terminated" });
          if (!updated) throw new TransitionRefusedError("terminate", member, row.status);
          terminated.push(updated);
          if (member === id) root = updated;
        }
      }
      // Deepest first; the terminated thread's own parent (outside the subtree) is locked last.
      const events = terminated.map((row) => threadEvent(row));
      // Approvals they still waited for can no longer run anything (docs/runtime.md "Approvals").
      const cancelled = await cancelPendingApprovals(
        tx,
        terminated.map((row) => row.id),
      );
      events.push(...cancelled.map(approvalEvent));
      for (const row of terminated) {
        const report = await reportToParent(tx, row, { kind: "terminated" }, { wake: "in_transaction" });
        events.push(...report.events);
      }
      await appendEvents(tx, events);
      await notifyAbort(
        tx,
        terminated.map((row) => row.id),
      );
      return { terminated: terminated.map((row) => row.id), root: root! };
    });
    for (const member of result.terminated) this.abortLocally(member);
    if (tracing().enabled) await this.endStoppedRuns(result.terminated);
    return {
      status: "terminated" as const,
      terminated: result.terminated,
      thread: toThreadView(result.root),
    };
  }

  /** Traces out: the `invoke_agent` spans of a stopped or terminated tree's runs (a failure costs spans only). */
  private async endStoppedRuns(threadIds: readonly string[]): Promise<void> {
    await endRunsOfStoppedThreads(this.sql, threadIds).catch((error: unknown) =>
      console.error("[tandem] ending stopped threads' traces failed:", error),
    );
  }

  async logs(id: string) {
    await this.require(id);
    return threadLogs(this.sql, id);
  }

  /** The thread hierarchy under `id`, one query, with each node's own usage and its subtree's. */
  async tree(id: string) {
    return threadTree(this.sql, await this.require(id));
  }

  /** The registry of child threads (spec §7.11). */
  async children(id: string) {
    await this.require(id);
    return registryOf(this.sql, id);
  }

  async require(id: string): Promise<ThreadRow> {
    const row = isUuid(id) ? await findThread(this.sql, id) : null;
    if (!row) throw new NotFoundError("Thread", id);
    return row;
  }

  private async lockExisting(tx: SqlExecutor, id: string): Promise<ThreadRow> {
    const row = isUuid(id) ? await lockThread(tx, id) : null;
    if (!row) throw new NotFoundError("Thread", id);
    return row;
  }
}

/**
 * Where a fork copy comes from, for the thread page's "Forked from <name> at message #n": the source's
 * name (or agent) and the position of the message among its visible top-level messages (what its
 * transcript lists), when the source still exists.
 */
async function forkOrigin(sql: SqlExecutor, row: ThreadRow): Promise<ThreadView["forked_from"]> {
  const link = toThreadView(row).forked_from ?? null;
  if (!link) return null;
  const source = await forkSourceName(sql, { threadId: link.thread_id, messageId: link.message_id });
  if (!source) return link;
  const number = source.messageNumber;
  return { ...link, thread_name: source.name, message_number: number && number > 0 ? number : null };
}

/** `message` as its inbox item carries it; the first message's attachments are stored in the creation's transaction. */
async function inboxPayload(creation: ThreadCreation, message: CreationInput): Promise<InboxMessagePayload> {
  return {
    role: message.role,
    content: message.content,
    attachments: message.first
      ? await storeAttachments(creation.tx, creation.thread.id, creation.attachments)
      : [],
    silent: message.silent ?? false,
    metadata: {},
    fromHuman: message.role === "user",
    messageId: randomUUID(),
    external: true,
  };
}

/** A new run's trace: in the caller's trace under its span, else a new trace. */
function newRunTrace(caller: SpanParent | null): RunTraceStart {
  return {
    traceId: caller?.traceId ?? randomTraceId(),
    parentSpanId: caller?.spanId ?? null,
    spanId: randomSpanId(),
    startedAt: Date.now(),
  };
}

function isForeignKeyViolation(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { code?: unknown }).code === "23503";
}
