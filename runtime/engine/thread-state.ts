// ThreadState (spec Threads §1.2): the one interface code tools and hooks get to a thread. Built on
// demand (only when a code tool or a declared hook runs), so threads without extensions pay nothing.
// Every method runs outside the step's transactions: it opens its own (PGlite has one connection).
import { randomUUID } from "node:crypto";
import type { SqlClient, SqlExecutor } from "@/lib/db/sql-client";
import type { AgentDefinition, PromptDefinition } from "@/lib/standard";
import type {
  ExecutionState as ExecutionStateView,
  InjectMessageInput,
  Message,
  MessageUpdates,
  QueueMessageInput,
  RunCodeOptions,
  RunCodeResult,
  ScheduledEffect,
  Side,
  SubagentRegistryEntry,
  ThreadState,
} from "../extensions/define";
import { declaredHookIds, type HookRunner } from "../extensions/hook-runner";
import { getExtensions } from "../extensions/registry";
import { runSandboxedCode } from "../sandbox/run-code";
import type { DefinitionsCache } from "../store/definitions";
import { cancelEffect, insertEffect, listEffects } from "../store/effect-store";
import { appendEvents } from "../store/event-log";
import {
  deleteThreadFile,
  grepThreadFiles,
  listThreadFiles,
  readThreadFile,
  writeThreadFile,
} from "../store/file-store";
import { deleteMessageWithResults, rewriteMessage } from "../store/message-edits";
import {
  bumpMessageSeq,
  findMessageById,
  insertMessages,
  readMessages,
  toMessageView,
} from "../store/message-store";
import type { StoredMessage } from "../store/messages";
import { queueThreadInput, ThreadTerminatedError } from "../store/queue-input";
import { registryEvent, registryOf, setLinkStatus } from "../store/registry-store";
import { messageEvent } from "../store/thread-events";
import type { ThreadRow } from "../store/thread-row";
import { findThread, lockThread } from "../store/thread-store";
import { tracing } from "../telemetry/tracing";
import { recordEffectScheduled } from "./run-trace";

export interface ThreadStateServices {
  db: SqlClient;
  definitions: DefinitionsCache;
  hooks: HookRunner;
  /** Terminates a thread and its subtree (the thread service's terminate). */
  terminate: (threadId: string) => Promise<void>;
}

/** What a tool or hook asked the running step to do; read by the step runner after its tools. */
export interface ExecutionControl {
  forcedSide: Side | null;
  stopRequested: boolean;
}

export interface ActiveExecution {
  flowId: string;
  promptPath: string[];
  /** The thread's top-level history as of now (it grows during the step). */
  messageHistory: () => Message[];
  abortSignal: AbortSignal;
  control: ExecutionControl;
  context: Record<string, unknown>;
}

export function newExecutionControl(): ExecutionControl {
  return { forcedSide: null, stopRequested: false };
}

/** The thread's state for an extension, or null when the thread does not exist. */
export async function loadThreadState(
  services: ThreadStateServices,
  threadId: string,
  options: {
    execution?: ActiveExecution;
    promptName?: string;
    /** Merged into the metadata of every message this state injects or queues (an effect's id and name). */
    messageMetadata?: Record<string, unknown>;
  } = {},
): Promise<ThreadState | null> {
  const row = await findThread(services.db, threadId);
  if (!row) return null;
  const definitions = await services.definitions.load(row.project_id, row.project_version);
  const agent = definitions?.index.agents.get(row.agent_name)?.definition;
  const promptName = options.promptName ?? agent?.sideA.prompt;
  const prompt = promptName ? definitions?.index.prompts.get(promptName)?.definition : undefined;
  const children = await registryEntries(services.db, threadId);
  return new ThreadStateImpl(
    services,
    row,
    agent,
    prompt,
    children,
    options.execution,
    options.messageMetadata ?? {},
  );
}

async function registryEntries(db: SqlExecutor, threadId: string): Promise<SubagentRegistryEntry[]> {
  return registryOf(db, threadId);
}

class ThreadStateImpl implements ThreadState {
  readonly threadId: string;
  readonly agentId: string;
  readonly userId = null;
  readonly createdAt: number;
  readonly terminated: number | null;
  readonly context: Record<string, unknown>;
  readonly execution: ExecutionStateView | null;

  constructor(
    private readonly services: ThreadStateServices,
    private readonly row: ThreadRow,
    private readonly agent: AgentDefinition | undefined,
    private readonly prompt: PromptDefinition | undefined,
    readonly children: SubagentRegistryEntry[],
    active: ActiveExecution | undefined,
    private readonly messageMetadata: Record<string, unknown> = {},
  ) {
    this.threadId = row.id;
    this.agentId = row.agent_name;
    this.createdAt = row.created_at;
    this.terminated = row.terminated_at;
    this.context = active?.context ?? {};
    this.execution = active ? executionView(row, active) : null;
  }

  private get db() {
    return this.services.db;
  }

  private get hookIds() {
    return declaredHookIds(this.prompt, this.agent);
  }

  async getMessages(options: Parameters<ThreadState["getMessages"]>[0] = {}) {
    const { messages, total } = await readMessages(this.db, this.threadId, {
      includeSilent: options.includeSilent ?? true,
      maxDepth: options.maxDepth ?? 0,
      ...(options.order === "desc" ? {} : { limit: options.limit, offset: options.offset }),
    });
    const ordered =
      options.order === "desc"
        ? messages
            .reverse()
            .slice(options.offset ?? 0, (options.offset ?? 0) + (options.limit ?? messages.length))
        : messages;
    return {
      messages: ordered.map(toMessageView) as Message[],
      total,
      hasMore: (options.offset ?? 0) + ordered.length < total,
    };
  }

  async getMessage(messageId: string): Promise<Message | null> {
    const found = await findMessage(this.db, this.threadId, messageId);
    return found ? (toMessageView(found) as Message) : null;
  }

  async injectMessage(input: InjectMessageInput): Promise<Message> {
    if (typeof input.content !== "string") throw new Error("injectMessage requires string content");
    const draft: Message = {
      id: randomUUID(),
      seq: 0,
      role: input.role,
      side: null,
      content: input.content,
      name: null,
      tool_calls: null,
      tool_call_id: null,
      tool_status: null,
      parent_id: null,
      depth: 0,
      silent: input.silent ?? false,
      metadata: { ...(input.metadata ?? {}), ...this.messageMetadata },
      subagent_id: null,
      attachments: [],
      created_at: 0,
    };
    // The spec: a failing before_create_message hook prevents the message from being created.
    const message =
      (await this.services.hooks.transform(
        "before_create_message",
        this.hookIds,
        this,
        (value: Message) => [value] as [Message],
        draft,
        { propagate: true },
      )) ?? draft;
    const stored = await this.db.transaction(async (tx) => {
      const row = await lockThread(tx, this.threadId);
      if (!row) throw new Error(`Thread ${this.threadId} no longer exists`);
      if (row.terminated_at !== null) throw new ThreadTerminatedError(row.id, row.terminated_at);
      const [inserted] = await insertMessages(tx, row.id, [
        {
          id: message.id || draft.id,
          role: message.role,
          side: null,
          content: message.content,
          silent: message.silent,
          metadata: message.metadata,
        },
      ]);
      await appendEvents(tx, [messageEvent(row, inserted!)]);
      return inserted!;
    });
    const view = toMessageView(stored) as Message;
    await this.services.hooks.notify("after_create_message", this.hookIds, this, view);
    return view;
  }

  async updateMessage(messageId: string, updates: MessageUpdates): Promise<Message> {
    const changes =
      (await this.services.hooks.transform(
        "before_update_message",
        this.hookIds,
        this,
        (value: MessageUpdates) => [messageId, value] as [string, MessageUpdates],
        updates,
      )) ?? updates;
    const stored = await this.db.transaction(async (tx) => {
      const row = await lockThread(tx, this.threadId);
      if (!row) throw new Error(`Thread ${this.threadId} no longer exists`);
      const current = await findMessage(tx, row.id, messageId);
      if (!current) throw new Error(`Message not found: ${messageId}`);
      const next: StoredMessage = {
        ...current,
        ...(changes.content !== undefined ? { content: changes.content } : {}),
        ...(changes.silent !== undefined ? { silent: changes.silent } : {}),
        ...(changes.metadata !== undefined ? { metadata: changes.metadata } : {}),
      };
      await rewriteMessage(tx, row.id, next);
      await bumpMessageSeq(tx, row.id);
      await appendEvents(tx, [messageEvent(row, next)]);
      return next;
    });
    const view = toMessageView(stored) as Message;
    await this.services.hooks.notify("after_update_message", this.hookIds, this, view);
    return view;
  }

  async deleteMessage(messageId: string): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const row = await lockThread(tx, this.threadId);
      if (!row) return false;
      const current = await findMessage(tx, row.id, messageId);
      if (!current) return false;
      // Tool results of the message's calls go with it (spec: cascade-deleted).
      const callIds = (current.tool_calls ?? []).map((call) => call.id);
      await deleteMessageWithResults(tx, row.id, messageId, callIds);
      await bumpMessageSeq(tx, row.id);
      return true;
    });
  }

  async queueMessage(input: QueueMessageInput): Promise<void> {
    await this.db.transaction(async (tx) => {
      const row = await lockThread(tx, this.threadId);
      if (!row) throw new Error(`Thread ${this.threadId} no longer exists`);
      await queueThreadInput(tx, row, {
        role: input.role,
        content: input.content,
        attachments: input.attachments ?? [],
        silent: input.silent ?? false,
        metadata: { ...(input.metadata ?? {}), ...this.messageMetadata },
        fromHuman: false,
        messageId: randomUUID(),
      });
    });
  }

  async env(name: string): Promise<string> {
    const value =
      this.row.env[name] ?? this.row.scoped_env[name] ?? this.agent?.env?.[name] ?? this.prompt?.env?.[name];
    if (value === undefined) throw new Error(`Environment variable not found: ${name}`);
    return value;
  }

  async envType(name: string): Promise<"text" | "secret"> {
    const declared = this.prompt?.variables?.find((variable) => variable.name === name);
    return declared?.type === "text" && name in this.row.env ? "text" : "secret";
  }

  writeFile(path: string, data: string | Uint8Array, mimeType = "text/plain") {
    const bytes = typeof data === "string" ? Buffer.from(data, "utf8") : data;
    return writeThreadFile(this.db, this.threadId, path, bytes, mimeType);
  }

  async readFile(path: string): Promise<Uint8Array | null> {
    return (await readThreadFile(this.db, this.threadId, path))?.data ?? null;
  }

  async statFile(path: string) {
    return (await readThreadFile(this.db, this.threadId, path))?.record ?? null;
  }

  readdirFile(path: string) {
    return listThreadFiles(this.db, this.threadId, path);
  }

  unlinkFile(path: string) {
    return deleteThreadFile(this.db, this.threadId, path);
  }

  grepFiles(pattern: string) {
    return grepThreadFiles(this.db, this.threadId, pattern);
  }

  async getChildThread(referenceId: string): Promise<ThreadState | null> {
    const child = await findThread(this.db, referenceId).catch(() => null);
    if (!child || child.parent_id !== this.threadId) return null;
    return loadThreadState(this.services, child.id);
  }

  async getParentThread(): Promise<ThreadState | null> {
    return this.row.parent_id ? loadThreadState(this.services, this.row.parent_id) : null;
  }

  async notifyParent(content: string): Promise<void> {
    const trimmed = content.trim();
    if (!trimmed) throw new Error("notifyParent requires non-empty content");
    if (!this.row.parent_id) return;
    const parent = await loadThreadState(this.services, this.row.parent_id);
    await parent?.queueMessage({
      role: "user",
      content: trimmed,
      silent: true,
      metadata: { subagent_id: this.threadId },
    });
  }

  /** Sets this thread's status text in its parent's registry (spec §7.10); a no-op without a parent. */
  async setStatus(status: string): Promise<void> {
    const trimmed = status.trim();
    if (!trimmed) throw new Error("setStatus requires non-empty status");
    if (!this.row.parent_id) return;
    const parentId = this.row.parent_id;
    await this.db.transaction(async (tx) => {
      const row = await lockThread(tx, this.threadId);
      if (!row) return;
      await setLinkStatus(tx, row.id, trimmed, Date.now() * 1000);
      await appendEvents(tx, [await registryEvent(tx, { id: parentId, root_id: row.root_id }, [row.id])]);
    });
  }

  terminate(): Promise<void> {
    return this.services.terminate(this.threadId);
  }

  // Effects (spec Effects): rows of scheduled_effects, run by runtime/effects/effect-runner.ts.
  async scheduleEffect(name: string, args: Record<string, unknown> = {}, delayMs = 0): Promise<string> {
    if (typeof name !== "string" || !(await getExtensions()).effects.has(name))
      throw new Error(`Effect not found: ${name}`);
    if (args === null || typeof args !== "object" || Array.isArray(args))
      throw new Error("scheduleEffect args must be an object");
    if (typeof delayMs !== "number" || !Number.isFinite(delayMs) || delayMs < 0)
      throw new Error("scheduleEffect delayMs must be a number of milliseconds, 0 or more");
    const id = randomUUID();
    await insertEffect(this.db, { id, threadId: this.threadId, name, args, delayMs: Math.round(delayMs) });
    // Traces out: an instant span under the thread's run (only while traces are exported).
    if (tracing().enabled)
      await recordEffectScheduled(this.db, {
        id,
        threadId: this.threadId,
        name,
        delayMs: Math.round(delayMs),
      }).catch((error: unknown) => console.error("[tandem] recording an effect's span failed:", error));
    return id;
  }

  async getScheduledEffects(name?: string): Promise<ScheduledEffect[]> {
    const rows = await listEffects(this.db, this.threadId, { name, pending: true });
    return rows.map((row) => ({
      id: row.id,
      name: row.name,
      args: row.args,
      scheduledAt: row.run_at,
      createdAt: row.created_at,
      status: row.status as ScheduledEffect["status"],
      attempts: row.attempts,
    }));
  }

  async removeScheduledEffect(id: string): Promise<boolean> {
    if (typeof id !== "string" || !/^[0-9a-f-]{36}$/i.test(id)) return false;
    return (await cancelEffect(this.db, this.threadId, id)) === "cancelled";
  }

  /** A fresh QuickJS sandbox per call (runtime/sandbox); a user stop of the run interrupts it. */
  runCode(source: string, options?: RunCodeOptions): Promise<RunCodeResult> {
    return runSandboxedCode(source, options, { signal: this.execution?.abortSignal });
  }
}

function executionView(row: ThreadRow, active: ActiveExecution): ExecutionStateView {
  const { control } = active;
  return {
    flowId: active.flowId,
    currentSide: row.execution.currentSide,
    stepCount: row.execution.stepCount,
    sideAStepCount: row.execution.sideASteps,
    sideBStepCount: row.execution.sideBSteps,
    get stopped() {
      return control.stopRequested || active.abortSignal.aborted;
    },
    get messageHistory() {
      return active.messageHistory();
    },
    abortSignal: active.abortSignal,
    promptPath: active.promptPath,
    forceTurn(side: Side) {
      if (side !== "a" && side !== "b") throw new Error(`forceTurn expects "a" or "b", got ${String(side)}`);
      control.forcedSide = side;
    },
    stop() {
      control.stopRequested = true;
    },
  };
}

async function findMessage(
  db: SqlExecutor,
  threadId: string,
  messageId: string,
): Promise<StoredMessage | null> {
  if (!/^[0-9a-f-]{36}$/i.test(messageId)) return null;
  return findMessageById(db, threadId, messageId);
}
