// ModelDefinition in its JSON form (spec 0.1.0 Models §1, with a provider string instead of a factory), plus the scripted test provider.
import { z } from "zod";
import { JsonObjectSchema } from "./json-schema";
import { literalSecretFields, rejectSecretKeys } from "./secrets";

const nonEmptyString = z.string().min(1);
const pricePerMillionTokens = z.number().nonnegative();

export const MODEL_PROVIDERS = ["openai", "anthropic", "openai-compatible", "scripted"] as const;
export const ModelProviderSchema = z.enum(MODEL_PROVIDERS);
export type ModelProvider = z.infer<typeof ModelProviderSchema>;

export const ModelCapabilitiesSchema = z.object({
  vision: z.boolean().optional(),
  functionCalling: z.boolean().optional(),
  structuredOutputs: z.boolean().optional(),
  maxContextTokens: z.int().positive().optional(),
  maxOutputTokens: z.int().positive().optional(),
});
export type ModelCapabilities = z.infer<typeof ModelCapabilitiesSchema>;

export const ScriptedToolCallSchema = z.object({
  name: nonEmptyString,
  args: JsonObjectSchema,
});
export type ScriptedToolCall = z.infer<typeof ScriptedToolCallSchema>;

/** One answer of the scripted provider (API.md "The scripted model provider"). */
export const ScriptStepSchema = z
  .object({
    text: z.string().optional(),
    toolCalls: z.array(ScriptedToolCallSchema).optional(),
    delayMs: z.int().nonnegative().optional(),
    /** The call fails like a provider error, so retries and fallbacks apply. */
    error: z.string().optional(),
  })
  .refine((step) => step.text !== undefined || step.toolCalls !== undefined || step.error !== undefined, {
    error: 'A script step needs at least one of "text", "toolCalls" or "error".',
    params: { code: "empty_script_step" },
  });
export type ScriptStep = z.infer<typeof ScriptStepSchema>;

export const ModelDefinitionSchema = z.object({
  /** What prompts reference (`model: "fast"`); not the provider's model id. */
  name: nonEmptyString,
  provider: ModelProviderSchema,
  /** The model id sent to the provider API. */
  model: nonEmptyString,
  baseURL: z
    .url({
      protocol: /^https?$/,
      error: '"baseURL" must be an http(s) URL such as "https://api.example.com/v1".',
    })
    .optional(),
  /** The NAME of the env variable holding the API key, never the key itself. */
  apiKeyEnv: nonEmptyString.optional(),
  /**
   * The NAME of a credential of the project (PUT /api/projects/:id/credentials/:name) holding the API
   * key, stored encrypted on the server; it wins over `apiKeyEnv`.
   */
  apiKeyCredential: nonEmptyString.optional(),
  fallbacks: z.array(nonEmptyString).optional(),
  includedProviders: z.array(nonEmptyString).optional(),
  inputPrice: pricePerMillionTokens.optional(),
  outputPrice: pricePerMillionTokens.optional(),
  cachedPrice: pricePerMillionTokens.optional(),
  capabilities: ModelCapabilitiesSchema.optional(),
  providerOptions: JsonObjectSchema.superRefine((options, context) =>
    rejectSecretKeys(options, context, 'Name the env variable that holds it in "apiKeyEnv" instead.'),
  ).optional(),
  providerTools: z.array(nonEmptyString).optional(),
  script: z.array(ScriptStepSchema).optional(),
  /**
   * Scripted provider: after the last step, continue from `script[scriptLoopFrom]` (0 repeats the whole
   * script) instead of answering "(script exhausted)".
   */
  scriptLoopFrom: z.int().nonnegative().optional(),
  ...literalSecretFields(
    'Store the key in an env variable and put that variable\'s name in "apiKeyEnv" (e.g. "apiKeyEnv": "OPENAI_API_KEY").',
  ),
});
export type ModelDefinition = z.infer<typeof ModelDefinitionSchema>;
export type ModelDefinitionInput = z.input<typeof ModelDefinitionSchema>;

/** Env variable read for the API key when a model names none (Tandem convention, the providers' usual names). */
export const DEFAULT_API_KEY_ENV: Partial<Record<ModelProvider, string>> = {
  openai: "OPENAI_API_KEY",
  anthropic: "ANTHROPIC_API_KEY",
};

/** The env variable holding this model's API key, or undefined when it needs none (scripted) or none was named. */
export function resolveApiKeyEnv(model: ModelDefinition): string | undefined {
  if (model.provider === "scripted") return undefined;
  if (model.apiKeyCredential !== undefined) return credentialVariable(model.apiKeyCredential);
  return model.apiKeyEnv ?? DEFAULT_API_KEY_ENV[model.provider];
}

/**
 * Where a model call finds a credential's value: the runtime adds the project's credentials that
 * the chain's models name to the call's environment under this name (never to process.env).
 */
export function credentialVariable(name: string): string {
  return `tandem-credential:${name}`;
}
