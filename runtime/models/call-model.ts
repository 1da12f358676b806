// callModel: resolves a model by name and walks its retries and fallbacks (spec Models §3.1), emitting telemetry.
import { APICallError } from "ai";
import type { ModelDefinition } from "@/lib/standard";
import { abortableSleep } from "./abortable-sleep";
import { callAiSdkModel, type LanguageModelFactory, type ProviderEnv } from "./ai-sdk";
import { computeCostUsd } from "./cost";
import {
  describeError,
  ModelAbortedError,
  type ModelAttemptFailure,
  ModelCallFailedError,
  ModelError,
  ModelNotFoundError,
} from "./errors";
import { enterModelCall } from "./in-flight";
import { callScriptedModel } from "./scripted";
import type { ModelCallRequest, ModelCallResult, ModelTelemetry, ProviderAnswer } from "./types";

/** [BDOCS] "Primary model tried 2 times → first fallback 2 times → …". */
export const MAX_ATTEMPTS_PER_MODEL = 2;
export const BACKOFF_BASE_MS = 1000;
/** A provider's Retry-After is honoured up to this long; beyond it the fallbacks are the better bet. */
const MAX_RETRY_AFTER_MS = 60_000;

export interface CallModelOptions {
  /** Where API keys are read; defaults to process.env. */
  env?: ProviderEnv;
  /** Waits between attempts; injectable so tests need no real time. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  onTelemetry?: (event: ModelTelemetry) => void;
  /** Test seam replacing the AI SDK provider construction. */
  createLanguageModel?: LanguageModelFactory;
}

/** 1000 · 2^(attempt−1) ms after the failed attempt number `attempt`. */
export function backoffDelayMs(attempt: number): number {
  return BACKOFF_BASE_MS * 2 ** (attempt - 1);
}

export async function callModel(
  modelName: string,
  models: ModelDefinition[],
  request: ModelCallRequest,
  options: CallModelOptions = {},
): Promise<ModelCallResult> {
  const primary = models.find((model) => model.name === modelName);
  if (primary === undefined) throw new ModelNotFoundError(modelName);
  const emit = options.onTelemetry ?? (() => {});
  const chain = [primary.name, ...(primary.fallbacks ?? [])];
  const failures: ModelAttemptFailure[] = [];
  let lastError: unknown;

  for (const [position, name] of chain.entries()) {
    const previous = chain[position - 1];
    if (previous !== undefined) emit({ type: "fallback_triggered", from: previous, to: name });
    const definition = models.find((model) => model.name === name);

    for (let attempt = 1; attempt <= MAX_ATTEMPTS_PER_MODEL; attempt++) {
      if (request.abortSignal?.aborted) throw new ModelAbortedError(name);
      emit({ type: "llm_request", model: name, attempt });
      let startedAt = performance.now();
      try {
        if (definition === undefined) throw new ModelNotFoundError(name);
        // Waits while the provider is at its concurrency limit (TANDEM_PROVIDER_CONCURRENCY).
        const release = await enterModelCall(definition.provider, request.abortSignal);
        startedAt = performance.now();
        const answer = await callProvider(definition, request, options).finally(release);
        const latencyMs = Math.round(performance.now() - startedAt);
        emit({
          type: "llm_response",
          model: name,
          tokens: answer.usage.inputTokens + answer.usage.outputTokens,
          latency: latencyMs,
        });
        return {
          ...answer,
          costUsd: computeCostUsd(definition, answer.usage),
          modelName: definition.name,
          providerModelId: definition.model,
          provider: definition.provider,
          latencyMs,
        };
      } catch (error) {
        // A user stop never walks the fallbacks.
        if (request.abortSignal?.aborted) throw new ModelAbortedError(name);
        lastError = error;
        const message = describeError(error);
        failures.push({ model: name, attempt, error: message });
        emit({ type: "llm_error", model: name, attempt, error: message });
        if (attempt === MAX_ATTEMPTS_PER_MODEL || !isRetryable(error)) break;
        await waitBeforeRetry(name, retryDelayMs(attempt, error), request.abortSignal, options);
      }
    }
  }
  throw new ModelCallFailedError(primary.name, chain.length - 1, failures, lastError);
}

function callProvider(
  definition: ModelDefinition,
  request: ModelCallRequest,
  options: CallModelOptions,
): Promise<ProviderAnswer> {
  if (definition.provider === "scripted") return callScriptedModel(definition, request);
  return callAiSdkModel(definition, request, {
    env: options.env ?? process.env,
    createLanguageModel: options.createLanguageModel,
  });
}

/** Configuration problems (missing key, unknown fallback) fail the same way every time: go straight to the next model. */
function isRetryable(error: unknown): boolean {
  return error instanceof ModelError ? error.retryable : true;
}

function retryDelayMs(attempt: number, error: unknown): number {
  const backoff = backoffDelayMs(attempt);
  const retryAfter = retryAfterMs(error);
  return retryAfter !== undefined && retryAfter <= MAX_RETRY_AFTER_MS
    ? Math.max(backoff, retryAfter)
    : backoff;
}

/** The provider's `retry-after-ms` or `retry-after` (seconds) header, when it sent one. */
function retryAfterMs(error: unknown): number | undefined {
  if (!APICallError.isInstance(error)) return undefined;
  const headers = error.responseHeaders ?? {};
  const milliseconds = Number(headers["retry-after-ms"]);
  if (Number.isFinite(milliseconds) && milliseconds > 0) return milliseconds;
  const seconds = Number(headers["retry-after"]);
  if (Number.isFinite(seconds) && seconds > 0) return seconds * 1000;
  return undefined;
}

async function waitBeforeRetry(
  modelName: string,
  ms: number,
  signal: AbortSignal | undefined,
  options: CallModelOptions,
): Promise<void> {
  const sleep = options.sleep ?? abortableSleep;
  try {
    await sleep(ms, signal);
  } catch (error) {
    if (signal?.aborted) throw new ModelAbortedError(modelName);
    throw error;
  }
  if (signal?.aborted) throw new ModelAbortedError(modelName);
}
