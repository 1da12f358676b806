// Which model providers this server can use, read from its environment by variable NAME: the
// answer says which variables are set, never what they hold (an OpenAI-compatible endpoint is
// reported without credentials, query or fragment, because models must name it in `baseURL`).
import { DEFAULT_API_KEY_ENV, type ModelProvider } from "@/lib/standard";
import type { ProviderEnv } from "./ai-sdk";

/** Where an OpenAI-compatible server (Ollama, vLLM, LM Studio…) is, in order of preference. */
export const OPENAI_COMPATIBLE_BASE_URL_ENVS = ["OPENAI_COMPATIBLE_BASE_URL", "OLLAMA_BASE_URL"] as const;
/** The key such a server wants, if any (local servers usually want none). */
export const OPENAI_COMPATIBLE_API_KEY_ENV = "OPENAI_COMPATIBLE_API_KEY";

export interface ProviderAvailability {
  provider: ModelProvider;
  available: boolean;
  requires: string[];
  apiKeyEnv?: string;
  baseURL?: string;
}

function isSet(env: ProviderEnv, name: string): boolean {
  const value = env[name];
  return value !== undefined && value.trim() !== "";
}

/** The endpoint without user:password, query or fragment; undefined when it is not an http(s) URL. */
export function publicBaseURL(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    return undefined;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return undefined;
  return `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, "")}`;
}

function keyedProvider(provider: "openai" | "anthropic", env: ProviderEnv): ProviderAvailability {
  const variable = DEFAULT_API_KEY_ENV[provider] as string;
  const available = isSet(env, variable);
  return { provider, available, requires: [variable], ...(available ? { apiKeyEnv: variable } : {}) };
}

function openAiCompatible(env: ProviderEnv): ProviderAvailability {
  const requires = [...OPENAI_COMPATIBLE_BASE_URL_ENVS];
  for (const variable of OPENAI_COMPATIBLE_BASE_URL_ENVS) {
    const baseURL = isSet(env, variable) ? publicBaseURL(env[variable] as string) : undefined;
    if (baseURL === undefined) continue;
    const apiKeyEnv = isSet(env, OPENAI_COMPATIBLE_API_KEY_ENV) ? OPENAI_COMPATIBLE_API_KEY_ENV : undefined;
    return {
      provider: "openai-compatible",
      available: true,
      requires,
      baseURL,
      ...(apiKeyEnv ? { apiKeyEnv } : {}),
    };
  }
  return { provider: "openai-compatible", available: false, requires };
}

/** Every provider Tandem knows, each marked available or not; `scripted` always is. */
export function availableProviders(env: ProviderEnv): ProviderAvailability[] {
  return [
    keyedProvider("openai", env),
    keyedProvider("anthropic", env),
    openAiCompatible(env),
    { provider: "scripted", available: true, requires: [] },
  ];
}
