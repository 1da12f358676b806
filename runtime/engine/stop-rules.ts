// Stop evaluation (Agents spec §5), pure, in the spec's order, after a step's tool calls ran:
//   1. sessionStop / sessionFail — only when that tool call succeeded
//   2. stopTool (+ stopToolResponseProperty) — the side's turn ends
//   3. stopOnResponse — text with no tool calls ends the turn (default true)
//   4. safety limits — maxSteps per side turn, then maxSessionTurns when a turn ends
// Hitting a limit is a clean stop with a reason, never an error.
import type { ResolvedSessionBinding, ResolvedSideConfig } from "@/lib/standard";
import type { Side } from "../store/messages";

export interface ExecutedToolCall {
  id: string;
  name: string;
  args: unknown;
  status: "success" | "error";
}

/** What the stop rules look at in a step: its reply text and the tool calls it executed. */
export interface StepReply {
  text: string;
  toolCalls: readonly ExecutedToolCall[];
}

export type StopDecision =
  | { kind: "session_completed"; result: string; attachments: string[] }
  | { kind: "session_failed"; failure: string; attachments: string[] }
  | { kind: "turn_ended"; reason: "stop_tool" | "response"; responseText?: string }
  | { kind: "limit"; reason: string }
  | { kind: "continue" };

export interface StopContext {
  side: Side;
  sideConfig: ResolvedSideConfig;
  /** Steps taken in this side's current turn, including the one just finished. */
  turnSteps: number;
}

function argument(args: unknown, property: string): unknown {
  return args && typeof args === "object" && !Array.isArray(args)
    ? (args as Record<string, unknown>)[property]
    : undefined;
}

export function bindingMessage(binding: ResolvedSessionBinding, args: unknown): string {
  const value = argument(args, binding.messageProperty);
  if (value === undefined || value === null) return "";
  return typeof value === "string" ? value : JSON.stringify(value);
}

export function bindingAttachments(binding: ResolvedSessionBinding, args: unknown): string[] {
  if (!binding.attachmentsProperty) return [];
  const value = argument(args, binding.attachmentsProperty);
  if (typeof value === "string") return value ? [value] : [];
  return Array.isArray(value)
    ? value.filter((item): item is string => typeof item === "string" && item !== "")
    : [];
}

export function evaluateStop(outcome: StepReply, context: StopContext): StopDecision {
  const { sideConfig } = context;
  for (const call of outcome.toolCalls) {
    if (call.status !== "success") continue;
    if (sideConfig.sessionStop && call.name === sideConfig.sessionStop.name) {
      return {
        kind: "session_completed",
        result: bindingMessage(sideConfig.sessionStop, call.args),
        attachments: bindingAttachments(sideConfig.sessionStop, call.args),
      };
    }
    if (sideConfig.sessionFail && call.name === sideConfig.sessionFail.name) {
      return {
        kind: "session_failed",
        failure: bindingMessage(sideConfig.sessionFail, call.args),
        attachments: bindingAttachments(sideConfig.sessionFail, call.args),
      };
    }
  }
  if (sideConfig.stopTool) {
    const stopCall = outcome.toolCalls.find(
      (call) => call.name === sideConfig.stopTool && call.status === "success",
    );
    if (stopCall) {
      const property = sideConfig.stopToolResponseProperty;
      const extracted = property ? argument(stopCall.args, property) : undefined;
      return {
        kind: "turn_ended",
        reason: "stop_tool",
        ...(extracted === undefined
          ? {}
          : { responseText: typeof extracted === "string" ? extracted : JSON.stringify(extracted) }),
      };
    }
  }
  if (sideConfig.stopOnResponse && outcome.toolCalls.length === 0 && outcome.text.trim() !== "") {
    return { kind: "turn_ended", reason: "response" };
  }
  if (sideConfig.maxSteps !== undefined && context.turnSteps >= sideConfig.maxSteps) {
    return { kind: "limit", reason: `Side ${context.side} reached max steps (${sideConfig.maxSteps})` };
  }
  return { kind: "continue" };
}

/** After a turn ends: has the session reached maxSessionTurns exchanges (min of both sides' turns)? */
export function sessionTurnLimitReason(
  turnsA: number,
  turnsB: number,
  maxSessionTurns: number | undefined,
): string | null {
  if (maxSessionTurns === undefined) return null;
  const exchanges = Math.min(turnsA, turnsB);
  return exchanges >= maxSessionTurns ? `Reached max session turns (${maxSessionTurns} exchanges)` : null;
}
