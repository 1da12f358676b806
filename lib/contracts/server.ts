// Server-wide answers on the wire: the error body every route answers a failure with
// (app/api/_lib/http.ts `jsonError`), `GET /api/health` and `GET /api/providers`.
import { z } from "zod";
import { runtimeLoadSchema } from "./runtime-load";

/** `{ error, code, ...details }`: what every failed request answers. */
export const ApiErrorBodySchema = z.looseObject({ error: z.string(), code: z.string().optional() });

/** `GET /api/health`; `load` only for a caller the server trusts with it. */
export const HealthSchema = z.object({ ok: z.boolean(), load: runtimeLoadSchema.optional() });

/** `GET /api/providers`: what the server can run, named by env variable, never by value. */
export const ProviderStatusSchema = z.object({
  provider: z.enum(["openai", "anthropic", "openai-compatible", "scripted"]),
  available: z.boolean(),
  /** The env variables that make this provider available (names only). */
  requires: z.array(z.string()),
  /** The variable models should name in `apiKeyEnv`, when one is set. */
  apiKeyEnv: z.string().optional(),
  /** openai-compatible: the configured endpoint, without credentials, query or fragment. */
  baseURL: z.string().optional(),
});
export type ProviderStatus = z.infer<typeof ProviderStatusSchema>;
export const ProviderListSchema = z.object({ providers: z.array(ProviderStatusSchema) });
