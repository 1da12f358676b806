// Decide and finish: after a step's reply and tools, where the thread goes next. `decideNext` is
// the pure decision (stop rules' verdict, execution control, step caps, turn passing); `applyNextMove`
// writes it in the step's last transaction.
import type { SqlExecutor } from "@/lib/db/sql-client";
import type { AgentDefinition, ResolvedSideConfig } from "@/lib/standard";
import { appendEvents, type NewEvent } from "../../store/event-log";
import { type ExecutionState, otherSide, type Side } from "../../store/messages";
import { telemetryEvent, threadEvent } from "../../store/thread-events";
import { applyLocked, type ParkTransition } from "../../store/thread-lifecycle";
import type { ThreadRow } from "../../store/thread-row";
import type { ThreadChanges } from "../../store/thread-store";
import { type StopDecision, sessionTurnLimitReason } from "../stop-rules";
import type { ExecutionControl } from "../thread-state";
import { parkThread } from "./park";
import { EXECUTION_STOPPED_RESULT, MAX_STEPS_PER_TURN, type RunnerContext, type StepOutcome } from "./types";

/** Where the thread goes after the step. */
export type NextMove =
  /** The run ends: park by `transition` with these changes (`side` names the side in a "stopped" event). */
  | {
      kind: "park";
      transition: ParkTransition;
      changes: ThreadChanges;
      side?: Side;
      attachments?: readonly string[];
    }
  /** The same side takes the next step. */
  | { kind: "run_on"; changes: ThreadChanges }
  /** The other side of a dual_ai takes the next turn, which starts at the thread's next message. */
  | { kind: "switch_side"; changes: ThreadChanges; execution: Omit<ExecutionState, "turnStartSeq"> };

export interface DecisionInput {
  /** The execution state after the step (its counters already counted). */
  execution: ExecutionState;
  decision: StopDecision;
  agent: Pick<AgentDefinition, "type" | "sideA" | "sideB" | "maxSessionTurns">;
  side: Side;
  sideConfig: Pick<ResolvedSideConfig, "stopOnResponse" | "stopTool">;
  /** state.execution.stop() / forceTurn(side) from a tool or hook in this step. */
  control: Pick<ExecutionControl, "stopRequested" | "forcedSide">;
  usage?: ThreadChanges["usage"];
  /** Further changes the step's commit makes (e.g. statusText). */
  extra?: ThreadChanges;
}

/**
 * The stop decision, unless a tool or hook asked the run to stop (state.execution.stop()) or forced
 * the next turn (state.execution.forceTurn); a session end or a limit always wins.
 */
export function decideNext(input: DecisionInput): NextMove {
  const { decision, control, execution } = input;
  const ended =
    decision.kind === "session_completed" || decision.kind === "session_failed" || decision.kind === "limit";
  const base = baseChanges(input);
  if (!ended && control.stopRequested) {
    return {
      kind: "park",
      transition: "stopSession",
      changes: { ...base, stopReason: EXECUTION_STOPPED_RESULT },
      side: input.side,
    };
  }
  if (!ended && control.forcedSide) {
    const isHumanChat = (input.agent.type ?? "ai_human") === "ai_human";
    if (isHumanChat && control.forcedSide === "b")
      return { kind: "park", transition: "park", changes: { ...base, stopReason: null } };
    if (control.forcedSide === input.side) return { kind: "run_on", changes: base };
    return decideByStopRules({ ...input, decision: { kind: "turn_ended", reason: "response" } }, execution);
  }
  return decideByStopRules(input, execution);
}

function baseChanges(input: DecisionInput): ThreadChanges {
  return {
    ...(input.extra ?? {}),
    execution: input.execution,
    ...(input.usage ? { usage: input.usage } : {}),
  };
}

/** The session's end the stop rules decided (completed, failed, or a limit), or null when it goes on. */
function sessionEndMove(decision: StopDecision, base: ThreadChanges, side: Side): NextMove | null {
  if (decision.kind === "session_completed") {
    return {
      kind: "park",
      transition: "completeSession",
      changes: { ...base, result: decision.result, stopReason: "Session completed" },
      side,
      attachments: decision.attachments,
    };
  }
  if (decision.kind === "session_failed") {
    return {
      kind: "park",
      transition: "failSession",
      changes: { ...base, failure: decision.failure, stopReason: "Session failed" },
      side,
      attachments: decision.attachments,
    };
  }
  if (decision.kind === "limit")
    return {
      kind: "park",
      transition: "stopSession",
      changes: { ...base, stopReason: decision.reason },
      side,
    };
  return null;
}

/** The stop rules' verdict alone: session ends, limits, continuing, or the turn passing. */
function decideByStopRules(input: DecisionInput, execution: ExecutionState): NextMove {
  const { decision, agent, side } = input;
  const base = baseChanges(input);
  const sessionEnd = sessionEndMove(decision, base, side);
  if (sessionEnd) return sessionEnd;
  // Per execution (since the last input), like the reference: max(250, the sides' maxSteps).
  const cap = Math.max(MAX_STEPS_PER_TURN, agent.sideA.maxSteps ?? 0, agent.sideB?.maxSteps ?? 0);
  const capReason = `Maximum steps reached (${cap})`;
  if (execution.runSteps >= cap && decision.kind !== "turn_ended")
    return { kind: "park", transition: "stopSession", changes: { ...base, stopReason: capReason }, side };
  const isDual = (agent.type ?? "ai_human") === "dual_ai";
  // No turn-stop condition on a dual_ai side: the turn passes after every step (reference runtime).
  const passesTurn = isDual && !input.sideConfig.stopOnResponse && !input.sideConfig.stopTool;
  if (decision.kind === "continue" && !passesTurn) return { kind: "run_on", changes: base };
  // The side's turn ended.
  const turns =
    side === "a"
      ? { ...execution, turnsA: execution.turnsA + 1 }
      : { ...execution, turnsB: execution.turnsB + 1 };
  const limit = sessionTurnLimitReason(turns.turnsA, turns.turnsB, agent.maxSessionTurns);
  if (limit)
    return {
      kind: "park",
      transition: "stopSession",
      changes: { ...base, execution: turns, stopReason: limit },
      side,
    };
  if ((agent.type ?? "ai_human") === "ai_human")
    return { kind: "park", transition: "park", changes: { ...base, execution: turns, stopReason: null } };
  if (execution.runSteps >= cap)
    return {
      kind: "park",
      transition: "stopSession",
      changes: { ...base, execution: turns, stopReason: capReason },
      side,
    };
  return {
    kind: "switch_side",
    changes: base,
    execution: { ...turns, currentSide: otherSide(side), turnSteps: 0 },
  };
}

/**
 * Writes `move` in the step's last transaction, after its `events`: "continue" when the thread goes
 * on (same side, or the other side of a dual_ai), "parked" when its run ended (lease released).
 */
export async function applyNextMove(
  ctx: RunnerContext,
  tx: SqlExecutor,
  row: ThreadRow,
  move: NextMove,
  events: NewEvent[],
): Promise<StepOutcome> {
  if (move.kind === "park") {
    await parkThread(ctx, tx, row, move.transition, move.changes, {
      events,
      side: move.side,
      reportedAttachments: move.attachments,
    });
    return "parked";
  }
  const changes: ThreadChanges =
    move.kind === "switch_side"
      ? {
          ...move.changes,
          execution: { ...move.execution, turnStartSeq: Number(await ctx.commits.nextSeq(tx, row.id)) },
        }
      : move.changes;
  const updated = await applyLocked(tx, row, "continueRun", ctx.commits.withMessageSeq(row.id, changes));
  await appendEvents(tx, [...events, threadEvent(updated)]);
  return "continue";
}

/** Decide and finish: the step_completed event, then the decision applied in the step's commit. */
export async function finishStep(
  ctx: RunnerContext,
  tx: SqlExecutor,
  row: ThreadRow,
  input: DecisionInput,
  events: NewEvent[],
): Promise<StepOutcome> {
  events.push(
    telemetryEvent(row, { type: "step_completed", step: input.execution.stepCount, side: input.side }),
  );
  return applyNextMove(ctx, tx, row, decideNext(input), events);
}
