import { describe, expect, it } from "vitest";
import type { ModelCallResult } from "../../models/types";
import { initialExecutionState, type StoredMessage, type StoredToolCall } from "../../store/messages";
import {
  countStep,
  executedCallRecord,
  executedCallsKnown,
  replyToolCalls,
  unansweredToolCalls,
} from "./tool-call-records";

function call(id: string, name = "lookup", args = "{}"): StoredToolCall {
  return { id, type: "function", function: { name, arguments: args } };
}

function message(seq: number, fields: Partial<StoredMessage>): StoredMessage {
  return {
    id: `m${seq}`,
    seq,
    role: "assistant",
    side: "a",
    content: "",
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
    prompt: null,
    created_at: 0,
    ...fields,
  };
}

const toolResult = (seq: number, callId: string, status: "success" | "error" = "success", metadata = {}) =>
  message(seq, { role: "tool", tool_call_id: callId, tool_status: status, metadata });

describe("unansweredToolCalls", () => {
  it("returns the side's last calls still without results, in order", () => {
    const assistant = message(2, { tool_calls: [call("1"), call("2"), call("3")] });
    const history = [message(1, { role: "user", side: "b" }), assistant, toolResult(3, "2")];
    expect(unansweredToolCalls(history, "a")).toEqual({ message: assistant, calls: [call("1"), call("3")] });
  });

  it("ignores the other side, nested messages and results from before the calls", () => {
    const history = [
      toolResult(1, "1"),
      message(2, { tool_calls: [call("1")] }),
      message(3, { role: "tool", tool_call_id: "1", depth: 1 }),
      message(4, { side: "b", content: "hi" }),
    ];
    expect(unansweredToolCalls(history, "a")?.calls).toEqual([call("1")]);
    expect(unansweredToolCalls(history, "b")).toBeNull();
  });

  it("is null once every call is answered or the last message has none", () => {
    expect(
      unansweredToolCalls([message(1, { tool_calls: [call("1")] }), toolResult(2, "1")], "a"),
    ).toBeNull();
    expect(unansweredToolCalls([message(1, { tool_calls: [call("1")] }), message(2, {})], "a")).toBeNull();
  });
});

describe("executedCallsKnown", () => {
  const assistant = message(5, {
    tool_calls: [call("1", "handoff_to_b", '{"x":1}'), call("2", "lookup", "oops")],
  });

  it("lists every call with its result's status, args parsed, and the handoff target", () => {
    const results = [toolResult(6, "1", "success", { handoff: { agent: "B" } }), toolResult(7, "2", "error")];
    expect(executedCallsKnown(assistant, results)).toEqual([
      { id: "1", name: "handoff_to_b", args: { x: 1 }, status: "success", handoffTo: "B" },
      { id: "2", name: "lookup", args: "oops", status: "error" },
    ]);
  });

  it("is null when a result is missing from memory (it must be read)", () => {
    expect(executedCallsKnown(assistant, [toolResult(6, "1")])).toBeNull();
    // A result stored before the reply belongs to an earlier call with the same id.
    expect(executedCallsKnown(assistant, [toolResult(4, "1"), toolResult(7, "2")])).toBeNull();
  });
});

describe("executedCallRecord", () => {
  it("reads handoff metadata stored as JSON text", () => {
    const record = executedCallRecord(
      call("1", "go"),
      "success",
      JSON.stringify({ handoff: { agent: "C" } }),
    );
    expect(record.handoffTo).toBe("C");
  });
});

describe("countStep", () => {
  it("counts the step for its side, its turn and its run", () => {
    const before = {
      ...initialExecutionState(),
      stepCount: 4,
      sideASteps: 3,
      sideBSteps: 1,
      turnSteps: 2,
      runSteps: 4,
    };
    expect(countStep(before, "b")).toEqual({
      ...before,
      stepCount: 5,
      sideASteps: 3,
      sideBSteps: 2,
      turnSteps: 3,
      runSteps: 5,
    });
  });
});

describe("replyToolCalls", () => {
  const result = (text: string, toolCalls: ModelCallResult["toolCalls"]) =>
    ({ text, toolCalls }) as ModelCallResult;

  it("stores the model's calls with their arguments as JSON text", () => {
    const calls = replyToolCalls(
      result("", [
        { id: "c1", name: "lookup", args: { q: "x" } },
        { id: "c2", name: "raw", args: '{"a":1}' },
      ]),
      "reply-id",
    );
    expect(calls).toEqual([
      { id: "c1", type: "function", function: { name: "lookup", arguments: '{"q":"x"}' } },
      { id: "c2", type: "function", function: { name: "raw", arguments: '{"a":1}' } },
    ]);
  });

  it("answers an empty reply with the spec's invalid_assistant_response call", () => {
    expect(replyToolCalls(result("  ", []), "reply-id")).toEqual([
      {
        id: "invalid_reply-id",
        type: "function",
        function: {
          name: "invalid_assistant_response",
          arguments: JSON.stringify({ reason: "empty_response", assistantMessageId: "reply-id" }),
        },
      },
    ]);
    expect(replyToolCalls(result("hi", []), "reply-id")).toEqual([]);
  });
});
