// Context assembly (spec runtime §4), pure: stored messages → the messages one side's model sees.
// - The acting side sees its own messages as `assistant` and everything else as `user`, and only
//   its own tool calls and results (dual_ai); input from outside (a human, a parent) is `user`.
// - includeChat: false shows only the current turn (what triggered it and the side's own work in
//   it): the 0.1.0 runtime would otherwise send a chat prompt no user message at all.
// - includePastTools: false hides tool calls and results of earlier turns; the current turn's stay
//   visible, or a model could never read the result of the tool it just called.
// - Sub-prompt messages (depth > 0) never reach a parent's context; stored system notes do not either.
import type { ModelContentPart, ModelMessage } from "../models/types";
import type { AttachmentRef, Side, StoredMessage } from "../store/messages";
import { extendsHistory } from "./history-prefix";

export interface ContextOptions {
  includeChat: boolean;
  includePastTools: boolean;
  recentImageThreshold: number;
}

export interface AssembleContextInput {
  systemPrompt: string;
  /** Extra system text appended to the system prompt (e.g. the child registry). */
  systemAppendix?: string;
  messages: readonly StoredMessage[];
  actingSide: Side;
  turnStartSeq: number;
  options: ContextOptions;
  /** Base64 image data by file path, for recent user messages with image attachments. */
  imageData?: ReadonlyMap<string, string>;
}

export const UNANSWERED_TOOL_CALL_RESULT = "Tool call was not answered.";

function attachmentNote(attachments: readonly AttachmentRef[], images: boolean): string {
  const files = attachments.filter((file) => images || !file.mimeType.startsWith("image/"));
  return files.length === 0 ? "" : `[Attached files: ${files.map((file) => file.path).join(", ")}]`;
}

function withNote(content: string, note: string): string {
  if (!note) return content;
  return content ? `${content}\n\n${note}` : note;
}

/**
 * What context assembly remembers of one thread and side between its steps, so that a long
 * conversation's next step builds and compares only its new messages (beyond pointer comparisons
 * and copies of the history array: microseconds for thousands of messages; docs/runtime.md "Long
 * conversations"): the messages it was given last, the first pass's state after them, and the part
 * of the completed context no later message can change. Used only while the call is an extension
 * of the last one — the same side and options, a history that starts with the very message objects
 * seen last, no image data, and a turn start that changes no remembered message's visibility —
 * otherwise assembly starts over (same result, O(history)). The messages it returns for the
 * unchanged prefix are the same objects as last time, so the request log's delta is cheap too.
 * Not shared between threads; owned by the thread's run memory (ThreadCache.contexts).
 */
export interface ContextMemo {
  /** The history of the last call, and the key of its side and options (null: nothing to go on from). */
  fed: readonly StoredMessage[];
  key: string | null;
  turnStartSeq: number;
  /** The first pass's state after `fed`. */
  pass: FirstPass;
  /** The highest seq in `fed` of a message with tool calls or a tool result. */
  lastTurnBoundSeq: number;
  /** The second pass's output for `pass.result[0, settledUpTo)`, which later messages cannot change. */
  settled: ModelMessage[];
  settledUpTo: number;
}

export function newContextMemo(): ContextMemo {
  return {
    fed: [],
    key: null,
    turnStartSeq: 0,
    pass: newFirstPass(),
    lastTurnBoundSeq: Number.NEGATIVE_INFINITY,
    settled: [],
    settledUpTo: 0,
  };
}

/** The first pass's state: its output so far and the tool calls offered and answered in it. */
export interface FirstPass {
  result: ModelMessage[];
  answered: Set<string>;
  offered: Set<string>;
}

function newFirstPass(): FirstPass {
  return { result: [], answered: new Set(), offered: new Set() };
}

/** A message whose place in the context may depend on the turn start (includePastTools: false). */
function dependsOnTurn(message: StoredMessage): boolean {
  return message.role === "tool" || (message.tool_calls?.length ?? 0) > 0;
}

/** Whether `memo` can go on from where it stopped for this call (see ContextMemo). */
function canContinue(memo: ContextMemo, input: AssembleContextInput, key: string): boolean {
  if (memo.key !== key || !extendsHistory(memo.fed, input.messages)) return false;
  if (input.turnStartSeq === memo.turnStartSeq) return true;
  // Without the chat, every message's visibility depends on the turn start.
  if (!input.options.includeChat) return false;
  if (input.options.includePastTools) return true;
  // Messages with tool calls or results show or hide with the turn start: none may lie between.
  return memo.lastTurnBoundSeq < Math.min(memo.turnStartSeq, input.turnStartSeq);
}

// The first pass (`feed`, one message at a time) decides visibility, roles per side, images and
// which tool results answer an offered call; the second (`complete`) pairs calls with results.
export function assembleContext(input: AssembleContextInput, memo?: ContextMemo): ModelMessage[] {
  const { actingSide, options } = input;
  const withImages = input.imageData !== undefined && input.imageData.size > 0;
  const key = `${actingSide}|${options.includeChat}|${options.includePastTools}`;
  const remembered = memo && !withImages && canContinue(memo, input, key) ? { ...memo } : null;
  // Until this call is done the memo holds nothing to go on from (its first pass is updated in place).
  if (memo) Object.assign(memo, newContextMemo());
  const pass = remembered ? remembered.pass : newFirstPass();
  const from = remembered ? remembered.fed.length : 0;
  const imageCarriers = withImages ? imageCarriersOf(input) : null;
  let lastTurnBoundSeq = remembered ? remembered.lastTurnBoundSeq : Number.NEGATIVE_INFINITY;
  for (let index = from; index < input.messages.length; index += 1) {
    const message = input.messages[index] as StoredMessage;
    if (dependsOnTurn(message) && message.seq > lastTurnBoundSeq) lastTurnBoundSeq = message.seq;
    feed(pass, message, input, imageCarriers);
  }

  const { completed, settled, settledUpTo } = complete(
    pass.result,
    remembered ? remembered.settled : [],
    remembered ? remembered.settledUpTo : 0,
  );
  // Image parts depend on the whole history (its most recent carriers): nothing to go on from then.
  if (memo && !withImages) {
    Object.assign(memo, {
      fed: input.messages.slice(), // a copy: callers append to their history arrays
      key,
      turnStartSeq: input.turnStartSeq,
      pass,
      lastTurnBoundSeq,
      settled,
      settledUpTo,
    } satisfies ContextMemo);
  }

  const system = input.systemAppendix
    ? `${input.systemPrompt}\n\n${input.systemAppendix}`
    : input.systemPrompt;
  return [{ role: "system", content: system }, ...completed];
}

/** Which user-role messages may carry images: the most recent N that have image attachments. */
function imageCarriersOf(input: AssembleContextInput): Set<string> {
  const { actingSide, turnStartSeq, options } = input;
  return new Set(
    input.messages
      .filter(
        (message) =>
          message.depth === 0 &&
          message.role !== "system" &&
          (options.includeChat || message.seq >= turnStartSeq) &&
          message.side !== actingSide &&
          message.attachments.some((file) => file.mimeType.startsWith("image/")),
      )
      .slice(options.recentImageThreshold > 0 ? -options.recentImageThreshold : Number.MAX_SAFE_INTEGER)
      .map((message) => message.id),
  );
}

/** The first pass for one stored message: what it adds to the context, if anything. */
function feed(
  pass: FirstPass,
  message: StoredMessage,
  input: AssembleContextInput,
  imageCarriers: Set<string> | null,
): void {
  const { actingSide, turnStartSeq, options } = input;
  if (message.depth !== 0 || message.role === "system") return;
  if (!options.includeChat && message.seq < turnStartSeq) return;
  const ownToolsVisible = options.includePastTools || message.seq >= turnStartSeq;
  const { result, answered, offered } = pass;
  if (message.role === "tool") {
    if (message.side !== actingSide || !ownToolsVisible || !message.tool_call_id) return;
    if (!offered.has(message.tool_call_id) || answered.has(message.tool_call_id)) return; // orphan or duplicate
    answered.add(message.tool_call_id);
    result.push({
      role: "tool",
      toolCallId: message.tool_call_id,
      toolName: message.name ?? "",
      content: message.content ?? "",
      isError: message.tool_status === "error",
    });
    return;
  }
  // Input from outside the sides (side null) written as `assistant` (e.g. injected) belongs to side A.
  const own = (message.side ?? (message.role === "assistant" ? "a" : null)) === actingSide;
  if (own) {
    const calls = ownToolsVisible ? (message.tool_calls ?? []) : [];
    const content = message.content ?? "";
    if (!content && calls.length === 0) return;
    for (const call of calls) offered.add(call.id);
    result.push({
      role: "assistant",
      content,
      ...(calls.length > 0
        ? {
            toolCalls: calls.map((call) => ({
              id: call.id,
              name: call.function.name,
              args: safeParse(call.function.arguments),
            })),
          }
        : {}),
    });
    return;
  }
  const images = imageCarriers?.has(message.id) && input.imageData;
  const text = withNote(message.content ?? "", attachmentNote(message.attachments, !images));
  const imageParts: ModelContentPart[] = images
    ? message.attachments.flatMap((file) => {
        const data = file.mimeType.startsWith("image/") ? input.imageData?.get(file.path) : undefined;
        return data ? [{ type: "image" as const, mimeType: file.mimeType, data }] : [];
      })
    : [];
  if (!text && imageParts.length === 0) return;
  result.push({
    role: "user",
    content:
      imageParts.length > 0 ? [...(text ? [{ type: "text" as const, text }] : []), ...imageParts] : text,
  });
}

/**
 * The second pass: every offered call gets its results right after it (a message injected while
 * tools ran moves after them), and a call without a result gets a synthetic one, so providers
 * accept the history. A call's results are looked for up to the next message with calls, so what
 * this pass makes of `result` before its last message with calls can no longer change: that part
 * (`settled`, made of `result[0, settledUpTo)`) is handed back and passed in again next time.
 */
function complete(
  result: readonly ModelMessage[],
  settledBefore: readonly ModelMessage[],
  settledBeforeUpTo: number,
): { completed: ModelMessage[]; settled: ModelMessage[]; settledUpTo: number } {
  const completed = settledBefore.slice();
  let settledLength = -1;
  let settledUpTo = result.length;
  const moved = new Set<number>();
  for (let index = settledBeforeUpTo; index < result.length; index += 1) {
    if (moved.has(index)) continue;
    const message = result[index] as ModelMessage;
    if (message.role !== "assistant" || !message.toolCalls) {
      completed.push(message);
      continue;
    }
    settledLength = completed.length;
    settledUpTo = index;
    completed.push(message);
    const open = new Map(message.toolCalls.map((call) => [call.id, call]));
    for (let next = index + 1; next < result.length && open.size > 0; next += 1) {
      const candidate = result[next] as ModelMessage;
      if (candidate.role === "assistant" && candidate.toolCalls) break;
      if (candidate.role !== "tool" || !open.has(candidate.toolCallId) || moved.has(next)) continue;
      completed.push(candidate);
      moved.add(next);
      open.delete(candidate.toolCallId);
    }
    for (const call of open.values()) {
      completed.push({
        role: "tool",
        toolCallId: call.id,
        toolName: call.name,
        content: UNANSWERED_TOOL_CALL_RESULT,
        isError: true,
      });
    }
  }
  // `completed` is never handed out itself (assembleContext copies it behind the system message).
  return {
    completed,
    settled: settledLength < 0 ? completed : completed.slice(0, settledLength),
    settledUpTo,
  };
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
