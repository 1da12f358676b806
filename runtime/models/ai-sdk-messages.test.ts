import { describe, expect, it } from "vitest";
import type { ModelDefinition } from "@/lib/standard";
import { providerOptionsFor } from "./ai-sdk";
import { toSdkMessages } from "./ai-sdk-messages";
import type { ModelCallRequest } from "./types";

describe("toSdkMessages", () => {
  it("converts images, tool calls and error results, merging consecutive tool results", () => {
    const converted = toSdkMessages([
      { role: "system", content: "sys" },
      {
        role: "user",
        content: [
          { type: "text", text: "look" },
          { type: "image", mimeType: "image/png", data: "AAAA" },
        ],
      },
      {
        role: "assistant",
        content: "",
        toolCalls: [
          { id: "c1", name: "t", args: { a: 1 } },
          { id: "c2", name: "u", args: {} },
        ],
      },
      { role: "tool", toolCallId: "c1", toolName: "t", content: "fine" },
      { role: "tool", toolCallId: "c2", toolName: "u", content: "broke", isError: true },
      { role: "assistant", content: "done" },
    ]);
    expect(converted).toEqual([
      { role: "system", content: "sys" },
      {
        role: "user",
        content: [
          { type: "text", text: "look" },
          { type: "image", image: "AAAA", mediaType: "image/png" },
        ],
      },
      {
        role: "assistant",
        content: [
          { type: "tool-call", toolCallId: "c1", toolName: "t", input: { a: 1 } },
          { type: "tool-call", toolCallId: "c2", toolName: "u", input: {} },
        ],
      },
      {
        role: "tool",
        content: [
          { type: "tool-result", toolCallId: "c1", toolName: "t", output: { type: "text", value: "fine" } },
          {
            type: "tool-result",
            toolCallId: "c2",
            toolName: "u",
            output: { type: "error-text", value: "broke" },
          },
        ],
      },
      { role: "assistant", content: "done" },
    ]);
  });
});

describe("providerOptionsFor", () => {
  const base: ModelCallRequest = {
    messages: [],
    tools: [{ name: "t", description: "", inputSchema: { type: "object" } }],
    toolChoice: "auto",
    parallelToolCalls: false,
  };

  it("maps parallel tool calls and a thinking budget for Anthropic, over the definition's defaults", () => {
    const definition: ModelDefinition = {
      name: "claude",
      provider: "anthropic",
      model: "claude-x",
      providerOptions: { sendReasoning: false, disableParallelToolUse: false },
    };
    expect(providerOptionsFor(definition, { ...base, reasoning: { maxTokens: 2048 } })).toEqual({
      anthropic: {
        sendReasoning: false,
        disableParallelToolUse: true,
        thinking: { type: "enabled", budgetTokens: 2048 },
      },
    });
  });

  it("leaves the flag out when there are no tools", () => {
    const definition: ModelDefinition = { name: "gpt", provider: "openai", model: "gpt-x" };
    expect(providerOptionsFor(definition, { ...base, tools: [] })).toEqual({ openai: {} });
    expect(providerOptionsFor(definition, base)).toEqual({ openai: { parallelToolCalls: false } });
  });
});
