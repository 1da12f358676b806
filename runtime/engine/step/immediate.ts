// Immediate subagent tools (spec §7.6): when a prompt first becomes active in this thread, its
// immediate branches run before its first model step, as a runtime-made tool call the model then
// sees answered.
import { randomUUID } from "node:crypto";
import { appendEvents } from "../../store/event-log";
import type { StoredMessage, StoredToolCall } from "../../store/messages";
import { messageEvent, threadEvent } from "../../store/thread-events";
import type { ThreadRow } from "../../store/thread-row";
import { updateThread } from "../../store/thread-store";
import { type EnvLookup, immediateCalls, type SubagentBranch } from "../../subagents/branches";
import type { ActiveSide, RunnerContext } from "./types";

/**
 * Stores the immediate calls of `promptName` (none: null). Arguments come from the input that
 * activated the prompt and the nameEnv / descriptionEnv hints; scopedEnv values are handed to the
 * child and never appear in them.
 */
export async function startImmediate(
  ctx: RunnerContext,
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
  return ctx.commits.commit(row.id, async (tx, current) => {
    const [message] = await ctx.commits.insert(tx, current.id, [
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
      ctx.commits.withMessageSeq(current.id, {
        execution: { ...current.execution, immediateDone: [...current.execution.immediateDone, promptName] },
      }),
    );
    await appendEvents(tx, [messageEvent(updated, message!), threadEvent(updated)]);
    return { message: message!, calls: toolCalls };
  });
}
