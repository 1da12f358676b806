// The model layer: one call to a named model with retries and fallbacks, over the scripted provider or the AI SDK.
export { abortableSleep } from "./abortable-sleep";
export { createLanguageModel, type LanguageModelFactory, type ProviderEnv, resolveApiKey } from "./ai-sdk";
export {
  BACKOFF_BASE_MS,
  backoffDelayMs,
  type CallModelOptions,
  callModel,
  MAX_ATTEMPTS_PER_MODEL,
} from "./call-model";
export { computeCostUsd } from "./cost";
export {
  describeError,
  ModelAbortedError,
  ModelApiKeyMissingError,
  type ModelAttemptFailure,
  ModelCallFailedError,
  ModelConfigurationError,
  ModelError,
  type ModelErrorCode,
  ModelNotFoundError,
  ModelProviderError,
} from "./errors";
export { callScriptedModel, SCRIPT_EXHAUSTED_TEXT, scriptedToolCallId } from "./scripted";
export type * from "./types";
