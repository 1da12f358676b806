// Removes known secret values (API keys and header secrets read from the environment) from text that
// came back from the outside world — a provider's error message or an HTTP tool's error body may echo
// the key it was sent — before that text is stored, logged, streamed or shown to a model.
export const REDACTED = "[redacted]";

/** Secrets shorter than this are not redacted: replacing "1" everywhere would garble text and hide nothing. */
const MIN_SECRET_LENGTH = 6;

export function redactSecrets(text: string, secrets: readonly (string | undefined)[]): string {
  let result = text;
  for (const secret of secrets) {
    if (!secret || secret.length < MIN_SECRET_LENGTH) continue;
    result = result.split(secret).join(REDACTED);
  }
  return result;
}

/** Redacts an error's message (and an AI SDK error's response body) in place, keeping its type and fields. */
export function redactError<E>(error: E, secrets: readonly (string | undefined)[]): E {
  if (!(error instanceof Error)) return error;
  error.message = redactSecrets(error.message, secrets);
  const withBody = error as Error & { responseBody?: unknown };
  if (typeof withBody.responseBody === "string")
    withBody.responseBody = redactSecrets(withBody.responseBody, secrets);
  return error;
}
