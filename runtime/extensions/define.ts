// The SDK for server-side extension modules: code tools (`defineTool`) and hooks (`defineHook`), with
// the ThreadState surface they receive (spec Threads §1.2, Hooks §1). Extension files live in the
// server's extensions folder (TANDEM_EXTENSIONS_DIR, default ./extensions): `tools/<id>.ts` and
// `hooks/<file>.ts`, default-exporting what these functions return. Definitions only ever name a
// module id; the server never runs code sent by a browser.
//
// This file has no server imports on purpose: extension modules import it directly (the message
// model and FileRecord are type-only imports of the wire contracts in lib/contracts).
import { z } from "zod";
import type { AttachmentRef, MessageView } from "@/lib/contracts/message";
import type { FileRecord } from "@/lib/contracts/thread-files";

export type Side = "a" | "b";

/** The spec's message model, as the API shows it (tool_calls JSON-encoded): lib/contracts/message.ts. */
export type Message = MessageView;
export type { AttachmentRef, FileRecord };

/** A file a tool returns inline; the runtime stores it under /attachments/ in the thread filesystem. */
export interface ToolAttachment {
  name: string;
  mimeType: string;
  /** Base64. */
  data: string;
  width?: number;
  height?: number;
}

export interface ToolResult {
  status: "success" | "error";
  /** Text for the model; any other value is shown as pretty-printed JSON. */
  result?: unknown;
  error?: string;
  stack?: string;
  attachments?: Array<ToolAttachment | AttachmentRef>;
}

export interface ToolCall {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
}

/** A provider-neutral model message, as sent to the model (after context assembly). */
export type LLMMessage =
  | { role: "system"; content: string }
  | {
      role: "user";
      content:
        | string
        | Array<{ type: "text"; text: string } | { type: "image"; mimeType: string; data: string }>;
    }
  | {
      role: "assistant";
      content: string;
      toolCalls?: { id: string; name: string; args: unknown }[];
    }
  | { role: "tool"; toolCallId: string; toolName: string; content: string; isError?: boolean };

export interface SubagentRegistryEntry {
  reference: string;
  name: string;
  title?: string;
  description: string;
  resumable?: boolean;
  blocking?: boolean;
  threadName?: string;
  spawnGroupId?: string;
  createdAt?: number;
  status: string;
  parentCommunication?: "implicit" | "explicit";
}

/** Present while the thread is running (tool calls, hooks, sub-prompts); null at rest. */
export interface ExecutionState {
  readonly flowId: string;
  readonly currentSide: Side;
  readonly stepCount: number;
  readonly sideAStepCount: number;
  readonly sideBStepCount: number;
  readonly stopped: boolean;
  readonly stoppedBy?: Side;
  readonly messageHistory: Message[];
  readonly abortSignal: AbortSignal;
  readonly promptPath: string[];
  /** The next turn goes to this side once the current tool calls are done (dual_ai). */
  forceTurn(side: Side): void;
  /** Stop the run once the current operation is done. */
  stop(): void;
}

export interface GetMessagesOptions {
  limit?: number;
  offset?: number;
  order?: "asc" | "desc";
  includeSilent?: boolean;
  maxDepth?: number;
}

export interface InjectMessageInput {
  role: "user" | "assistant" | "system";
  content: string;
  silent?: boolean;
  metadata?: Record<string, unknown>;
}

export interface QueueMessageInput {
  role: "user" | "assistant";
  content: string;
  attachments?: AttachmentRef[];
  silent?: boolean;
  metadata?: Record<string, unknown>;
}

export interface MessageUpdates {
  content?: string | null;
  silent?: boolean;
  metadata?: Record<string, unknown>;
}

/** What `state.runCode` may use: nothing but what is listed here reaches the sandbox. */
export interface RunCodeOptions {
  /**
   * Bare-specifier modules: `{ math: { add } }` makes `import { add } from "math"` work. Functions
   * are called across the boundary: arguments and return values are copied as plain data (JSON
   * values), and a function that returns a promise is awaited.
   */
  imports?: Record<string, Record<string, unknown>>;
  /** Free identifiers in the sandbox: plain data and functions (bridged like `imports`). */
  globals?: Record<string, unknown>;
  /** Wall-clock limit for the whole call, including awaited host functions. Default 5000. */
  timeoutMs?: number;
  /** Heap limit of the sandbox. Default 64. */
  memoryMb?: number;
}

/** The outcome of `state.runCode`; it never throws for anything the code does. */
export interface RunCodeResult {
  status: "success" | "error" | "timeout";
  /** The module's default export (awaited when it is a promise), copied out as plain data. */
  result?: unknown;
  /** console.log/info/debug lines as written; console.warn/error lines start "[warn] "/"[error] ". */
  logs: string[];
  error?: string;
}

/** The unified interface to a thread for tools and hooks (spec Threads §1.2). */
export interface ThreadState {
  readonly threadId: string;
  readonly agentId: string;
  readonly userId: string | null;
  /** Microseconds since the epoch. */
  readonly createdAt: number;
  readonly children: SubagentRegistryEntry[];
  /** Termination time in microseconds, or null. */
  readonly terminated: number | null;
  /** Per-execution key-value storage (not persisted). */
  readonly context: Record<string, unknown>;
  readonly execution: ExecutionState | null;
  getMessages(
    options?: GetMessagesOptions,
  ): Promise<{ messages: Message[]; total: number; hasMore: boolean }>;
  getMessage(messageId: string): Promise<Message | null>;
  /** Stores a message at once, without starting a run; a throwing before_create_message hook cancels it. */
  injectMessage(input: InjectMessageInput): Promise<Message>;
  updateMessage(messageId: string, updates: MessageUpdates): Promise<Message>;
  deleteMessage(messageId: string): Promise<boolean>;
  /** Durable and ordered: delivered before the next step; an idle thread starts running. */
  queueMessage(input: QueueMessageInput): Promise<void>;
  /** Thread env, then agent env, then prompt env; throws when missing. */
  env(name: string): Promise<string>;
  envType(name: string): Promise<"text" | "secret">;
  writeFile(path: string, data: string | Uint8Array, mimeType?: string): Promise<FileRecord>;
  readFile(path: string): Promise<Uint8Array | null>;
  statFile(path: string): Promise<FileRecord | null>;
  readdirFile(path: string): Promise<FileRecord[]>;
  unlinkFile(path: string): Promise<boolean>;
  grepFiles(pattern: string): Promise<{ path: string; matches: string[]; lineNumbers: number[] }[]>;
  getChildThread(referenceId: string): Promise<ThreadState | null>;
  getParentThread(): Promise<ThreadState | null>;
  /** Queues a silent message to the parent thread (explicit parent communication). */
  notifyParent(content: string): Promise<void>;
  /** Sets this thread's status text in its parent's child registry; a no-op without a parent. */
  setStatus(status: string): Promise<void>;
  /** Terminates this thread and its whole subtree. */
  terminate(): Promise<void>;
  // Effects (spec Effects §2–3): durable, delayed side effects; see the defineEffect block below.
  /** Schedules `extensions/effects/<name>.ts` to run once after `delayMs`; returns its id. */
  scheduleEffect(name: string, args?: Record<string, unknown>, delayMs?: number): Promise<string>;
  /** This thread's effects that have not finished (scheduled or running), soonest first. */
  getScheduledEffects(name?: string): Promise<ScheduledEffect[]>;
  /** Cancels an effect that has not started; false when it is unknown, started or finished. */
  removeScheduledEffect(id: string): Promise<boolean>;
  /**
   * Runs JavaScript or TypeScript (an ES module) in a fresh sandbox with no ambient capability: only
   * `options.imports` and `options.globals` reach it (spec Threads, code execution).
   */
  runCode(source: string, options?: RunCodeOptions): Promise<RunCodeResult>;
}

type Awaitable<T> = T | Promise<T>;

export interface HookSignatures {
  after_thread_created: (state: ThreadState) => Awaitable<void>;
  after_subagent_created: (parentState: ThreadState, childState: ThreadState) => Awaitable<void>;
  after_system_message: (state: ThreadState, systemMessage: string) => Awaitable<string | null | undefined>;
  filter_messages: (state: ThreadState, messages: Message[]) => Awaitable<Message[]>;
  prefilter_llm_history: (state: ThreadState, messages: LLMMessage[]) => Awaitable<LLMMessage[]>;
  before_create_message: (state: ThreadState, message: Message) => Awaitable<Message>;
  after_create_message: (state: ThreadState, message: Message) => Awaitable<void>;
  before_update_message: (
    state: ThreadState,
    messageId: string,
    updates: MessageUpdates,
  ) => Awaitable<MessageUpdates>;
  after_update_message: (state: ThreadState, message: Message) => Awaitable<void>;
  before_store_tool_result: (
    state: ThreadState,
    toolCall: ToolCall,
    toolResult: ToolResult,
  ) => Awaitable<ToolResult>;
  after_tool_call_success: (
    state: ThreadState,
    toolCall: ToolCall,
    toolResult: ToolResult,
  ) => Awaitable<ToolResult | null>;
  after_tool_call_failure: (
    state: ThreadState,
    toolCall: ToolCall,
    toolResult: ToolResult,
  ) => Awaitable<ToolResult | null>;
}

export type HookName = keyof HookSignatures;

export const HOOK_NAMES = [
  "after_thread_created",
  "after_subagent_created",
  "after_system_message",
  "filter_messages",
  "prefilter_llm_history",
  "before_create_message",
  "after_create_message",
  "before_update_message",
  "after_update_message",
  "before_store_tool_result",
  "after_tool_call_success",
  "after_tool_call_failure",
] as const satisfies readonly HookName[];

export interface HookDefinition<K extends HookName = HookName> {
  hook: K;
  /** snake_case, unique across the server's hooks; prompts and agents list it in `hooks`. */
  id: string;
  execute: HookSignatures[K];
}

export function defineHook<K extends HookName>(options: HookDefinition<K>): HookDefinition<K> {
  return { hook: options.hook, id: options.id, execute: options.execute };
}

// biome-ignore lint/suspicious/noExplicitAny: any zod object schema
export type ToolArgs = z.ZodObject<any>;

export interface CodeToolDefinition<Args extends ToolArgs | null = ToolArgs | null> {
  description: string;
  args: Args;
  execute: Args extends ToolArgs
    ? (state: ThreadState, args: z.infer<Args>) => Promise<ToolResult>
    : (state: ThreadState) => Promise<ToolResult>;
  /** The JSON Schema of `args` offered to the model, derived once from the zod schema. */
  inputSchema: Record<string, unknown>;
}

export function defineTool<Args extends ToolArgs | null = null>(options: {
  description: string;
  args?: Args;
  execute: CodeToolDefinition<Args>["execute"];
}): CodeToolDefinition<Args> {
  const args = (options.args ?? null) as Args;
  const inputSchema = args
    ? (z.toJSONSchema(args, { io: "input", unrepresentable: "any" }) as Record<string, unknown>)
    : { type: "object", properties: {} };
  delete inputSchema.$schema;
  return { description: options.description, args, execute: options.execute, inputSchema };
}

// ── Thread endpoints (spec Threads §endpoints) ───────────────────────────────────────────────────
// `threads/<path>.ts` default-exporting `defineThreadEndpoint(handler)`: an HTTP API on one thread,
// mounted at /api/threads/:id/endpoints/<path> (lib/standard/thread-endpoint-routes.ts has the file
// naming rules). The runtime looks the thread up and hands over its ThreadState (`execution` null).

/** Path parameters: `[name]` segments by name, the `[*]` catch-all as `"*"` (`/`-joined, maybe ""). */
export type ThreadEndpointParams = Record<string, string>;

export type ThreadEndpointHandler = (
  req: Request,
  state: ThreadState,
  params: ThreadEndpointParams,
) => Response | Promise<Response>;

export interface ThreadEndpointDefinition {
  kind: "thread_endpoint";
  execute: ThreadEndpointHandler;
}

export function defineThreadEndpoint(handler: ThreadEndpointHandler): ThreadEndpointDefinition {
  return { kind: "thread_endpoint", execute: handler };
}

// ── Effects (spec Effects) ───────────────────────────────────────────────────────────────────────
// `effects/<name>.ts` default-exporting `defineEffect(...)`: run later by runtime/effects/.

/** A scheduled effect as ThreadState reports it (times in microseconds since the epoch). */
export interface ScheduledEffect {
  id: string;
  name: string;
  args: Record<string, unknown>;
  /** When it is due to run. */
  scheduledAt: number;
  createdAt: number;
  status: "scheduled" | "running";
  /** Runs started so far (a retry after a failure counts again). */
  attempts: number;
}

export interface EffectDefinition<Args extends ToolArgs | null = ToolArgs | null> {
  readonly kind: "effect";
  description: string;
  args: Args;
  execute: Args extends ToolArgs
    ? (state: ThreadState, args: z.infer<Args>) => Promise<void> | void
    : (state: ThreadState, args: Record<string, unknown>) => Promise<void> | void;
}

/**
 * The spec's forms: `defineEffect(description, args, handler)` and `defineEffect(description,
 * handler)`; also `defineEffect({ description, args?, execute })` like defineTool. The handler gets
 * the thread's ThreadState (`execution` is null: an effect runs outside any turn) and the arguments
 * given to `scheduleEffect`, validated by `args` when there is one.
 */
export function defineEffect<Args extends ToolArgs>(
  description: string,
  args: Args,
  execute: EffectDefinition<Args>["execute"],
): EffectDefinition<Args>;
export function defineEffect(
  description: string,
  execute: EffectDefinition<null>["execute"],
): EffectDefinition<null>;
export function defineEffect<Args extends ToolArgs | null = null>(options: {
  description: string;
  args?: Args;
  execute: EffectDefinition<Args>["execute"];
}): EffectDefinition<Args>;
export function defineEffect(
  first: string | { description: string; args?: ToolArgs | null; execute: EffectDefinition["execute"] },
  second?: ToolArgs | EffectDefinition["execute"],
  third?: EffectDefinition["execute"],
): EffectDefinition {
  if (typeof first === "object")
    return {
      kind: "effect",
      description: first.description,
      args: first.args ?? null,
      execute: first.execute,
    };
  if (typeof second === "function")
    return { kind: "effect", description: first, args: null, execute: second };
  return {
    kind: "effect",
    description: first,
    args: second ?? null,
    execute: third as EffectDefinition["execute"],
  };
}

// ─── Eval checks ───────────────────────────────────────────────────────────────────────────────────
// `evals/<name>.ts` default-exporting `defineEvalCheck(fn)`: a suite's `{ type: "code", module:
// "<name>" }` assertion runs it on the case's outcome (docs/evals.md "Code checks").

/** What a code check is shown of a case's conversation. */
export interface EvalCheckInput {
  /** The root thread of the case's conversation. */
  thread_id: string;
  case_name: string;
  final_reply: string;
  transcript: string;
  tool_calls: { name: string; args: unknown; thread_id: string }[];
  subagents: string[];
  status: string;
  turns: number;
  tokens: number;
  cost_usd: number;
  latency_ms: number;
}

/** A check's verdict: a boolean, or `{ passed, score? (0..1), reason? }`. */
export type EvalCheckVerdict = boolean | { passed: boolean; score?: number; reason?: string };

export interface EvalCheckDefinition {
  kind: "eval_check";
  check: (input: EvalCheckInput) => EvalCheckVerdict | Promise<EvalCheckVerdict>;
}

export function defineEvalCheck(check: EvalCheckDefinition["check"]): EvalCheckDefinition {
  return { kind: "eval_check", check };
}
