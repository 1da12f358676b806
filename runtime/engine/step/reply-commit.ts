// The model's reply committed: the assistant message, its model-call log, usage and step counters
// in one transaction. A reply without tool calls is decided there too; a reply whose calls are all
// session bindings is committed with their results (one commit); other calls go back to the step
// runner, which runs them (tool-calls).
import { randomUUID } from "node:crypto";
import type { SqlExecutor } from "@/lib/db/sql-client";
import { crashPoint } from "../../faults";
import type { ModelCallRequest, ModelCallResult, ModelTelemetry } from "../../models/types";
import type { NewEvent } from "../../store/event-log";
import { appendEvents } from "../../store/event-log";
import type { NewMessage } from "../../store/message-store";
import type { StoredMessage, StoredToolCall } from "../../store/messages";
import { registryEvent, setLinkStatus } from "../../store/registry-store";
import { messageEvent, telemetryEvent, telemetryEvents, threadEvent } from "../../store/thread-events";
import { nowMicroseconds, type ThreadRow } from "../../store/thread-row";
import { type ThreadChanges, updateLockedThread } from "../../store/thread-store";
import { insertToolRunsDeferred } from "../../store/tool-runs";
import { evaluateStop } from "../stop-rules";
import type { ExecutionControl } from "../thread-state";
import { executeToolCall, type ToolExecution } from "../tool-executor";
import { finishStep } from "./decide";
import { afterCreate, beforeCreate } from "./hooks";
import { logModelCall } from "./model-calls";
import { countStep, executedCallRecord, replyToolCalls } from "./tool-call-records";
import { EMPTY_RESPONSE_RESULT, type StepContext, type StepOutcome } from "./types";

/** A model call's reply, as the model turn hands it over. */
export interface ModelReply {
  modelName: string;
  requestMessages: ModelCallRequest["messages"];
  result: ModelCallResult;
  assistantId: string;
  telemetry: ModelTelemetry[];
  startedAt: number;
  /** In a replay: the recorded call that answered (model_calls.replayed_from). */
  replayedFrom?: string;
}

type AnsweredCall = { call: StoredToolCall; execution: ToolExecution };

/**
 * What the reply commit leaves the step runner: the step's outcome when the commit decided it, or
 * the stored assistant message whose tool calls are still to run.
 */
export type ReplyCommitResult =
  | { kind: "decided"; outcome: StepOutcome }
  | { kind: "tools"; assistant: StoredMessage; calls: StoredToolCall[] };

/** Commits the reply (and decides, when nothing is left to run); its tool calls are left to run. */
export async function commitReply(ctx: StepContext, reply: ModelReply): Promise<ReplyCommitResult> {
  const { active, ext, threadId } = ctx;
  const { result, assistantId, telemetry } = reply;
  const empty = result.text.trim() === "" && result.toolCalls.length === 0;
  const toolCalls = replyToolCalls(result, assistantId);

  const draft = await beforeCreate(ext, active.sideConfig.prompt, {
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
  const answered = empty ? null : await answerBindingsAtOnce(ctx, toolCalls);
  if (answered) crashPoint("before_tool_commit", active.agent.name);
  const usage = {
    inputTokens: result.usage.inputTokens,
    outputTokens: result.usage.outputTokens,
    costUsd: result.costUsd,
  };
  const logCall = replyCallLogger(ctx, reply);
  const committed = await ctx.commits.commit(
    threadId,
    async (tx, row) => {
      if (answered)
        return commitReplyWithResults(ctx, tx, row, draft, answered, {
          logModelCall: () => logCall(tx, row),
          telemetry,
          usage,
          control: ext.control,
        });
      return commitReplyAlone(ctx, tx, row, draft, {
        logModelCall: () => logCall(tx, row),
        telemetry,
        usage,
        empty,
        toolCalls,
      });
    },
    {
      // Nothing after this commit can change the thread: no hooks, and no calls left to run.
      snapshot: (toolCalls.length === 0 || answered !== null) && ext.hookIds.length === 0,
      readBack: (done) => done.toolsPending || done.outcome !== "parked",
      speculate: true,
    },
  );
  ctx.deps.endMessage?.(assistantId);
  if (answered) crashPoint("after_tool_commit", active.agent.name);
  ext.history.push(...committed.created);
  await afterCreate(ext, active.sideConfig.prompt, committed.created);
  if (!committed.toolsPending) return { kind: "decided", outcome: committed.outcome };
  return { kind: "tools", assistant: committed.assistant, calls: toolCalls };
}

/** Writes the reply's model call record inside the reply's commit. */
function replyCallLogger(ctx: StepContext, reply: ModelReply) {
  const { active, catalog } = ctx;
  return (tx: SqlExecutor, thread: ThreadRow) =>
    logModelCall(ctx, tx, thread, {
      side: active.side,
      modelName: reply.modelName,
      messages: reply.requestMessages,
      catalog,
      result: reply.result,
      error: null,
      startedAt: reply.startedAt,
      replayedFrom: reply.replayedFrom ?? null,
    });
}

/** What the reply's commit stores beside the reply: its call log, telemetry, usage and calls. */
interface ReplyAlone {
  logModelCall: () => Promise<void>;
  telemetry: ModelTelemetry[];
  usage: NonNullable<ThreadChanges["usage"]>;
  /** The reply was empty (no text, no calls): a rejection is stored with it. */
  empty: boolean;
  toolCalls: StoredToolCall[];
}

/**
 * The reply committed on its own: its calls left to run (the thread's counters updated), or, with
 * none, the step decided in the same transaction.
 */
// One function: the transaction reads top to bottom; splitting it would hide the order of its writes.
async function commitReplyAlone(
  ctx: StepContext,
  tx: SqlExecutor,
  row: ThreadRow,
  draft: NewMessage,
  step: ReplyAlone,
): Promise<
  | { toolsPending: true; assistant: StoredMessage; created: StoredMessage[] }
  | { toolsPending: false; outcome: StepOutcome; created: StoredMessage[] }
> {
  const { active, ext } = ctx;
  const { empty, toolCalls, telemetry, usage } = step;
  // Independent statements go out together (pipelined on one connection, run in this order).
  const [, inserted] = await Promise.all([
    step.logModelCall(),
    ctx.commits.insert(tx, row.id, [
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
      ctx.commits.withMessageSeq(row.id, { execution, usage }),
    );
    await appendEvents(tx, [...events, threadEvent(updated)]);
    return { toolsPending: true as const, assistant: assistant!, created: [assistant!] };
  }
  // An empty reply never ends a turn by response, but maxSteps still applies to it.
  const decision = evaluateStop(
    { text: empty ? "" : (draft.content ?? ""), toolCalls: [] },
    { side: active.side, sideConfig: active.sideConfig, turnSteps: execution.turnSteps },
  );
  const outcome = await finishStep(
    ctx,
    tx,
    row,
    { ...active, execution, decision, control: ext.control, usage },
    events,
  );
  return { toolsPending: false as const, outcome, created: [assistant!, ...extra] };
}

/**
 * The results of `calls` when every one is a session binding without an underlying tool and no
 * hook observes tool calls or messages (then runTools would store exactly these, one commit per
 * call); null otherwise.
 */
async function answerBindingsAtOnce(
  ctx: StepContext,
  calls: readonly StoredToolCall[],
): Promise<AnsweredCall[] | null> {
  const { ext, catalog, threadId } = ctx;
  if (calls.length === 0 || ext.hookIds.length > 0 || ext.control.stopRequested) return null;
  for (const call of calls) {
    const entry = catalog.entries.get(call.function.name);
    if (entry?.kind !== "binding" || entry.tool !== undefined) return null;
  }
  const answered: AnsweredCall[] = [];
  for (const call of calls)
    answered.push({ call, execution: await executeToolCall(call, { threadId, db: ctx.db, catalog }) });
  return answered;
}

/**
 * A reply whose calls were all answered at once (`answerBindingsAtOnce`), committed with their
 * results: the rows, events and decision runTools would have left after its last call.
 */
// One function: the transaction reads top to bottom; splitting it would hide the order of its writes.
async function commitReplyWithResults(
  ctx: StepContext,
  tx: SqlExecutor,
  row: ThreadRow,
  draft: NewMessage,
  answered: readonly AnsweredCall[],
  step: {
    logModelCall: () => Promise<void>;
    telemetry: ModelTelemetry[];
    usage: NonNullable<ThreadChanges["usage"]>;
    control: ExecutionControl;
  },
): Promise<{ toolsPending: false; outcome: StepOutcome; created: StoredMessage[] }> {
  const { active } = ctx;
  const startedAt = nowMicroseconds();
  const execution = countStep(row.execution, active.side);
  const results = bindingResultMessages(ctx, answered);
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
  const [, stored] = await Promise.all([
    step.logModelCall(),
    ctx.commits.insert(tx, row.id, [reply, ...results]),
  ]);
  await insertToolRunsDeferred(
    tx,
    row,
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
  const statusChange = await bindingStatusChange(tx, row, answered, events);
  const outcome = await finishStep(
    ctx,
    tx,
    row,
    { ...active, execution, decision, control: step.control, usage: step.usage, extra: statusChange },
    events,
  );
  return { toolsPending: false, outcome, created: stored };
}

/** The tool messages of calls answered at once, as runTools would have stored them. */
function bindingResultMessages(ctx: StepContext, answered: readonly AnsweredCall[]): NewMessage[] {
  const { active } = ctx;
  return answered.map(({ call, execution: result }) => ({
    id: randomUUID(),
    role: "tool" as const,
    side: active.side,
    content: result.content,
    name: call.function.name,
    tool_call_id: call.id,
    tool_status: result.status,
    prompt: active.sideConfig.prompt,
    ...(result.metadata ? { metadata: result.metadata } : {}),
  }));
}

/**
 * The status text the last sessionStatus call set (none: no change); for a child, its parent's
 * registry entry shows it (spec §7.10), with the registry event added to `events`.
 */
async function bindingStatusChange(
  tx: SqlExecutor,
  row: ThreadRow,
  answered: readonly AnsweredCall[],
  events: NewEvent[],
): Promise<ThreadChanges> {
  const statusText = answered.findLast(({ execution: result }) => result.statusText !== undefined)?.execution
    .statusText;
  if (statusText === undefined) return {};
  if (row.parent_id) {
    await setLinkStatus(tx, row.id, statusText || "running", nowMicroseconds());
    events.push(await registryEvent(tx, { id: row.parent_id, root_id: row.root_id }, [row.id]));
  }
  return { statusText };
}
