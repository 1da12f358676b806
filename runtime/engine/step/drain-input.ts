// Drain input: the step's first transaction moves the thread's inbox into messages; a new turn
// starts for the side the first input addresses. With nothing to drain, a thread that is not
// running parks; a user-stopped thread parks unless a human wrote.
import type { SqlExecutor } from "@/lib/db/sql-client";
import type { LoadedDefinitions } from "../../store/definitions";
import { appendEvents } from "../../store/event-log";
import { consumeInboxItems, drainInbox, drainInboxItems, type InboxItem } from "../../store/inbox";
import { hasHumanInputWaiting } from "../../store/inbox-reads";
import type { NewMessage } from "../../store/message-store";
import type { ExecutionState, Side, StoredMessage } from "../../store/messages";
import { messageEvent, threadEvent } from "../../store/thread-events";
import { startRun } from "../../store/thread-lifecycle";
import type { ThreadRow } from "../../store/thread-row";
import type { ThreadForStep } from "../../store/thread-store";
import { parkThread } from "./park";
import type { RunnerContext } from "./types";

/** An agent of this type (the spec's default: ai_human) talks with a human on side B. */
export function isHumanChatAgent(type: string | undefined): boolean {
  return (type ?? "ai_human") === "ai_human";
}

/** The side an input is stored on: the agent's own words are A's; a human's are B's in a chat. */
export function inputSide(role: "user" | "assistant", isHumanChat: boolean): Side | null {
  return role === "assistant" ? "a" : isHumanChat ? "b" : null;
}

/**
 * The execution state of a run that inputs start, the first of them (`firstRole`) stored at
 * `turnStartSeq`: A acts in a chat and on a user message, B on an assistant one; a human writing
 * counts a turn of side B in a chat.
 */
export function runStartedBy(
  execution: ExecutionState,
  isHumanChat: boolean,
  firstRole: "user" | "assistant",
  humanWrote: boolean,
  turnStartSeq: number,
): ExecutionState {
  const { currentSide, countsTurnB } = runStartOf(isHumanChat, firstRole, humanWrote);
  return {
    ...execution,
    currentSide,
    turnStartSeq,
    turnSteps: 0,
    runSteps: 0,
    turnsB: execution.turnsB + (countsTurnB ? 1 : 0),
  };
}

/** The side that acts first in a run that inputs start, and whether it counts a turn of side B. */
export function runStartOf(
  isHumanChat: boolean,
  firstRole: "user" | "assistant",
  humanWrote: boolean,
): { currentSide: Side; countsTurnB: boolean } {
  return {
    currentSide: isHumanChat ? "a" : firstRole === "assistant" ? "b" : "a",
    countsTurnB: isHumanChat && humanWrote,
  };
}

export type Drained = { kind: "parked" } | { kind: "run"; row: ThreadRow; drained: StoredMessage[] };

/** Drains the inbox; decides whether there is anything to do. */
export async function drainInput(
  ctx: RunnerContext,
  tx: SqlExecutor,
  row: ThreadRow,
  definitions: LoadedDefinitions | null,
  /** The row as read before this transaction, with the input waiting then (a speculative commit). */
  read: ThreadForStep | null = null,
  /** In a replay: the inputs this drain takes, in this order (runtime/engine/step/replay-gate.ts); all when absent. */
  only: readonly string[] | null = null,
): Promise<Drained> {
  if (row.user_stopped) {
    if (!(await hasHumanInputWaiting(tx, row.id))) {
      await parkThread(ctx, tx, row, null, {});
      return { kind: "parked" };
    }
  }
  const agent = definitions?.index.agents.get(row.agent_name)?.definition;
  const isHumanChat = isHumanChatAgent(agent?.type);
  // Input read with the row is consumed by id, in the commit's one statement; else drained here.
  const taken = only ? new Map(only.map((id, index) => [id, index])) : null;
  const prefetched = read?.pendingInput ? prefetchedInput(read.pendingInput, taken) : null;
  const drained =
    prefetched ??
    (taken ? await drainInboxItems(tx, row.id, [...taken.keys()]) : await drainInbox(tx, row.id));
  const items = taken ? [...drained].sort((a, b) => taken.get(a.id)! - taken.get(b.id)!) : drained;
  if (prefetched) await consumeInboxItems(tx, prefetched);
  if (items.length === 0) {
    if (row.status === "running") return { kind: "run", row, drained: [] };
    await parkThread(ctx, tx, row, null, {});
    return { kind: "parked" };
  }
  const stored = await ctx.commits.insert(tx, row.id, inputMessages(items, isHumanChat));
  const humanWrote = items.some((item) => item.payload.fromHuman);
  const execution = runStartedBy(
    row.execution,
    isHumanChat,
    items[0]!.payload.role,
    humanWrote,
    stored[0]!.seq,
  );
  // Computed here (pipelined); the message_seq the insert above reached goes out with it.
  const updated = await startRun(
    tx,
    { ...row, message_seq: stored.at(-1)!.seq },
    ctx.commits.withMessageSeq(row.id, { execution }),
    humanWrote,
    { consumesInput: prefetched !== null },
  );
  await appendEvents(tx, [...stored.map((message) => messageEvent(updated, message)), threadEvent(updated)]);
  ctx.memory.run(row.id, true);
  return { kind: "run", row: updated, drained: stored };
}

/** The drained input as the thread's messages, on the side each role is stored on. */
function inputMessages(items: readonly InboxItem[], isHumanChat: boolean): NewMessage[] {
  return items.map((item) => ({
    id: item.payload.messageId,
    role: item.payload.role,
    side: inputSide(item.payload.role, isHumanChat),
    content: item.payload.content,
    silent: item.payload.silent,
    metadata: item.payload.metadata,
    attachments: item.payload.attachments,
    subagent_id:
      typeof item.payload.metadata.subagent_id === "string" ? item.payload.metadata.subagent_id : null,
  }));
}

/**
 * The input read with the row that this drain takes, or null to drain from the inbox instead. A
 * replay's plan (`only`) is read after the row: when it names an input the row's read had not seen
 * (a child's report committed in between, whose wake-up has not moved the row yet, so the commit's
 * version check passes), the drain reads the inbox so that input is not left behind.
 */
export function prefetchedInput(
  pending: readonly InboxItem[],
  taken: ReadonlyMap<string, number> | null,
): InboxItem[] | null {
  if (!taken) return [...pending];
  const seen = pending.filter((item) => taken.has(item.id));
  return seen.length === taken.size ? seen : null;
}
