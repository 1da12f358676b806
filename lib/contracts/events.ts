// The payloads of the event stream (API.md "Events (SSE)"), declared once: the runtime builds its
// events with these types (runtime/store/thread-events.ts, runtime/store/event-log.ts,
// runtime/store/registry-store.ts) and the browser parses them with these schemas
// (lib/live/events.ts). The `thread` and `message` payloads are the views of thread.ts and message.ts.
import { z } from "zod";
import { MessageViewSchema } from "./message";

const microseconds = z.number().finite();

/** SubagentRegistryEntry (spec §7.11) plus the child's agent and thread status, as the server sends it. */
export const RegistryEntrySchema = z.object({
  reference: z.string().min(1),
  name: z.string(),
  title: z.string().optional(),
  description: z.string(),
  resumable: z.boolean(),
  blocking: z.boolean(),
  threadName: z.string().optional(),
  spawnGroupId: z.string().optional(),
  createdAt: microseconds,
  status: z.string(),
  parentCommunication: z.enum(["implicit", "explicit"]),
  agent: z.string(),
  threadStatus: z.string(),
});
export type RegistryEntry = z.infer<typeof RegistryEntrySchema>;

const ThreadScopedSchema = z.object({ thread_id: z.string().min(1) });

/** The `message` event payload. */
export const MessagePayloadSchema = ThreadScopedSchema.extend({ message: MessageViewSchema });
export type MessagePayload = z.input<typeof MessagePayloadSchema>;

/** The `message_chunk` event payload (ephemeral, no id). */
export const ChunkPayloadSchema = ThreadScopedSchema.extend({
  message_id: z.string().min(1),
  chunk: z.string(),
  /** The side whose reply streams (absent from servers that predate it). */
  side: z.enum(["a", "b"]).optional(),
});
export type ChunkPayload = z.input<typeof ChunkPayloadSchema>;

/**
 * The `registry` event payload. API.md documents `{ thread_id, children }`; `partial` (absent = a
 * full registry) and `total` come with large registries.
 */
export const RegistryPayloadSchema = ThreadScopedSchema.extend({
  children: z.array(RegistryEntrySchema),
  partial: z.boolean().default(false),
  total: z.number().int().nonnegative().optional(),
});
export type RegistryPayload = z.input<typeof RegistryPayloadSchema>;

/**
 * The telemetry kinds: what the runtime sends and what the live view reads. A client keeps any other
 * `type` as `other`, so a kind added here never breaks an older stream reader.
 */
export const TelemetrySchema = z.discriminatedUnion("type", [
  z.object({
    type: z.literal("step_started"),
    step: z.number().int(),
    side: z.enum(["a", "b"]),
  }),
  z.object({
    type: z.literal("step_completed"),
    step: z.number().int().optional(),
    side: z.enum(["a", "b"]).optional(),
  }),
  z.object({ type: z.literal("llm_request"), model: z.string(), attempt: z.number().int() }),
  z.object({ type: z.literal("llm_response"), model: z.string(), tokens: z.number(), latency: z.number() }),
  z.object({ type: z.literal("llm_error"), model: z.string(), attempt: z.number().int(), error: z.string() }),
  z.object({ type: z.literal("fallback_triggered"), from: z.string(), to: z.string() }),
  /**
   * A model call waits before its next attempt (docs/runtime.md "Provider trouble"): rate limited by
   * its provider, the provider unavailable (5xx, no connection, its breaker open), or another error.
   * `provider` is the provider and its base URL's host; `attempt` the failed attempt (0: none yet).
   */
  z.object({
    type: z.literal("model_wait"),
    model: z.string(),
    provider: z.string(),
    reason: z.enum(["rate_limited", "unavailable", "error"]),
    attempt: z.number().int().nonnegative(),
    delay_ms: z.number().nonnegative(),
  }),
  z.object({ type: z.literal("tool_started"), tool: z.string() }),
  z.object({ type: z.literal("tool_completed"), tool: z.string(), status: z.string() }),
  z.object({
    type: z.literal("stopped"),
    reason: z.string(),
    side: z.enum(["a", "b"]).nullable().default(null),
  }),
  z.object({
    type: z.literal("agent_handoff"),
    new_agent_id: z.string(),
    new_agent_title: z.string().nullable().default(null),
  }),
]);
/** One telemetry record as the runtime writes it (before the envelope). */
export type TelemetryData = z.input<typeof TelemetrySchema>;

/** Every telemetry event carries its thread and a timestamp (microseconds). */
export const TelemetryEnvelopeSchema = ThreadScopedSchema.extend({
  type: z.string().min(1),
  timestamp: microseconds,
});
/** The `telemetry` event payload. */
export type TelemetryPayload = TelemetryData & { thread_id: string; timestamp: number };
