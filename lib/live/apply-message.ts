// Applies `message` and `message_chunk` events: transcripts ordered by seq with one entry per
// message id (a replay or an update replaces, never duplicates), and streamed text that gives way
// to the persisted message carrying the same id. Work is O(the changed thread's transcript).
import type { LiveMessage } from "./events";
import { emptyMap, getEntry, setEntry } from "./persistent-map";
import type { LiveState, Transcript } from "./state";

const EMPTY_TRANSCRIPT: Transcript = { messages: [], seqById: emptyMap() };

/** What orders a transcript: seq, then id for the (never expected) case of equal seqs. */
type MessageKey = Pick<LiveMessage, "seq" | "id">;

function comesBefore(left: MessageKey, right: MessageKey): boolean {
  return left.seq < right.seq || (left.seq === right.seq && left.id < right.id);
}

/** The index at which `message` belongs (binary search; the common case, an append, is the end). */
function positionFor(messages: readonly LiveMessage[], message: MessageKey): number {
  const last = messages.at(-1);
  if (last === undefined || comesBefore(last, message)) return messages.length;
  let low = 0;
  let high = messages.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (comesBefore(messages[middle]!, message)) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** Where the stored message with this id is (seqById always holds the seq it is stored under), or -1. */
function indexOfStored(transcript: Transcript, id: string): number {
  const seq = getEntry(transcript.seqById, id);
  return seq === undefined ? -1 : positionFor(transcript.messages, { seq, id });
}

export function upsertMessage(transcript: Transcript, message: LiveMessage): Transcript {
  const existing = indexOfStored(transcript, message.id);
  const without =
    existing === -1
      ? transcript.messages
      : [...transcript.messages.slice(0, existing), ...transcript.messages.slice(existing + 1)];
  const at = positionFor(without, message);
  return {
    messages: [...without.slice(0, at), message, ...without.slice(at)],
    seqById: setEntry(transcript.seqById, message.id, message.seq),
  };
}

export function applyMessage(state: LiveState, threadId: string, message: LiveMessage): LiveState {
  const transcript = getEntry(state.transcripts, threadId) ?? EMPTY_TRANSCRIPT;
  return {
    ...state,
    transcripts: setEntry(state.transcripts, threadId, upsertMessage(transcript, message)),
    streaming: dropStream(state, threadId, message.id),
    streamSides: dropSide(state.streamSides, message.id),
  };
}

function dropSide(sides: LiveState["streamSides"], messageId: string): LiveState["streamSides"] {
  if (sides[messageId] === undefined) return sides;
  const { [messageId]: _persisted, ...rest } = sides;
  return rest;
}

function dropStream(state: LiveState, threadId: string, messageId: string): LiveState["streaming"] {
  const streams = getEntry(state.streaming, threadId);
  if (streams?.[messageId] === undefined) return state.streaming;
  const { [messageId]: _finished, ...rest } = streams;
  return setEntry(state.streaming, threadId, rest);
}

export function applyChunk(
  state: LiveState,
  threadId: string,
  messageId: string,
  chunk: string,
  side?: "a" | "b",
): LiveState {
  // Chunks travel outside the event log, so one can arrive after its message was persisted.
  const transcript = getEntry(state.transcripts, threadId);
  if (transcript && getEntry(transcript.seqById, messageId) !== undefined) return state;
  const streams = getEntry(state.streaming, threadId) ?? {};
  return {
    ...state,
    streaming: setEntry(state.streaming, threadId, {
      ...streams,
      [messageId]: (streams[messageId] ?? "") + chunk,
    }),
    // The side a stream speaks for, once known: a message id is never reused, so it never changes.
    streamSides:
      side && state.streamSides[messageId] !== side
        ? { ...state.streamSides, [messageId]: side }
        : state.streamSides,
  };
}
