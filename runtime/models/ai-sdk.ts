// Real providers through the AI SDK: builds a LanguageModel per definition and makes exactly one streamed model step.
import { createAnthropic } from "@ai-sdk/anthropic";
import { createOpenAI } from "@ai-sdk/openai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { type JSONValue, type LanguageModel, type LanguageModelUsage, streamText } from "ai";
import { type ModelDefinition, resolveApiKeyEnv } from "@/lib/standard";
import { redactError } from "../security/redact";
import { toSdkMessages, toSdkTools } from "./ai-sdk-messages";
import { ModelApiKeyMissingError, ModelConfigurationError, ModelProviderError } from "./errors";
import type { ModelCallRequest, ModelToolCall, ModelUsage, ProviderAnswer } from "./types";

export type ProviderEnv = Record<string, string | undefined>;
export type LanguageModelFactory = (definition: ModelDefinition, apiKey: string | undefined) => LanguageModel;

/** The provider name our openai-compatible models register; it is also their providerOptions key. */
const OPENAI_COMPATIBLE_NAME = "tandem";

type JsonRecord = Record<string, JSONValue | undefined>;
type SdkProviderOptions = Record<string, JsonRecord>;

/**
 * The API key from the variable the definition names (or the provider's usual one). A missing
 * variable is an error naming it, except for openai-compatible models that name none (local servers).
 */
export function resolveApiKey(definition: ModelDefinition, env: ProviderEnv): string | undefined {
  const variable = resolveApiKeyEnv(definition);
  if (variable === undefined) return undefined;
  const value = env[variable];
  if (value !== undefined && value !== "") return value;
  throw new ModelApiKeyMissingError(definition.name, variable);
}

export const createLanguageModel: LanguageModelFactory = (definition, apiKey) => {
  switch (definition.provider) {
    case "openai":
      return createOpenAI({ apiKey, baseURL: definition.baseURL }).chat(definition.model);
    case "anthropic":
      return createAnthropic({ apiKey, baseURL: definition.baseURL })(definition.model);
    case "openai-compatible":
      if (definition.baseURL === undefined) {
        throw new ModelConfigurationError(
          definition.name,
          'provider "openai-compatible" needs a "baseURL" such as "http://127.0.0.1:11434/v1".',
        );
      }
      return createOpenAICompatible({
        name: OPENAI_COMPATIBLE_NAME,
        baseURL: definition.baseURL,
        apiKey,
        includeUsage: true,
      }).chatModel(definition.model);
    case "scripted":
      throw new ModelConfigurationError(definition.name, "the scripted provider does not use the AI SDK.");
  }
};

/** Each provider spells "parallel tool calls" its own way; the definition's own options are the defaults underneath. */
export function providerOptionsFor(
  definition: ModelDefinition,
  request: ModelCallRequest,
): SdkProviderOptions {
  const defaults: JsonRecord = { ...definition.providerOptions };
  const hasTools = request.tools.length > 0;
  switch (definition.provider) {
    case "openai":
      return { openai: hasTools ? { ...defaults, parallelToolCalls: request.parallelToolCalls } : defaults };
    case "anthropic": {
      const options: JsonRecord = { ...defaults };
      if (hasTools) options.disableParallelToolUse = !request.parallelToolCalls;
      if (request.reasoning?.maxTokens !== undefined) {
        options.thinking = { type: "enabled", budgetTokens: request.reasoning.maxTokens };
      }
      return { anthropic: options };
    }
    case "openai-compatible":
      // Keys outside the SDK's own schema are copied into the request body as written.
      return {
        [OPENAI_COMPATIBLE_NAME]: hasTools
          ? { ...defaults, parallel_tool_calls: request.parallelToolCalls }
          : defaults,
      };
    case "scripted":
      return {};
  }
}

function toModelUsage(usage: LanguageModelUsage | undefined): ModelUsage {
  return {
    inputTokens: usage?.inputTokens ?? 0,
    outputTokens: usage?.outputTokens ?? 0,
    cachedInputTokens: usage?.inputTokenDetails.cacheReadTokens ?? 0,
  };
}

export async function callAiSdkModel(
  definition: ModelDefinition,
  request: ModelCallRequest,
  options: { env: ProviderEnv; createLanguageModel?: LanguageModelFactory },
): Promise<ProviderAnswer> {
  const apiKey = resolveApiKey(definition, options.env);
  const model = (options.createLanguageModel ?? createLanguageModel)(definition, apiKey);
  try {
    return await streamOneStep(definition, request, model);
  } catch (error) {
    // A provider may echo the key it was sent ("invalid key sk-…"); the error ends up in the thread's
    // failure, events and logs, so the key is cut out here, where it is known.
    throw redactError(error, [apiKey]);
  }
}

async function streamOneStep(
  definition: ModelDefinition,
  request: ModelCallRequest,
  model: LanguageModel,
): Promise<ProviderAnswer> {
  const result = streamText({
    model,
    messages: toSdkMessages(request.messages),
    allowSystemInMessages: true,
    tools: toSdkTools(request.tools),
    // The SDK sorts tools alphabetically unless told otherwise; the prompt's order is meaningful.
    toolOrder: request.tools.map((spec) => spec.name),
    toolChoice: request.toolChoice,
    providerOptions: providerOptionsFor(definition, request),
    ...(request.reasoning?.effort ? { reasoning: request.reasoning.effort } : {}),
    abortSignal: request.abortSignal,
    maxRetries: 0,
    // Errors arrive as stream parts and are rethrown below; the default handler would only log them.
    onError: () => {},
  });

  let text = "";
  const toolCalls: ModelToolCall[] = [];
  let usage: LanguageModelUsage | undefined;
  for await (const part of result.fullStream) {
    switch (part.type) {
      case "text-delta":
        text += part.text;
        request.onTextDelta?.(part.text);
        break;
      case "tool-call":
        if (!part.providerExecuted)
          toolCalls.push({ id: part.toolCallId, name: part.toolName, args: part.input });
        break;
      case "finish":
        usage = part.totalUsage;
        break;
      case "error":
        throw asProviderError(definition, part.error);
      case "abort":
        throw new ModelProviderError(definition.name, part.reason ?? "The model call was aborted.");
    }
  }
  return { text, toolCalls, usage: toModelUsage(usage) };
}

function asProviderError(definition: ModelDefinition, error: unknown): Error {
  return error instanceof Error
    ? error
    : new ModelProviderError(definition.name, `Model "${definition.name}" failed: ${String(error)}`);
}
