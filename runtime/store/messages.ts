// The runtime's view of stored messages (the spec's message model plus side and sequence) and the
// thread's execution state between steps.
import { z } from "zod";
import { MessageSideSchema, type MessageView } from "@/lib/contracts/message";

export const SideSchema = MessageSideSchema;
export type Side = z.infer<typeof SideSchema>;

export const StoredToolCallSchema = z.object({
  id: z.string(),
  type: z.literal("function"),
  function: z.object({ name: z.string(), arguments: z.string() }),
});
export type StoredToolCall = z.infer<typeof StoredToolCallSchema>;

export { type AttachmentRef, AttachmentRefSchema } from "@/lib/contracts/message";

/** A message as stored: the message model with its tool calls parsed and the prompt that wrote it. */
export type StoredMessage = Omit<MessageView, "tool_calls"> & {
  tool_calls: StoredToolCall[] | null;
  prompt: string | null;
};

export const ExecutionStateSchema = z.object({
  currentSide: SideSchema,
  stepCount: z.number().int().nonnegative(),
  sideASteps: z.number().int().nonnegative(),
  sideBSteps: z.number().int().nonnegative(),
  /** Steps taken in the current turn of the current side (for maxSteps). */
  turnSteps: z.number().int().nonnegative(),
  /** Completed turns per side; a session turn ("exchange") is min(turnsA, turnsB). */
  turnsA: z.number().int().nonnegative(),
  turnsB: z.number().int().nonnegative(),
  /** The first message sequence number of the current turn (context for includeChat: false). */
  turnStartSeq: z.number().int().nonnegative(),
  /** Steps since the last input arrived: the per-execution safety cap counts these. */
  runSteps: z.number().int().nonnegative().default(0),
  /** A blocking subagent call this thread waits for: it runs again once that child reports. */
  blockedOn: z.object({ callId: z.string() }).nullable().default(null),
  /** Prompts whose `immediate` subagent tools already ran in this thread (spec §7.6). */
  immediateDone: z.array(z.string()).default([]),
  /** A subagent child's after_thread_created hooks have run (before its first step). */
  createdHooksRan: z.boolean().default(false),
  /** In a replay: the thread whose recorded model calls answer this one's (runtime/engine/step/replay-answer.ts). */
  replayOf: z.string().optional(),
  /**
   * Successful model calls per `"<side>|<model>"` that the history copied into this thread (by a fork,
   * or a replay of a fork) stands for: the scripted provider counts on from them, so a copied
   * conversation goes on where it left off (runtime/engine/step/model-calls.ts).
   */
  copiedModelCalls: z.record(z.string(), z.number().int().nonnegative()).optional(),
});
export type ExecutionState = z.infer<typeof ExecutionStateSchema>;

export function initialExecutionState(): ExecutionState {
  return {
    currentSide: "a",
    stepCount: 0,
    sideASteps: 0,
    sideBSteps: 0,
    turnSteps: 0,
    turnsA: 0,
    turnsB: 0,
    turnStartSeq: 0,
    runSteps: 0,
    blockedOn: null,
    immediateDone: [],
    createdHooksRan: false,
  };
}

export function otherSide(side: Side): Side {
  return side === "a" ? "b" : "a";
}

export function parseToolCallArguments(call: StoredToolCall): unknown {
  try {
    return JSON.parse(call.function.arguments);
  } catch {
    return call.function.arguments;
  }
}
