// Translates the runtime's messages and tool specs into AI SDK 7 prompt messages and a tool set without `execute`.
import { type JSONSchema7, jsonSchema, type ModelMessage as SdkModelMessage, type ToolSet, tool } from "ai";
import type { ModelContentPart, ModelMessage, ModelToolSpec } from "./types";

type SdkUserContent = Extract<SdkModelMessage, { role: "user" }>["content"];
type SdkAssistantContent = Extract<SdkModelMessage, { role: "assistant" }>["content"];

function toUserContent(content: string | ModelContentPart[]): SdkUserContent {
  if (typeof content === "string") return content;
  return content.map((part) =>
    part.type === "text"
      ? { type: "text" as const, text: part.text }
      : { type: "image" as const, image: part.data, mediaType: part.mimeType },
  );
}

function toAssistantContent(message: Extract<ModelMessage, { role: "assistant" }>): SdkAssistantContent {
  const toolCalls = message.toolCalls ?? [];
  if (toolCalls.length === 0) return message.content;
  return [
    ...(message.content === "" ? [] : [{ type: "text" as const, text: message.content }]),
    ...toolCalls.map((call) => ({
      type: "tool-call" as const,
      toolCallId: call.id,
      toolName: call.name,
      input: call.args,
    })),
  ];
}

/**
 * Keeps the runtime's order exactly (system messages may appear anywhere; callers pass
 * `allowSystemInMessages`). Consecutive tool results are merged into one tool message, the shape
 * providers expect after an assistant turn with several tool calls.
 */
export function toSdkMessages(messages: ModelMessage[]): SdkModelMessage[] {
  const converted: SdkModelMessage[] = [];
  for (const message of messages) {
    switch (message.role) {
      case "system":
        converted.push({ role: "system", content: message.content });
        break;
      case "user":
        converted.push({ role: "user", content: toUserContent(message.content) });
        break;
      case "assistant":
        converted.push({ role: "assistant", content: toAssistantContent(message) });
        break;
      case "tool": {
        const part = {
          type: "tool-result" as const,
          toolCallId: message.toolCallId,
          toolName: message.toolName,
          output: message.isError
            ? { type: "error-text" as const, value: message.content }
            : { type: "text" as const, value: message.content },
        };
        const previous = converted.at(-1);
        if (previous?.role === "tool") previous.content.push(part);
        else converted.push({ role: "tool", content: [part] });
        break;
      }
    }
  }
  return converted;
}

/** Tools the model may call; without `execute` the SDK stops after one step and we run the tools ourselves. */
export function toSdkTools(tools: ModelToolSpec[]): ToolSet {
  return Object.fromEntries(
    tools.map((spec) => [
      spec.name,
      tool({ description: spec.description, inputSchema: jsonSchema(spec.inputSchema as JSONSchema7) }),
    ]),
  );
}
