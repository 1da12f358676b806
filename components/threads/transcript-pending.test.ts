import { describe, expect, it } from "vitest";
import type { LiveMessage } from "@/lib/live";
import { messageWire, toolCallsJson } from "@/test/support/live-support";
import { unansweredToolCalls } from "./Transcript";

const calls = (...ids: string[]) =>
  toolCallsJson(ids.map((id) => ({ id, name: "asset_subagent", args: {} })));
const transcript = (...messages: Parameters<typeof messageWire>[0][]) =>
  messages.map((message) => messageWire(message)) as LiveMessage[];

describe("unansweredToolCalls", () => {
  it("lists each assistant message's calls that no tool message answers", () => {
    const messages = transcript(
      { id: "u1", seq: 1, role: "user", content: "hi" },
      { id: "a1", seq: 2, tool_calls: calls("c1", "c2") },
      { id: "t1", seq: 3, role: "tool", tool_call_id: "c1", content: "done" },
      { id: "a2", seq: 4, tool_calls: calls("c3") },
    );
    expect([...unansweredToolCalls(messages)]).toEqual([
      ["a1", "c2"],
      ["a2", "c3"],
    ]);
  });

  it("lists nothing once every call has its result", () => {
    const messages = transcript(
      { id: "a1", seq: 1, tool_calls: calls("c1") },
      { id: "t1", seq: 2, role: "tool", tool_call_id: "c1", content: "done" },
      { id: "a2", seq: 3, content: "The asset is ready." },
    );
    expect(unansweredToolCalls(messages).size).toBe(0);
  });
});
