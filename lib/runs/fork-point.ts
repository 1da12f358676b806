// Where a fork of a thread ends: the requested message, extended so that no assistant tool call is
// cut from its results (a fork never holds a call without its answer). Pure; the runtime's fork
// service (runtime/services/thread-fork.ts) applies it to the stored history, and replay can too.

/** The fields of a stored message the cut looks at. */
export interface ForkPointMessage {
  id: string;
  seq: number;
  role: string;
  /** 0 for the thread's own messages; sub-prompt messages (a prompt called as a tool) are deeper. */
  depth: number;
  tool_calls: readonly { id: string }[] | null;
  tool_call_id: string | null;
}

export type ForkCut =
  /**
   * Copy every message (of any depth) with `seq <= throughSeq`; `throughId` is the last top-level
   * one (null when nothing is copied: replacing the first message).
   */
  | { kind: "ok"; throughSeq: number; throughId: string | null; extended: boolean }
  | { kind: "not_found" }
  /** The message belongs to a sub-prompt call inside a tool call: fork from a top-level message. */
  | { kind: "nested" }
  /** A tool call up to the cut has no result yet (the thread is still working on it). */
  | { kind: "unanswered"; callId: string };

/**
 * The cut for a fork at `atMessageId`. When the message is an assistant message with tool calls, or
 * one result of several, the cut moves forward to include every result of every call before it
 * (and the sub-prompt messages between them), so the copy's history is consistent.
 *
 * With `replace`, the copy ends just before the message (a new message takes its place: "edit and
 * fork"); replacing a tool result, which would leave its call unanswered, is refused.
 */
export function forkCut(
  messages: readonly ForkPointMessage[],
  atMessageId: string,
  options: { replace?: boolean } = {},
): ForkCut {
  const found = messages.find((message) => message.id === atMessageId);
  if (!found) return { kind: "not_found" };
  if (found.depth > 0) return { kind: "nested" };
  const topLevel = messages.filter((message) => message.depth === 0);
  if (options.replace) {
    const previous = topLevel.filter((message) => message.seq < found.seq).at(-1);
    if (!previous) return { kind: "ok", throughSeq: 0, throughId: null, extended: false };
    const cut = forkCut(messages, previous.id);
    if (cut.kind === "ok" && cut.throughSeq >= found.seq)
      return { kind: "unanswered", callId: found.tool_call_id ?? "" };
    return cut.kind === "ok" ? { ...cut, extended: false } : cut;
  }
  const target = found;
  const resultSeq = new Map<string, number>();
  for (const message of topLevel) {
    if (message.role === "tool" && message.tool_call_id !== null && !resultSeq.has(message.tool_call_id))
      resultSeq.set(message.tool_call_id, message.seq);
  }
  let through = target.seq;
  for (const message of topLevel) {
    if (message.seq > through) break;
    for (const call of message.tool_calls ?? []) {
      const answered = resultSeq.get(call.id);
      if (answered === undefined) return { kind: "unanswered", callId: call.id };
      if (answered > through) through = answered;
    }
  }
  const last = topLevel.find((message) => message.seq === through) ?? target;
  return { kind: "ok", throughSeq: through, throughId: last.id, extended: through !== target.seq };
}
