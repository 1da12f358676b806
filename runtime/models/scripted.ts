// The scripted model provider (API.md "The scripted model provider"): deterministic answers from a model's `script`.
import type { ModelDefinition, ScriptStep } from "@/lib/standard";
import { abortableSleep } from "./abortable-sleep";
import { ModelProviderError } from "./errors";
import { interpolateDeep, interpolateText, messageText, placeholdersFor } from "./scripted-interpolation";
import type { ModelCallRequest, ModelMessage, ModelToolCall, ModelUsage, ProviderAnswer } from "./types";

export const SCRIPT_EXHAUSTED_TEXT = "(script exhausted)";

/** A delayed answer streams its text in at least this many pieces (fewer for very short texts)… */
const DELAYED_TEXT_CHUNKS = 4;
/** …and in one piece about every this many milliseconds for longer delays, so a reply visibly streams. */
const DELAYED_CHUNK_INTERVAL_MS = 80;
const MAX_DELAYED_TEXT_CHUNKS = 40;

/** How many pieces a text delayed by `delayMs` streams in. */
export function delayedChunkCount(delayMs: number): number {
  return Math.max(
    DELAYED_TEXT_CHUNKS,
    Math.min(MAX_DELAYED_TEXT_CHUNKS, Math.round(delayMs / DELAYED_CHUNK_INTERVAL_MS)),
  );
}
const CHARACTERS_PER_TOKEN = 4;

/**
 * Which step answers call number `index` (counting from 0): the index itself within the script; past
 * the end, with `scriptLoopFrom`, the steps from there on again and again; otherwise none (undefined).
 */
export function scriptPosition(
  definition: Pick<ModelDefinition, "script" | "scriptLoopFrom">,
  index: number,
): number | undefined {
  const length = definition.script?.length ?? 0;
  if (index < length) return index;
  const from = definition.scriptLoopFrom;
  if (from === undefined || from >= length) return undefined;
  return from + ((index - length) % (length - from));
}

/** The step answering call number `index` (counting from 0); past the end of a script that does not loop, the exhausted answer. */
export function scriptStepAt(
  definition: Pick<ModelDefinition, "script" | "scriptLoopFrom">,
  index: number,
): ScriptStep {
  const position = scriptPosition(definition, index);
  return (
    (position === undefined ? undefined : definition.script?.[position]) ?? { text: SCRIPT_EXHAUSTED_TEXT }
  );
}

/** Ids are derived from the call index and the position in the step, so a replayed call yields the same ids. */
export function scriptedToolCallId(callIndex: number, position: number): string {
  return `call_${callIndex}_${position}`;
}

/** Usage as a real provider would report it, at roughly four characters per token. */
export function estimateScriptedUsage(
  messages: ModelMessage[],
  text: string,
  toolCalls: ModelToolCall[],
): ModelUsage {
  let inputCharacters = 0;
  // A plain loop: a long conversation's prompt has thousands of messages, estimated every call.
  for (const message of messages)
    inputCharacters +=
      typeof message.content === "string" ? message.content.length : messageText(message).length;
  const outputCharacters = text.length + (toolCalls.length > 0 ? JSON.stringify(toolCalls).length : 0);
  return {
    inputTokens: Math.ceil(inputCharacters / CHARACTERS_PER_TOKEN),
    outputTokens: Math.ceil(outputCharacters / CHARACTERS_PER_TOKEN),
    cachedInputTokens: 0,
  };
}

/** Splits text into up to `count` consecutive pieces of near-equal length (whole code points). */
export function splitIntoChunks(text: string, count: number): string[] {
  const characters = Array.from(text);
  const pieces = Math.max(1, Math.min(count, characters.length));
  const size = Math.ceil(characters.length / pieces);
  const chunks: string[] = [];
  for (let start = 0; start < characters.length; start += size) {
    chunks.push(characters.slice(start, start + size).join(""));
  }
  return chunks;
}

export async function callScriptedModel(
  definition: ModelDefinition,
  request: ModelCallRequest,
): Promise<ProviderAnswer> {
  const callIndex = request.scriptedCallIndex ?? 0;
  const step = scriptStepAt(definition, callIndex);
  const placeholders = placeholdersFor(request.messages);
  if (step.error !== undefined) {
    // A failing step streams nothing: a failed attempt must not leave partial text behind.
    if (step.delayMs) await abortableSleep(step.delayMs, request.abortSignal);
    throw new ModelProviderError(definition.name, step.error, { scripted: true, callIndex });
  }

  const text = step.text === undefined ? "" : interpolateText(step.text, placeholders);
  await streamText(text, step.delayMs ?? 0, request);

  const toolCalls: ModelToolCall[] = (step.toolCalls ?? []).map((call, position) => ({
    id: scriptedToolCallId(callIndex, position),
    name: call.name,
    args: interpolateDeep(call.args, placeholders),
  }));
  return { text, toolCalls, usage: estimateScriptedUsage(request.messages, text, toolCalls) };
}

/**
 * Emits the text through onTextDelta: at once without a delay, otherwise in pieces spread over the
 * delay. One timer at a time and one abort listener for the whole answer (not one per piece: a 1 s
 * answer streams in 13 pieces, and adding and removing an AbortSignal listener is not free).
 */
async function streamText(text: string, delayMs: number, request: ModelCallRequest): Promise<void> {
  if (delayMs <= 0) {
    if (text !== "") request.onTextDelta?.(text);
    return;
  }
  const chunks = text === "" ? [] : splitIntoChunks(text, delayedChunkCount(delayMs));
  if (chunks.length === 0) return abortableSleep(delayMs, request.abortSignal);
  const pause = delayMs / chunks.length;
  const signal = request.abortSignal;
  return new Promise<void>((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    let sent = 0;
    let timer: ReturnType<typeof setTimeout>;
    const settle = (error?: unknown) => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      if (error === undefined) resolve();
      else reject(error);
    };
    const onAbort = () => settle(signal?.reason);
    const next = () => {
      try {
        request.onTextDelta?.(chunks[sent] as string);
      } catch (error) {
        settle(error);
        return;
      }
      sent += 1;
      if (sent === chunks.length) settle();
      else timer = setTimeout(next, pause);
    };
    timer = setTimeout(next, pause);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
