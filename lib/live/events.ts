// The wire events of `GET /api/threads/:id/events` (API.md "Events (SSE)"), parsed with zod. The
// payload schemas are declared once in lib/contracts/ (events.ts, thread.ts, message.ts), where the
// runtime's event builders take their types from too: unknown extra fields are accepted (and
// dropped), fields the live view reads are checked. A bad
// frame comes back as a `LiveEventError` value, never as an exception, so one odd event cannot blank
// the live view.
import type { z } from "zod";
import { ApprovalPayloadSchema, type ApprovalView } from "@/lib/contracts/approval";
import {
  ChunkPayloadSchema,
  MessagePayloadSchema,
  type RegistryEntry,
  RegistryPayloadSchema,
  TelemetryEnvelopeSchema,
  TelemetrySchema,
} from "@/lib/contracts/events";
import { MessageViewSchema, type MessageViewWire } from "@/lib/contracts/message";
import { type Divergence, DivergencePayloadSchema } from "@/lib/contracts/replay";
import { ThreadViewSchema, type ThreadViewWire } from "@/lib/contracts/thread";

export {
  THREAD_STATUSES,
  type ThreadStatus,
  ThreadStatusSchema,
  type Usage,
  UsageSchema,
} from "@/lib/contracts/thread";

/** The `thread` event payload: the thread's wire shape (lib/contracts/thread.ts). */
export const LiveThreadSchema = ThreadViewSchema;
export type LiveThread = ThreadViewWire;

export { AttachmentSchema } from "@/lib/contracts/message";

/** The `message` event payload: a message's wire shape (lib/contracts/message.ts). */
export const LiveMessageSchema = MessageViewSchema;
export type LiveMessage = MessageViewWire;

export {
  type ChunkPayload,
  ChunkPayloadSchema,
  type MessagePayload,
  MessagePayloadSchema,
  type RegistryEntry,
  RegistryEntrySchema,
  type RegistryPayload,
  RegistryPayloadSchema,
  TelemetrySchema,
} from "@/lib/contracts/events";

export type Telemetry = z.infer<typeof TelemetrySchema> | { type: "other"; name: string };

const KNOWN_TELEMETRY: ReadonlySet<string> = new Set(
  TelemetrySchema.options.map((option) => option.shape.type.value),
);

/** A persisted event carries the log id (`id:` line); `null` for events with none (chunks, local snapshots). */
export type EventId = number | null;

export type LiveEvent =
  | { type: "thread"; id: EventId; thread: LiveThread }
  | { type: "message"; id: EventId; threadId: string; message: LiveMessage }
  | {
      type: "message_chunk";
      id: null;
      threadId: string;
      messageId: string;
      chunk: string;
      side?: "a" | "b";
    }
  | {
      type: "registry";
      id: EventId;
      threadId: string;
      children: RegistryEntry[];
      partial: boolean;
      total?: number;
    }
  | { type: "telemetry"; id: EventId; threadId: string; timestamp: number; telemetry: Telemetry }
  | { type: "approval"; id: EventId; threadId: string; approval: ApprovalView }
  | { type: "divergence"; id: EventId; threadId: string; divergence: Divergence };

export type LiveEventErrorCode = "invalid_id" | "invalid_json" | "unknown_event" | "invalid_payload";

export interface LiveEventError {
  code: LiveEventErrorCode;
  /** The SSE event name as received. */
  event: string;
  id: EventId;
  message: string;
}

export type LiveEventParseResult = { ok: true; event: LiveEvent } | { ok: false; error: LiveEventError };

/** One SSE frame as an EventSource delivers it (`MessageEvent.type`, `.data`, `.lastEventId`). */
export interface SseFrame {
  event: string;
  data: string;
  id?: string | null;
}

function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.join(".") || "(payload)"}: ${issue.message}`)
    .join("; ");
}

function parseEventId(raw: string | null | undefined): EventId | undefined {
  if (raw === undefined || raw === null || raw.trim() === "") return null;
  return /^\d+$/.test(raw.trim()) ? Number(raw) : undefined; // Number() skips the same white space
}

/** Parses one frame: the `id:` line, the JSON data, then the payload for its event name. */
export function parseSseFrame(frame: SseFrame): LiveEventParseResult {
  const id = parseEventId(frame.id);
  if (id === undefined) {
    const message = `Event id ${JSON.stringify(frame.id)} is not a non-negative integer.`;
    return { ok: false, error: { code: "invalid_id", event: frame.event, id: null, message } };
  }
  let data: unknown;
  try {
    data = JSON.parse(frame.data);
  } catch {
    return {
      ok: false,
      error: { code: "invalid_json", event: frame.event, id, message: "The event data is not JSON." },
    };
  }
  return parseLiveEvent(frame.event, id, data);
}

/** Parses an event whose data is already decoded (e.g. from a test or a stored log row). */
export function parseLiveEvent(event: string, id: EventId, data: unknown): LiveEventParseResult {
  const fail = (code: LiveEventErrorCode, message: string): LiveEventParseResult => ({
    ok: false,
    error: { code, event, id, message },
  });
  const invalid = (error: z.ZodError) =>
    fail("invalid_payload", `Malformed ${event} event: ${describeIssues(error)}`);
  switch (event) {
    case "thread": {
      const parsed = LiveThreadSchema.safeParse(data);
      return parsed.success
        ? { ok: true, event: { type: "thread", id, thread: parsed.data } }
        : invalid(parsed.error);
    }
    case "message": {
      const parsed = MessagePayloadSchema.safeParse(data);
      if (!parsed.success) return invalid(parsed.error);
      return {
        ok: true,
        event: { type: "message", id, threadId: parsed.data.thread_id, message: parsed.data.message },
      };
    }
    case "message_chunk": {
      const parsed = ChunkPayloadSchema.safeParse(data);
      if (!parsed.success) return invalid(parsed.error);
      const { thread_id, message_id, chunk, side } = parsed.data;
      // Chunks have no id line, but EventSource reports the last id it saw as `lastEventId` on
      // every event; a chunk must never move the resume cursor, so whatever came along is dropped.
      return {
        ok: true,
        event: {
          type: "message_chunk",
          id: null,
          threadId: thread_id,
          messageId: message_id,
          chunk,
          ...(side ? { side } : {}),
        },
      };
    }
    case "registry": {
      const parsed = RegistryPayloadSchema.safeParse(data);
      if (!parsed.success) return invalid(parsed.error);
      const { thread_id, children, partial, total } = parsed.data;
      return {
        ok: true,
        event: {
          type: "registry",
          id,
          threadId: thread_id,
          children,
          partial,
          ...(total === undefined ? {} : { total }),
        },
      };
    }
    case "telemetry":
      return parseTelemetry(id, data, fail, invalid);
    case "approval": {
      const parsed = ApprovalPayloadSchema.safeParse(data);
      if (!parsed.success) return invalid(parsed.error);
      return {
        ok: true,
        event: { type: "approval", id, threadId: parsed.data.thread_id, approval: parsed.data.approval },
      };
    }
    case "divergence": {
      const parsed = DivergencePayloadSchema.safeParse(data);
      if (!parsed.success) return invalid(parsed.error);
      return {
        ok: true,
        event: {
          type: "divergence",
          id,
          threadId: parsed.data.thread_id,
          divergence: parsed.data.divergence,
        },
      };
    }
    default:
      return fail("unknown_event", `Unknown event "${event}".`);
  }
}

function parseTelemetry(
  id: EventId,
  data: unknown,
  fail: (code: LiveEventErrorCode, message: string) => LiveEventParseResult,
  invalid: (error: z.ZodError) => LiveEventParseResult,
): LiveEventParseResult {
  const envelope = TelemetryEnvelopeSchema.safeParse(data);
  if (!envelope.success) return invalid(envelope.error);
  const { thread_id: threadId, timestamp, type } = envelope.data;
  if (!KNOWN_TELEMETRY.has(type)) {
    return {
      ok: true,
      event: { type: "telemetry", id, threadId, timestamp, telemetry: { type: "other", name: type } },
    };
  }
  const parsed = TelemetrySchema.safeParse(data);
  if (!parsed.success)
    return fail("invalid_payload", `Malformed ${type} telemetry: ${describeIssues(parsed.error)}`);
  return { ok: true, event: { type: "telemetry", id, threadId, timestamp, telemetry: parsed.data } };
}
