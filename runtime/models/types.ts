// The model layer's contract with the engine: provider-neutral messages, tool specs, requests, results and telemetry.

import type { TelemetryData } from "@/lib/contracts/events";

export type ModelContentPart =
  | { type: "text"; text: string }
  | { type: "image"; mimeType: string; data: string /* base64 */ };

export type ModelMessage =
  | { role: "system"; content: string }
  | { role: "user"; content: string | ModelContentPart[] }
  | { role: "assistant"; content: string; toolCalls?: ModelToolCall[] }
  | { role: "tool"; toolCallId: string; toolName: string; content: string; isError?: boolean };

export interface ModelToolCall {
  id: string;
  name: string;
  /** The parsed JSON arguments; when the provider sent unparsable JSON, the raw string. */
  args: unknown;
}

export interface ModelToolSpec {
  name: string;
  description: string;
  /** A JSON Schema object describing the arguments. */
  inputSchema: Record<string, unknown>;
}

export interface ModelUsage {
  /** All input tokens, cached ones included. */
  inputTokens: number;
  outputTokens: number;
  /** The part of `inputTokens` the provider served from its cache. */
  cachedInputTokens: number;
}

export interface ModelCallRequest {
  messages: ModelMessage[];
  tools: ModelToolSpec[];
  toolChoice: "auto" | "none" | "required";
  /** A provider flag only; the runtime still runs tools one at a time. */
  parallelToolCalls: boolean;
  reasoning?: { effort?: "low" | "medium" | "high"; maxTokens?: number };
  abortSignal?: AbortSignal;
  /** Streamed text, called in order. */
  onTextDelta?: (chunk: string) => void;
  /** For the scripted provider: how many calls this side of this thread already made with this model (durable count supplied by the engine). */
  scriptedCallIndex?: number;
}

export interface ModelCallResult {
  text: string;
  toolCalls: ModelToolCall[];
  usage: ModelUsage;
  costUsd: number;
  /** The ModelDefinition.name that answered (may be a fallback). */
  modelName: string;
  providerModelId: string;
  provider: string;
  latencyMs: number;
}

/** The telemetry a model call reports: the llm_* and fallback kinds of the wire contract. */
export type ModelTelemetry = Extract<
  TelemetryData,
  { type: "llm_request" | "llm_response" | "fallback_triggered" | "llm_error" | "model_wait" }
>;

/** What one provider attempt answers; `callModel` adds cost, latency and the model's identity. */
export interface ProviderAnswer {
  text: string;
  toolCalls: ModelToolCall[];
  usage: ModelUsage;
}
