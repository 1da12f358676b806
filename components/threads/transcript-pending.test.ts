import { describe, expect, it } from "vitest";
import type { LiveMessage } from "@/lib/live";
import { unansweredToolCalls } from "./Transcript";

function message(id: string, fields: Partial<LiveMessage>): LiveMessage {
  return {
    id,
    seq: 0,
    role: "assistant",
    side: null,
    content: null,
    name: null,
    tool_calls: null,
    tool_call_id: null,
    tool_status: null,
    parent_id: null,
    depth: 0,
    silent: false,
    metadata: {},
    subagent_id: null,
    attachments: [],
    created_at: 0,
    ...fields,
  };
}

const calls = (...ids: string[]) =>
  JSON.stringify(
    ids.map((id) => ({ id, type: "function", function: { name: "asset_subagent", arguments: "{}" } })),
  );

describe("unansweredToolCalls", () => {
  it("lists each assistant message's calls that no tool message answers", () => {
    const messages = [
      message("u1", { role: "user", content: "hi" }),
      message("a1", { tool_calls: calls("c1", "c2") }),
      message("t1", { role: "tool", tool_call_id: "c1", content: "done" }),
      message("a2", { tool_calls: calls("c3") }),
    ];
    expect([...unansweredToolCalls(messages)]).toEqual([
      ["a1", "c2"],
      ["a2", "c3"],
    ]);
  });

  it("lists nothing once every call has its result", () => {
    const messages = [
      message("a1", { tool_calls: calls("c1") }),
      message("t1", { role: "tool", tool_call_id: "c1", content: "done" }),
      message("a2", { content: "The asset is ready." }),
    ];
    expect(unansweredToolCalls(messages).size).toBe(0);
  });
});
