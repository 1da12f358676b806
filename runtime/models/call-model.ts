// callModel: resolves a model by name and walks its retries and fallbacks (spec Models §3.1),
// emitting telemetry. Retries go by a time budget, not a count: a rate-limited model waits as long as
// its provider asks (jittered) while its waits fit TANDEM_MODEL_RETRY_BUDGET_MS; an outage retries
// within the budget on the last model of the chain, and twice before a fallback; any other transient
// failure is tried twice; one that repeats every time (HTTP 400/401/404, a missing key) goes to the
// next model at once. Each wait is a `model_wait` telemetry event, and a stop cancels it at once.
import { createHash } from "node:crypto";
import { type ModelDefinition, resolveApiKeyEnv } from "@/lib/standard";
import { abortableSleep } from "./abortable-sleep";
import { callAiSdkModel, type LanguageModelFactory, type ProviderEnv } from "./ai-sdk";
import { computeCostUsd } from "./cost";
import {
  describeError,
  ModelAbortedError,
  type ModelAttemptFailure,
  ModelCallFailedError,
  ModelNotFoundError,
} from "./errors";
import {
  type BreakerSettings,
  type CallOutcome,
  DEFAULT_BREAKER,
  enterModelCall,
  type ProviderTarget,
  providerPausedForMs,
  providerUnavailableForMs,
} from "./in-flight";
import { classifyFailure, type FailureKind, providerWaitMs } from "./provider-failure";
import { DEFAULT_RETRY_BUDGET_MS } from "./retry-settings";
import { callScriptedModel } from "./scripted";
import type { ModelCallRequest, ModelCallResult, ModelTelemetry, ProviderAnswer } from "./types";

/** [BDOCS] "Primary model tried 2 times → first fallback 2 times → …": failures that are not rate limits or an outage on the last model. */
export const MAX_ATTEMPTS_PER_MODEL = 2;
export const BACKOFF_BASE_MS = 1000;
/** The longest back-off between two attempts (the provider's own wait may be longer). */
const MAX_BACKOFF_MS = 30_000;

export interface CallModelOptions {
  /** Where API keys are read; defaults to process.env. */
  env?: ProviderEnv;
  /** Waits between attempts; injectable so tests need no real time. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  onTelemetry?: (event: ModelTelemetry) => void;
  /** Test seam replacing the AI SDK provider construction. */
  createLanguageModel?: LanguageModelFactory;
  /** How long one model of the chain may spend waiting between its attempts (default 60 s). */
  retryBudgetMs?: number;
  /** When a provider counts as unavailable (its circuit breaker). */
  breaker?: BreakerSettings;
  /** The jitter's randomness, in [0, 1); injectable for tests. */
  random?: () => number;
}

/** 1000 · 2^(attempt−1) ms after the failed attempt number `attempt` (at most 30 s), before jitter. */
export function backoffDelayMs(attempt: number): number {
  return Math.min(MAX_BACKOFF_MS, BACKOFF_BASE_MS * 2 ** (attempt - 1));
}

/**
 * The wait before the next attempt: the provider's own wait plus up to 20 % (at most 1 s) so the
 * threads it refused together do not come back together, or else the back-off, its upper half
 * random ("equal jitter").
 */
export function retryDelayMs(attempt: number, providerWait: number | undefined, random: number): number {
  if (providerWait !== undefined)
    return Math.round(providerWait + random * Math.min(providerWait * 0.2, 1000));
  const backoff = backoffDelayMs(attempt);
  return Math.round(backoff / 2 + (random * backoff) / 2);
}

/** The gate a definition's calls pass: its provider, base URL and key (hashed, never shown). */
export function providerTarget(definition: ModelDefinition, env: ProviderEnv): ProviderTarget {
  const keyVariable =
    definition.apiKeyCredential !== undefined ? resolveApiKeyEnv(definition) : definition.apiKeyEnv;
  const key = keyVariable ? (env[keyVariable] ?? "") : "";
  let host = "";
  if (definition.baseURL) {
    try {
      host = new URL(definition.baseURL).host;
    } catch {
      host = "";
    }
  }
  const keyHash = key ? createHash("sha256").update(key).digest("hex").slice(0, 16) : "";
  return {
    provider: definition.provider,
    identity: `${definition.provider}|${definition.baseURL ?? ""}|${keyHash}`,
    label: host ? `${definition.provider} at ${host}` : definition.provider,
  };
}

const OUTCOME_OF: Record<FailureKind, CallOutcome> = {
  rate_limited: "rate_limited",
  unavailable: "unavailable",
  failed: "other",
  fatal: "other",
};

/** One model of the chain: what it may still spend, and why it last failed. */
interface ModelTry {
  name: string;
  definition: ModelDefinition | undefined;
  target: ProviderTarget | undefined;
  /** Whether a later model of the chain is left to try. */
  hasFallback: boolean;
  waitedMs: number;
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
  const env = options.env ?? process.env;
  const budgetMs = options.retryBudgetMs ?? DEFAULT_RETRY_BUDGET_MS;
  const breaker = options.breaker ?? DEFAULT_BREAKER;
  const random = options.random ?? Math.random;
  const chain = [primary.name, ...(primary.fallbacks ?? [])];
  const failures: ModelAttemptFailure[] = [];
  let lastError: unknown;
  let lastReason = "";

  for (const [position, name] of chain.entries()) {
    const previous = chain[position - 1];
    if (previous !== undefined) emit({ type: "fallback_triggered", from: previous, to: name });
    const definition = models.find((model) => model.name === name);
    const current: ModelTry = {
      name,
      definition,
      target: definition && definition.provider !== "scripted" ? providerTarget(definition, env) : undefined,
      hasFallback: position < chain.length - 1,
      waitedMs: 0,
    };

    for (let attempt = 1; ; attempt++) {
      if (request.abortSignal?.aborted) throw new ModelAbortedError(name);
      // An endpoint whose breaker is open: the fallback now, or a visible wait on the last model.
      const unavailableMs =
        current.target && definition
          ? providerUnavailableForMs(current.target, definition.model, breaker)
          : 0;
      if (unavailableMs > 0) {
        const reason = `${current.target?.label} is unavailable (it failed ${breaker.failures} times in a row)`;
        // This model's own last error says more than its breaker; another model's says less.
        if (!failures.some((failure) => failure.model === name)) lastReason = reason;
        if (current.hasFallback || current.waitedMs + unavailableMs > budgetMs) {
          failures.push({ model: name, attempt, error: reason });
          break;
        }
        await waitBeforeRetry(
          current,
          attempt - 1,
          "unavailable",
          unavailableMs,
          request.abortSignal,
          options,
          emit,
        );
        attempt--;
        continue;
      }
      // Another call's 429 paused this model: the gate holds this call until then; say so.
      const pausedMs =
        current.target && definition ? providerPausedForMs(current.target, definition.model) : 0;
      if (pausedMs > 0)
        emit({
          type: "model_wait",
          model: name,
          provider: current.target?.label ?? definition?.provider ?? "unknown",
          reason: "rate_limited",
          attempt: attempt - 1,
          delay_ms: pausedMs,
        });
      emit({ type: "llm_request", model: name, attempt });
      let startedAt = performance.now();
      try {
        if (definition === undefined) throw new ModelNotFoundError(name);
        // Waits while the endpoint is at its limit (adaptive, TANDEM_PROVIDER_CONCURRENCY) or paused by a 429.
        const ticket = await enterModelCall(
          current.target ?? definition.provider,
          request.abortSignal,
          env,
          definition.model,
        );
        startedAt = performance.now();
        let answer: ProviderAnswer;
        try {
          answer = await callProvider(definition, request, options);
        } catch (error) {
          const kind = request.abortSignal?.aborted ? "failed" : classifyFailure(error);
          ticket.release(OUTCOME_OF[kind], providerWaitMs(error), breaker);
          throw error;
        }
        ticket.release("ok", undefined, breaker);
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
        lastReason = current.target ? `${current.target.label}: ${message}` : message;
        failures.push({ model: name, attempt, error: message });
        emit({ type: "llm_error", model: name, attempt, error: message });
        const kind = classifyFailure(error);
        const delay = retryDelayMs(attempt, providerWaitMs(error), random());
        if (!mayRetry(kind, attempt, current, delay, budgetMs)) break;
        await waitBeforeRetry(current, attempt, kind, delay, request.abortSignal, options, emit);
      }
    }
  }
  throw new ModelCallFailedError(primary.name, chain.length - 1, failures, lastError, lastReason);
}

/** Whether this model gets another attempt after a failure of `kind` (see the file's comment). */
function mayRetry(
  kind: FailureKind,
  attempt: number,
  current: ModelTry,
  delay: number,
  budgetMs: number,
): boolean {
  if (kind === "fatal") return false;
  const fitsBudget = current.waitedMs + delay <= budgetMs;
  if (kind === "rate_limited") return fitsBudget;
  if (kind === "unavailable" && !current.hasFallback) return fitsBudget;
  return attempt < MAX_ATTEMPTS_PER_MODEL;
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

async function waitBeforeRetry(
  current: ModelTry,
  attempt: number,
  kind: FailureKind,
  ms: number,
  signal: AbortSignal | undefined,
  options: CallModelOptions,
  emit: (event: ModelTelemetry) => void,
): Promise<void> {
  emit({
    type: "model_wait",
    model: current.name,
    provider: current.target?.label ?? current.definition?.provider ?? "unknown",
    reason: kind === "rate_limited" ? "rate_limited" : kind === "unavailable" ? "unavailable" : "error",
    attempt,
    delay_ms: ms,
  });
  current.waitedMs += ms;
  const sleep = options.sleep ?? abortableSleep;
  try {
    await sleep(ms, signal);
  } catch (error) {
    if (signal?.aborted) throw new ModelAbortedError(current.name);
    throw error;
  }
  if (signal?.aborted) throw new ModelAbortedError(current.name);
}
