// Tool calls: a reply's calls run one at a time in returned order, each result committed on its
// own; the last commit also decides the step (stop rules, handoff, execution control). A blocking
// subagent call parks the thread; a run of one-off spawns commits as one batch (spawn-batch.ts).
import { randomUUID } from "node:crypto";
import type { SqlExecutor } from "@/lib/db/sql-client";
import { crashPoint } from "../../faults";
import type { ApprovalRow } from "../../store/approval-store";
import { appendEvents, type NewEvent } from "../../store/event-log";
import { setMessageContent, setMessageToolCalls } from "../../store/message-edits";
import type { NewMessage } from "../../store/message-store";
import type { StoredMessage, StoredToolCall } from "../../store/messages";
import { registryEvent, setLinkStatus } from "../../store/registry-store";
import { messageEvent, telemetryEvent, threadEvent } from "../../store/thread-events";
import { nowMicroseconds, type ThreadRow } from "../../store/thread-row";
import { findThread, type ThreadChanges, updateLockedThread, updateThread } from "../../store/thread-store";
import { insertToolRunDeferred } from "../../store/tool-runs";
import { envLookup } from "../../subagents/branches";
import { DEFAULT_SUBAGENT_LIMITS } from "../../subagents/spawn-child";
import {
  callSubagentCreate,
  callSubagentMessage,
  callSubagentTool,
} from "../../subagents/subagent-tool-calls";
import { recordToolSpan } from "../run-trace";
import { evaluateStop } from "../stop-rules";
import {
  errorContent,
  executeToolCall,
  type SubagentCatalogEntry,
  type ToolExecution,
} from "../tool-executor";
import {
  type ApprovalVerdict,
  approvalVerdict,
  approvedCall,
  approvedMetadata,
  deniedExecution,
  parkOnApproval,
} from "./approval-gate";
import { parkOnChild } from "./blocked-call";
import { finishStep } from "./decide";
import { isRunEnding, ThreadTerminated } from "./errors";
import { applyHandoff } from "./handoff";
import { afterCreate, afterToolHooks, beforeCreate, toolExtensions } from "./hooks";
import {
  batchableSpawns,
  type CommittedSpawnBatch,
  commitSpawnBatch,
  spawnObservingHooks,
} from "./spawn-batch";
import { runSubprompt } from "./subprompt";
import { announcesStart, executedCallsKnown, executedCallsOf } from "./tool-call-records";
import { EXECUTION_STOPPED_RESULT, type StepContext, type StepOutcome } from "./types";

/** Runs `calls` of `assistant` in order, committing each result; "continue" when none decided. */
export async function runTools(
  ctx: StepContext,
  assistant: StoredMessage,
  calls: StoredToolCall[],
): Promise<StepOutcome> {
  const { active, catalog, ext, abortSignal } = ctx;
  const state = { current: assistant };
  const observed = spawnObservingHooks(ext);
  // A spawn batch's children start once the run's last spawn call, right after it, is answered
  // (`CommittedSpawnBatch.start`); and whatever ends the loop.
  const batches: CommittedSpawnBatch[] = [];
  const startBatches = () => {
    for (const committed of batches.splice(0)) committed.start();
  };
  try {
    for (let index = 0; index < calls.length; index += 1) {
      if (abortSignal.aborted) return "aborted";
      // A run of non-blocking subagent calls spawns its children in one transaction.
      const batch = observed ? [] : batchableSpawns(calls, index, catalog);
      if (batch.length > 0) {
        const committed = await commitSpawnBatch(ctx, assistant, batch).catch((error: unknown) => {
          if (isRunEnding(error)) throw error;
          return null; // e.g. an attachment that does not exist: the calls run one by one and say so
        });
        if (committed && committed.answered > 0) {
          batches.push(committed);
          crashPoint("after_tool_commit", active.agent.name);
          index += committed.answered - 1;
          continue;
        }
      }
      const outcome = await runToolCall(ctx, state, calls, index).finally(startBatches);
      if (outcome) return outcome;
    }
    return "continue";
  } finally {
    startBatches();
  }
}

/** One call run and its result committed; the step's outcome when this call ended it, else null. */
async function runToolCall(
  ctx: StepContext,
  state: { current: StoredMessage },
  calls: StoredToolCall[],
  index: number,
): Promise<StepOutcome | null> {
  const { active, ext, abortSignal, threadId } = ctx;
  const asked = calls[index]!;
  // A call that needs a human's approval runs once approved, is answered once denied, else parks.
  const verdict = await approvalVerdict(ctx, asked);
  if (verdict.kind === "wait") return parkOnApproval(ctx, calls, index);
  const call = verdict.kind === "approved" ? approvedCall(asked, verdict.approval) : asked;
  const promptName = active.sideConfig.prompt;
  const startedAt = nowMicroseconds();
  const toolMessageId = randomUUID();
  const { executed, announced } = await executeCall(ctx, {
    call,
    verdict,
    toolMessageId,
    spawnGroupId: state.current.id,
  });
  if (abortSignal.aborted) return "aborted";
  crashPoint("before_tool_commit", active.agent.name);
  const approval = verdict.kind === "approved" || verdict.kind === "denied" ? verdict.approval : null;
  const span = (status: string, result?: string) =>
    recordToolSpan(ctx.trace, toolSpanOf(ctx, { call, executed, approval, startedAt, status, result }));
  if (executed.pending) {
    // A blocking subagent call waits for its child: its span ends here, the child's run nests under it.
    const outcome = await ctx.commits.commit(threadId, (tx, row) => parkOnChild(ctx, tx, row, call.id));
    span("pending");
    return outcome;
  }
  const execution = await afterToolHooks(ext, promptName, call, executed);
  const draft =
    execution && (await beforeCreate(ext, promptName, toolMessageOf(ctx, toolMessageId, call, execution)));
  // After a stop request the remaining calls are answered as stopped and the run ends here.
  const remaining = ext.control.stopRequested ? calls.slice(index + 1) : [];
  const isLast = index === calls.length - 1 || ext.control.stopRequested;
  const committed = await ctx.commits.commit(
    threadId,
    (tx, row) =>
      commitToolResult(ctx, tx, row, state, {
        call,
        executed,
        execution,
        draft,
        remaining,
        isLast,
        announced,
        startedAt,
      }),
    { speculate: true, readBack: (done) => done.outcome !== "parked" },
  );
  crashPoint("after_tool_commit", active.agent.name);
  span(executed.status, execution?.content);
  ext.history.push(...committed.created);
  await afterCreate(ext, promptName, committed.created);
  return committed.outcome;
}

/** A call about to run: as approved (or asked), its verdict, and the ids its work hangs under. */
interface CallToExecute {
  call: StoredToolCall;
  verdict: Exclude<ApprovalVerdict, { kind: "wait" }>;
  /** The tool message the result will be (a sub-prompt's messages nest under it). */
  toolMessageId: string;
  /** The reply whose calls these are (the spawn group of children it spawns). */
  spawnGroupId: string;
}

/**
 * Runs the call (a denied one is answered without running), announcing its start first when it
 * may take a while: live views show it running; instant runtime tools announce with their result.
 */
async function executeCall(
  ctx: StepContext,
  input: CallToExecute,
): Promise<{ executed: ToolExecution; announced: boolean }> {
  const { active, catalog, ext, abortSignal, threadId } = ctx;
  const { call, verdict, toolMessageId } = input;
  const promptName = active.sideConfig.prompt;
  const announced = verdict.kind !== "denied" && announcesStart(catalog.entries.get(call.function.name));
  if (announced) {
    await appendEvents(ctx.db, [
      telemetryEvent(
        { id: threadId, root_id: ctx.rootId },
        { type: "tool_started", tool: call.function.name },
      ),
    ]);
  }
  if (verdict.kind === "denied") return { executed: deniedExecution(call, verdict.approval), announced };
  const ran = await executeToolCall(call, {
    threadId,
    db: ctx.db,
    catalog,
    abortSignal,
    ...toolExtensions(ctx, threadId, ext, promptName, [promptName]),
    runSubprompt: (entry, args) => runSubprompt(ctx, entry, args, toolMessageId, 1, [promptName]),
    runSubagent: (entry, args, callId) => runSubagentCall(ctx, entry, args, callId, input.spawnGroupId),
  });
  const executed: ToolExecution =
    verdict.kind === "approved"
      ? { ...ran, metadata: { ...ran.metadata, ...approvedMetadata(verdict.approval) } }
      : ran;
  return { executed, announced };
}

/** The tool message of a call's result (after its hooks), as before_create_message sees it. */
function toolMessageOf(
  ctx: StepContext,
  id: string,
  call: StoredToolCall,
  execution: ToolExecution,
): NewMessage {
  const promptName = ctx.active.sideConfig.prompt;
  return {
    id,
    role: "tool",
    side: ctx.active.side,
    content: execution.content,
    name: call.function.name,
    tool_call_id: call.id,
    tool_status: execution.status,
    prompt: promptName,
    ...(execution.metadata ? { metadata: execution.metadata } : {}),
    ...(execution.attachments ? { attachments: execution.attachments } : {}),
  };
}

/** One call's span as it ends: the call, how it ran, and the approval it waited for (if any). */
interface ToolSpanInput {
  call: StoredToolCall;
  executed: ToolExecution;
  approval: ApprovalRow | null;
  startedAt: number;
  status: string;
  result: string | undefined;
}

/**
 * The span of one call. An approved or denied call's span starts when the approval was asked for:
 * the human's wait is part of the call, marked by its two events.
 */
function toolSpanOf(ctx: StepContext, input: ToolSpanInput): Parameters<typeof recordToolSpan>[1] {
  const { call, executed, approval, startedAt } = input;
  const target = executed.status === "success" ? handoffTarget(executed) : undefined;
  return {
    threadId: ctx.threadId,
    toolCallId: call.id,
    toolName: call.function.name,
    startMs: (approval ? Math.min(approval.requested_at, startedAt) : startedAt) / 1000,
    status: input.status,
    arguments: call.function.arguments,
    ...(input.result !== undefined ? { result: input.result } : {}),
    events: [
      ...(approval
        ? [
            {
              name: "tandem.approval.requested",
              timeMs: approval.requested_at / 1000,
              attributes: { "tandem.approval.id": approval.id },
            },
            {
              name: "tandem.approval.decided",
              timeMs: (approval.decided_at ?? startedAt) / 1000,
              attributes: { "tandem.approval.id": approval.id, "tandem.approval.decision": approval.state },
            },
          ]
        : []),
      ...(typeof target === "string"
        ? [
            {
              name: "tandem.handoff",
              attributes: { "tandem.handoff.from": ctx.active.agent.name, "tandem.handoff.to": target },
            },
          ]
        : []),
    ],
  };
}

/** A call's result as its commit stores it. */
interface ToolResultCommit {
  call: StoredToolCall;
  /** As the tool returned it (the tool_runs row). */
  executed: ToolExecution;
  /** After the hooks; null: dropped from history. */
  execution: ToolExecution | null;
  /** The tool message to store (null when dropped). */
  draft: NewMessage | null;
  /** Calls answered as stopped (after state.execution.stop()). */
  remaining: StoredToolCall[];
  /** The step's last call: this commit also decides the step. */
  isLast: boolean;
  /** Its tool_started event went out before it ran. */
  announced: boolean;
  startedAt: number;
}

/** The transaction of one call's result (and, for the last call, the step's decision). */
// One function: the transaction reads top to bottom; splitting it would hide the order of its writes.
async function commitToolResult(
  ctx: StepContext,
  tx: SqlExecutor,
  lockedRow: ThreadRow,
  state: { current: StoredMessage },
  result: ToolResultCommit,
): Promise<{ created: StoredMessage[]; outcome: StepOutcome | null }> {
  const { active } = ctx;
  const { call, executed, execution, draft } = result;
  const promptName = active.sideConfig.prompt;
  let row = lockedRow;
  if (row.execution.blockedOn?.callId === call.id) {
    row = await updateThread(tx, row.id, { execution: { ...row.execution, blockedOn: null } });
  }
  const created: StoredMessage[] = [];
  if (!draft) await dropCallFromHistory(ctx, tx, row.id, state, call);
  const stoppedResults = result.remaining.map((open) => ({
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
    insertToolRunDeferred(tx, row, {
      toolCallId: call.id,
      name: call.function.name,
      args: executed.args,
      status: executed.status,
      result: executed.content,
      startedAt: result.startedAt,
    }),
    ctx.commits.insert(tx, row.id, [...(draft ? [draft] : []), ...stoppedResults]),
  ]);
  created.push(...stored);
  const events: NewEvent[] = [
    ...(result.announced ? [] : [telemetryEvent(row, { type: "tool_started", tool: call.function.name })]),
    telemetryEvent(row, { type: "tool_completed", tool: call.function.name, status: executed.status }),
    ...created.map((message) => messageEvent(row, message)),
  ];
  const statusChange: ThreadChanges =
    execution?.statusText !== undefined ? { statusText: execution.statusText } : {};
  if (execution?.statusText !== undefined && row.parent_id) {
    // sessionStatus of a child: the parent's registry entry shows it (spec §7.10).
    await setLinkStatus(tx, row.id, execution.statusText || "running", nowMicroseconds());
    events.push(await registryEvent(tx, { id: row.parent_id, root_id: row.root_id }, [row.id]));
  }
  if (!result.isLast) {
    const updated = await updateLockedThread(tx, row, ctx.commits.withMessageSeq(row.id, statusChange));
    await appendEvents(tx, [
      ...events,
      ...(execution?.statusText !== undefined ? [threadEvent(updated)] : []),
    ]);
    return { created, outcome: null };
  }
  const outcome = await decideAfterLastCall(ctx, tx, row, {
    assistant: state.current,
    stored,
    events,
    statusChange,
  });
  return { created, outcome };
}

/** after_tool_call_* returned null: the call leaves history and nothing is stored for it. */
async function dropCallFromHistory(
  ctx: StepContext,
  tx: SqlExecutor,
  threadId: string,
  state: { current: StoredMessage },
  call: StoredToolCall,
): Promise<void> {
  const kept = (state.current.tool_calls ?? []).filter((entry) => entry.id !== call.id);
  await setMessageToolCalls(tx, state.current.id, kept.length > 0 ? kept : null);
  state.current = { ...state.current, tool_calls: kept.length > 0 ? kept : null };
  await ctx.commits.changedHistory(tx, threadId);
}

/** What the last call's commit decides from: the reply, the results it stored, its events so far. */
interface LastCallCommit {
  assistant: StoredMessage;
  stored: StoredMessage[];
  events: NewEvent[];
  statusChange: ThreadChanges;
}

/**
 * The step's decision in its last call's commit: the stop rules over every call's result, the
 * reply completed by a stop tool's response, then a handoff, or the step finished (decide).
 */
async function decideAfterLastCall(
  ctx: StepContext,
  tx: SqlExecutor,
  row: ThreadRow,
  last: LastCallCommit,
): Promise<StepOutcome> {
  const { active, catalog, ext } = ctx;
  const { assistant: current, events, statusChange } = last;
  // The stop evaluation needs every call's result: from memory when this run stored them
  // all, else read (after a crash, earlier results come from an earlier run).
  const executedCalls =
    executedCallsKnown(current, [...ext.history, ...last.stored]) ??
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
    // The extracted outcome is the side's message: the other side's next request must see it.
    const completed = { ...current, content: decision.responseText };
    await setMessageContent(tx, current.id, decision.responseText);
    ctx.commits.replaced(row.id, completed);
    events.push(messageEvent(row, completed));
  }
  const handoff = executedCalls.filter((entry) => entry.status === "success" && entry.handoffTo).at(-1);
  if (handoff && decision.kind !== "session_completed" && decision.kind !== "session_failed") {
    await applyHandoff(ctx, tx, row, handoff, catalog, events, statusChange);
    return "continue";
  }
  return finishStep(
    ctx,
    tx,
    row,
    { ...active, execution: row.execution, decision, control: ext.control, extra: statusChange },
    events,
  );
}

/** A subagent tool call of the active prompt (spec §7): spawn, message, or wait for a result. */
async function runSubagentCall(
  ctx: StepContext,
  entry: SubagentCatalogEntry,
  args: Record<string, unknown>,
  callId: string,
  spawnGroupId: string,
): Promise<ToolExecution> {
  const { active, ext, threadId } = ctx;
  const parent = await findThread(ctx.db, threadId);
  if (!parent) throw new ThreadTerminated();
  const promptName = active.sideConfig.prompt;
  const prompt = active.definitions.index.prompts.get(promptName)?.definition;
  const hooks = ext.hooks;
  const context = {
    db: ctx.db,
    parent,
    index: active.definitions.index,
    callId,
    spawnGroupId,
    limits: ctx.deps.subagentLimits ?? DEFAULT_SUBAGENT_LIMITS,
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

/** The agent a handoff call hands the thread to (its tool message's metadata), for its span event. */
function handoffTarget(executed: ToolExecution): string | undefined {
  const handoff = executed.metadata?.handoff as { agent?: unknown } | undefined;
  return typeof handoff?.agent === "string" ? handoff.agent : undefined;
}
