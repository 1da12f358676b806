// Typed errors of the model layer, each with a stable code. Messages name what failed and what to do; never a secret.

export type ModelErrorCode =
  | "model_not_found"
  | "model_call_failed"
  | "model_aborted"
  | "model_api_key_missing"
  | "model_configuration_invalid"
  | "model_provider_error";

export class ModelError extends Error {
  constructor(
    readonly code: ModelErrorCode,
    message: string,
    readonly details: Record<string, unknown> = {},
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = new.target.name;
  }

  /** Whether trying the same model again could help; configuration problems fail the model at once. */
  get retryable(): boolean {
    return this.code === "model_provider_error";
  }
}

export class ModelNotFoundError extends ModelError {
  constructor(readonly modelName: string) {
    super(
      "model_not_found",
      `No model named "${modelName}" is defined. Add it to the project's models or fix the name.`,
      { model: modelName },
    );
  }
}

export class ModelApiKeyMissingError extends ModelError {
  constructor(
    readonly modelName: string,
    readonly variable: string,
  ) {
    super(
      "model_api_key_missing",
      variable.startsWith("tandem-credential:")
        ? `Model "${modelName}" uses the credential "${variable.slice("tandem-credential:".length)}", which this project does not have (or the server cannot open it). Add it under the project's credentials.`
        : `Model "${modelName}" needs an API key in the environment variable ${variable}, which is not set. Set ${variable} where Tandem runs.`,
      { model: modelName, variable },
    );
  }
}

export class ModelConfigurationError extends ModelError {
  constructor(modelName: string, problem: string) {
    super("model_configuration_invalid", `Model "${modelName}": ${problem}`, { model: modelName });
  }
}

/** A provider (or the scripted provider) answered with an error; retries and fallbacks apply. */
export class ModelProviderError extends ModelError {
  constructor(modelName: string, message: string, details: Record<string, unknown> = {}, cause?: unknown) {
    super("model_provider_error", message, { model: modelName, ...details }, { cause });
  }
}

export class ModelAbortedError extends ModelError {
  constructor(modelName: string) {
    super("model_aborted", `The call to model "${modelName}" was aborted.`, { model: modelName });
  }
}

export interface ModelAttemptFailure {
  model: string;
  attempt: number;
  error: string;
}

export class ModelCallFailedError extends ModelError {
  constructor(
    modelName: string,
    fallbackCount: number,
    readonly attempts: ModelAttemptFailure[],
    lastError: unknown,
    /** The last failure with the provider it came from ("openai at api.openai.com: HTTP 429: …"). */
    lastReason?: string,
  ) {
    const lastErrorMessage = lastReason || (attempts.at(-1)?.error ?? describeError(lastError));
    super(
      "model_call_failed",
      `All retry attempts exhausted for model ${modelName} and ${fallbackCount} fallbacks`,
      { model: modelName, fallbacks: fallbackCount, lastError: lastErrorMessage, attempts },
      { cause: lastError },
    );
  }
}

/** A one-line description of any thrown value, for telemetry and error details. */
export function describeError(error: unknown): string {
  if (error instanceof Error) {
    const status = "statusCode" in error ? error.statusCode : undefined;
    return typeof status === "number" ? `HTTP ${status}: ${error.message}` : error.message;
  }
  return String(error);
}
