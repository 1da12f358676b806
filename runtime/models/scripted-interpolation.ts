// The scripted provider's placeholders: {{input}} (latest user message) and {{tool_result}} (latest tool result).
import type { ModelMessage } from "./types";

export interface ScriptPlaceholders {
  input: string;
  toolResult: string;
}

/** Text of a message's content; the text parts of a multi-part user message joined by newlines. */
export function messageText(message: ModelMessage): string {
  if (typeof message.content === "string") return message.content;
  return message.content.flatMap((part) => (part.type === "text" ? [part.text] : [])).join("\n");
}

export function placeholdersFor(messages: ModelMessage[]): ScriptPlaceholders {
  const latestUser = messages.findLast((message) => message.role === "user");
  const latestTool = messages.findLast((message) => message.role === "tool");
  return {
    input: latestUser ? messageText(latestUser) : "",
    toolResult: latestTool ? messageText(latestTool) : "",
  };
}

const PLACEHOLDER = /\{\{(input|tool_result)\}\}/g;

export function interpolateText(text: string, placeholders: ScriptPlaceholders): string {
  // One pass with a replacer function: inserted content is never re-scanned and `$` in it is not special.
  return text.replace(PLACEHOLDER, (_match, name: string) =>
    name === "input" ? placeholders.input : placeholders.toolResult,
  );
}

/** Interpolates every string inside a JSON value (object keys are left as written). */
export function interpolateDeep(value: unknown, placeholders: ScriptPlaceholders): unknown {
  if (typeof value === "string") return interpolateText(value, placeholders);
  if (Array.isArray(value)) return value.map((item) => interpolateDeep(item, placeholders));
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, interpolateDeep(item, placeholders)]),
    );
  }
  return value;
}
