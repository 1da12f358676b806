// Keeps literal secrets out of stored definitions: secret-looking fields are rejected, keys must come from env variables.
import { z } from "zod";

/** Field names that mean "a credential was pasted here". Compared case-insensitively, ignoring `_` and `-`. */
export const SECRET_FIELD_NAMES = ["apiKey", "api_key", "secret", "token", "password"] as const;

const NORMALISED_SECRET_NAMES = new Set(SECRET_FIELD_NAMES.map(normaliseFieldName));

function normaliseFieldName(name: string): string {
  return name.toLowerCase().replaceAll(/[_-]/g, "");
}

export function isSecretFieldName(name: string): boolean {
  return NORMALISED_SECRET_NAMES.has(normaliseFieldName(name));
}

/** HTTP headers that carry credentials; a literal value for one of these is a pasted secret. */
export function isSecretHeaderName(name: string): boolean {
  return /authorization|cookie|api[-_]?key|token|secret|password/i.test(name);
}

/**
 * Shape fragment for models and tools: each secret-looking field is declared so the schema itself
 * rejects it (instead of silently stripping it) and tells the user where the value belongs.
 */
export function literalSecretFields(advice: string) {
  const field = (name: string) =>
    z
      .custom<undefined>((value) => value === undefined, {
        error: `"${name}" holds a literal secret, and definitions are stored and exported in plain text. ${advice}`,
        params: { code: "literal_secret" },
      })
      .optional();
  return {
    apiKey: field("apiKey"),
    api_key: field("api_key"),
    secret: field("secret"),
    token: field("token"),
    password: field("password"),
  };
}

/** Open JSON objects (provider options, tool options) must not smuggle secrets either. */
export function rejectSecretKeys(
  value: Record<string, unknown>,
  context: z.RefinementCtx,
  advice: string,
): void {
  for (const key of Object.keys(value)) {
    if (!isSecretFieldName(key)) continue;
    context.addIssue({
      code: "custom",
      path: [key],
      message: `"${key}" looks like a literal secret, and definitions are stored and exported in plain text. ${advice}`,
      params: { code: "literal_secret" },
    });
  }
}
