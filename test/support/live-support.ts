// Factories for realistic wire events (the shapes runtime/store/thread-events.ts and
// runtime/store/registry-store.ts send, extra fields included) and a plain-object snapshot of
// the live state for equality checks. Test-only.
import type { SseFrame } from "../../lib/live/events";
import { hashKey, mapEntries } from "../../lib/live/persistent-map";
import { applySseFrame, initialLiveState } from "../../lib/live/reducer";
import type { LiveState } from "../../lib/live/state";

export const T0 = 1_760_000_000_000_000;

/** A deterministic, UUID-shaped id per label (two 32-bit hashes; distinct for every label the tests use). */
export function uuid(label: string): string {
  const hex = (text: string) => hashKey(text).toString(16).padStart(8, "0");
  const digits = `${hex(label)}${hex(`${label}#`)}`;
  return `${digits.slice(0, 8)}-${digits.slice(8, 12)}-4${digits.slice(13, 16)}-8000-${hex(label.length.toString())}0000`;
}

export interface ThreadWire {
  id: string;
  project_id: string;
  version: number;
  agent_id: string;
  parent_id: string | null;
  root_id: string;
  depth: number;
  name: string | null;
  status: string;
  status_text: string | null;
  stop_reason: string | null;
  terminated: number | null;
  created_at: number;
  updated_at: number;
  /** Optional on the wire (an older server sends none): when it last stopped working. */
  finished_at?: number | null;
  children: unknown[];
  result: string | null;
  failure: string | null;
  usage: { input_tokens: number; output_tokens: number; cost_usd: number };
}

export function threadWire(overrides: Partial<ThreadWire> & Pick<ThreadWire, "id">): ThreadWire {
  const createdAt = overrides.created_at ?? T0;
  return {
    project_id: uuid("project"),
    version: 3,
    agent_id: "coordinator",
    parent_id: null,
    root_id: overrides.id,
    depth: 0,
    name: null,
    status: "queued",
    status_text: null,
    stop_reason: null,
    terminated: null,
    created_at: createdAt,
    updated_at: createdAt,
    children: [],
    result: null,
    failure: null,
    usage: { input_tokens: 0, output_tokens: 0, cost_usd: 0 },
    ...overrides,
  };
}

export interface MessageWire {
  id: string;
  seq: number;
  role: "system" | "user" | "assistant" | "tool";
  side: "a" | "b" | null;
  content: string | null;
  name: string | null;
  tool_calls: string | null;
  tool_call_id: string | null;
  tool_status: "success" | "error" | null;
  parent_id: string | null;
  depth: number;
  silent: boolean;
  metadata: Record<string, unknown>;
  subagent_id: string | null;
  attachments: unknown[];
  created_at: number;
}

export function messageWire(overrides: Partial<MessageWire> & Pick<MessageWire, "id" | "seq">): MessageWire {
  return {
    role: "assistant",
    side: "a",
    content: `message ${overrides.seq}`,
    name: null,
    tool_calls: null,
    tool_call_id: null,
    tool_status: null,
    parent_id: null,
    depth: 0,
    silent: false,
    metadata: {},
    subagent_id: null,
    attachments: [],
    created_at: T0 + overrides.seq,
    ...overrides,
  };
}

export function toolCallsJson(calls: { id: string; name: string; args: unknown }[]): string {
  return JSON.stringify(
    calls.map((call) => ({
      id: call.id,
      type: "function",
      function: { name: call.name, arguments: JSON.stringify(call.args) },
    })),
  );
}

export interface RegistryEntryWire {
  reference: string;
  name: string;
  title?: string;
  description: string;
  resumable: boolean;
  blocking: boolean;
  threadName?: string;
  spawnGroupId?: string;
  createdAt: number;
  status: string;
  parentCommunication: "implicit" | "explicit";
  agent: string;
  threadStatus: string;
}

export function registryEntryWire(
  overrides: Partial<RegistryEntryWire> & Pick<RegistryEntryWire, "reference" | "name">,
): RegistryEntryWire {
  return {
    description: `Work for ${overrides.name}`,
    resumable: false,
    blocking: true,
    createdAt: T0,
    status: "running",
    parentCommunication: "implicit",
    agent: "worker",
    threadStatus: "queued",
    ...overrides,
  };
}

/** Builds the frames of one SSE stream, numbering persisted events like the event log does. */
export class EventScript {
  private nextId: number;
  readonly frames: SseFrame[] = [];

  constructor(firstId = 1) {
    this.nextId = firstId;
  }

  private persisted(event: string, data: unknown): SseFrame {
    const frame = { event, id: String(this.nextId++), data: JSON.stringify(data) };
    this.frames.push(frame);
    return frame;
  }

  thread(thread: ThreadWire): SseFrame {
    return this.persisted("thread", thread);
  }

  message(threadId: string, message: MessageWire): SseFrame {
    return this.persisted("message", { thread_id: threadId, message });
  }

  registry(
    parentId: string,
    children: RegistryEntryWire[],
    options: { partial?: boolean; total?: number } = {},
  ): SseFrame {
    return this.persisted("registry", {
      thread_id: parentId,
      children,
      partial: options.partial ?? false,
      ...(options.total === undefined ? {} : { total: options.total }),
    });
  }

  telemetry(threadId: string, data: Record<string, unknown>, timestamp = T0): SseFrame {
    return this.persisted("telemetry", { thread_id: threadId, ...data, timestamp });
  }

  /** Token chunks are live-only: no `id:` line. */
  chunk(threadId: string, messageId: string, chunk: string, side?: "a" | "b"): SseFrame {
    const frame = {
      event: "message_chunk",
      data: JSON.stringify({ thread_id: threadId, message_id: messageId, chunk, ...(side ? { side } : {}) }),
    };
    this.frames.push(frame);
    return frame;
  }
}

export function replayFrames(frames: Iterable<SseFrame>, state: LiveState): LiveState {
  let next = state;
  for (const frame of frames) next = applySseFrame(next, frame);
  return next;
}

export function stateFromFrames(rootId: string, frames: Iterable<SseFrame>): LiveState {
  return replayFrames(frames, initialLiveState(rootId));
}

function sortedRecord<V, W>(
  entries: Iterable<readonly [string, V]>,
  convert: (value: V) => W,
): Record<string, W> {
  return Object.fromEntries(
    [...entries]
      .sort(([left], [right]) => (left < right ? -1 : 1))
      .map(([key, value]) => [key, convert(value)]),
  );
}

/** The state as plain, key-sorted objects, so two states compare by content with toEqual. */
export function snapshotLiveState(state: LiveState) {
  return {
    rootId: state.rootId,
    lastEventId: state.lastEventId,
    threads: sortedRecord(mapEntries(state.threads), (thread) => thread),
    childrenByParent: sortedRecord(mapEntries(state.childrenByParent), (ids) => [...ids]),
    roots: [...state.roots],
    registries: sortedRecord(mapEntries(state.registries), (registry) => ({
      total: registry.total,
      entries: sortedRecord(mapEntries(registry.entries), (entry) => entry),
    })),
    transcripts: sortedRecord(mapEntries(state.transcripts), (transcript) => transcript.messages),
    streaming: sortedRecord(
      [...mapEntries(state.streaming)].filter(([, streams]) => Object.keys(streams).length > 0),
      (streams) => sortedRecord(Object.entries(streams), (text) => text),
    ),
    telemetry: sortedRecord(mapEntries(state.telemetry), (facts) => facts),
    statusCounts: state.statusCounts,
    activeThreadsByAgent: sortedRecord(Object.entries(state.activeThreadsByAgent), (count) => count),
    problems: state.problems,
  };
}

/** Freezes a value and everything reachable from it, so any later mutation throws (modules are strict). */
export function deepFreeze<T>(value: T): T {
  if (value === null || typeof value !== "object" || Object.isFrozen(value)) return value;
  Object.freeze(value);
  for (const child of Object.values(value)) deepFreeze(child);
  return value;
}

/** Parses a frame's id the way the reducer will see it, for tests that split streams by id. */
export function frameId(frame: SseFrame): number | null {
  return frame.id ? Number(frame.id) : null;
}
