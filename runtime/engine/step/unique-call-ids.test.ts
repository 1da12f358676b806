import { describe, expect, it } from "vitest";
import { storedMessage, toolCall } from "@/test/support/stored-messages";
import type { ModelCallResult } from "../../models/types";
import { uniqueCallIds } from "./model-turn";

function reply(ids: string[]): ModelCallResult {
  return {
    text: "",
    toolCalls: ids.map((id) => ({ id, name: "look", args: {} })),
    usage: { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0 },
    costUsd: 0,
    modelName: "m",
    providerModelId: "m",
    provider: "scripted",
    latencyMs: 0,
  } as ModelCallResult;
}

describe("uniqueCallIds", () => {
  it("suffixes a reply's call ids already used in the thread with the reply's id, and keeps new ones", () => {
    const history = [
      storedMessage({ role: "assistant", side: "a", tool_calls: [toolCall("call_0_0", "look")] }),
      storedMessage({ role: "tool", side: "a", tool_call_id: "call_0_0", content: "ok" }),
      storedMessage({ role: "user", side: "b", content: "again" }),
    ];
    const calls = uniqueCallIds(history, reply(["call_0_0", "call_1_0"]), "abcdef12-3456");
    expect(calls.map((call) => call.id)).toEqual(["call_0_0_abcdef12", "call_1_0"]);
  });
});
