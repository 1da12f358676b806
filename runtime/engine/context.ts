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

// Long (~110 lines) on purpose: a pure, single pass over the history that decides visibility,
// roles per side, images and tool-call pairing together; its rules depend on each other's state
// (offered and answered calls, the turn's start).
export function assembleContext(input: AssembleContextInput): ModelMessage[] {
  const { actingSide, turnStartSeq, options } = input;
  const visible = input.messages.filter(
    (message) =>
      message.depth === 0 &&
      message.role !== "system" &&
      (options.includeChat || message.seq >= turnStartSeq),
  );
  const ownToolsVisible = (message: StoredMessage) => options.includePastTools || message.seq >= turnStartSeq;

  // Which user-role messages may carry images: the most recent N that have image attachments.
  const imageCarriers = new Set(
    visible
      .filter(
        (message) =>
          message.side !== actingSide &&
          message.attachments.some((file) => file.mimeType.startsWith("image/")),
      )
      .slice(options.recentImageThreshold > 0 ? -options.recentImageThreshold : Number.MAX_SAFE_INTEGER)
      .map((message) => message.id),
  );

  const result: ModelMessage[] = [];
  const answered = new Set<string>();
  const offered = new Set<string>();
  for (const message of visible) {
    if (message.role === "tool") {
      if (message.side !== actingSide || !ownToolsVisible(message) || !message.tool_call_id) continue;
      if (!offered.has(message.tool_call_id) || answered.has(message.tool_call_id)) continue; // orphan or duplicate
      answered.add(message.tool_call_id);
      result.push({
        role: "tool",
        toolCallId: message.tool_call_id,
        toolName: message.name ?? "",
        content: message.content ?? "",
        isError: message.tool_status === "error",
      });
      continue;
    }
    // Input from outside the sides (side null) written as `assistant` (e.g. injected) belongs to side A.
    const own = (message.side ?? (message.role === "assistant" ? "a" : null)) === actingSide;
    if (own) {
      const calls = ownToolsVisible(message) ? (message.tool_calls ?? []) : [];
      const content = message.content ?? "";
      if (!content && calls.length === 0) continue;
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
      continue;
    }
    const images = imageCarriers.has(message.id) && input.imageData;
    const text = withNote(message.content ?? "", attachmentNote(message.attachments, !images));
    const imageParts: ModelContentPart[] = images
      ? message.attachments.flatMap((file) => {
          const data = file.mimeType.startsWith("image/") ? input.imageData?.get(file.path) : undefined;
          return data ? [{ type: "image" as const, mimeType: file.mimeType, data }] : [];
        })
      : [];
    if (!text && imageParts.length === 0) continue;
    result.push({
      role: "user",
      content:
        imageParts.length > 0 ? [...(text ? [{ type: "text" as const, text }] : []), ...imageParts] : text,
    });
  }

  // Every offered call gets its results right after it (a message injected while tools ran moves
  // after them), and a call without a result gets a synthetic one, so providers accept the history.
  const completed: ModelMessage[] = [];
  const moved = new Set<number>();
  for (const [index, message] of result.entries()) {
    if (moved.has(index)) continue;
    completed.push(message);
    if (message.role !== "assistant" || !message.toolCalls) continue;
    const open = new Map(message.toolCalls.map((call) => [call.id, call]));
    for (let next = index + 1; next < result.length && open.size > 0; next += 1) {
      const candidate = result[next]!;
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

  const system = input.systemAppendix
    ? `${input.systemPrompt}\n\n${input.systemAppendix}`
    : input.systemPrompt;
  return [{ role: "system", content: system }, ...completed];
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
