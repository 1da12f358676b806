import { describe, expect, it } from "vitest";
import { conversation, toolCall } from "../../test/support/stored-messages";
import { assembleContext, type ContextOptions, UNANSWERED_TOOL_CALL_RESULT } from "./context";

const chat: ContextOptions = { includeChat: true, includePastTools: true, recentImageThreshold: 10 };

describe("assembleContext", () => {
  it("puts the system prompt first and keeps ai_human roles as stored", () => {
    const messages = conversation(
      { role: "user", side: "b", content: "Hi" },
      { role: "assistant", side: "a", content: "Hello" },
      { role: "user", side: "b", content: "How are you?" },
    );
    expect(
      assembleContext({
        systemPrompt: "Be kind.",
        messages,
        actingSide: "a",
        turnStartSeq: 3,
        options: chat,
      }),
    ).toEqual([
      { role: "system", content: "Be kind." },
      { role: "user", content: "Hi" },
      { role: "assistant", content: "Hello" },
      { role: "user", content: "How are you?" },
    ]);
  });

  it("gives each dual_ai side its own perspective and only its own tool calls", () => {
    const messages = conversation(
      { role: "user", side: null, content: "Draw a tree" },
      { role: "assistant", side: "a", content: "drafting", tool_calls: [toolCall("c1", "draw")] },
      { role: "tool", side: "a", tool_call_id: "c1", name: "draw", content: "done", tool_status: "success" },
      { role: "assistant", side: "a", content: "Here is the tree" },
      { role: "user", side: "b", content: "Looks good", tool_calls: [toolCall("c2", "update_status")] },
      {
        role: "tool",
        side: "b",
        tool_call_id: "c2",
        name: "update_status",
        content: "ok",
        tool_status: "success",
      },
    );
    const sideB = assembleContext({
      systemPrompt: "Review.",
      messages,
      actingSide: "b",
      turnStartSeq: 5,
      options: chat,
    });
    expect(sideB).toEqual([
      { role: "system", content: "Review." },
      { role: "user", content: "Draw a tree" },
      { role: "user", content: "drafting" },
      { role: "user", content: "Here is the tree" },
      {
        role: "assistant",
        content: "Looks good",
        toolCalls: [{ id: "c2", name: "update_status", args: {} }],
      },
      { role: "tool", toolCallId: "c2", toolName: "update_status", content: "ok", isError: false },
    ]);
    const sideA = assembleContext({
      systemPrompt: "Work.",
      messages,
      actingSide: "a",
      turnStartSeq: 7,
      options: chat,
    });
    expect(sideA.map((message) => message.role)).toEqual([
      "system",
      "user",
      "assistant",
      "tool",
      "assistant",
      "user",
    ]);
    expect(sideA.at(-1)).toEqual({ role: "user", content: "Looks good" });
  });

  it("with includeChat false shows only the current turn", () => {
    const messages = conversation(
      { role: "user", side: "b", content: "old question" },
      { role: "assistant", side: "a", content: "old answer" },
      { role: "user", side: "b", content: "new question" },
    );
    const context = assembleContext({
      systemPrompt: "S",
      messages,
      actingSide: "a",
      turnStartSeq: 3,
      options: { ...chat, includeChat: false },
    });
    expect(context).toEqual([
      { role: "system", content: "S" },
      { role: "user", content: "new question" },
    ]);
  });

  it("with includePastTools false hides earlier turns' tools but keeps this turn's", () => {
    const messages = conversation(
      { role: "user", side: "b", content: "q1" },
      { role: "assistant", side: "a", content: "", tool_calls: [toolCall("old", "search")] },
      {
        role: "tool",
        side: "a",
        tool_call_id: "old",
        name: "search",
        content: "old result",
        tool_status: "success",
      },
      { role: "assistant", side: "a", content: "a1" },
      { role: "user", side: "b", content: "q2" },
      { role: "assistant", side: "a", content: "", tool_calls: [toolCall("new", "search")] },
      {
        role: "tool",
        side: "a",
        tool_call_id: "new",
        name: "search",
        content: "new result",
        tool_status: "success",
      },
    );
    const context = assembleContext({
      systemPrompt: "S",
      messages,
      actingSide: "a",
      turnStartSeq: 5,
      options: { ...chat, includePastTools: false },
    });
    expect(context).toEqual([
      { role: "system", content: "S" },
      { role: "user", content: "q1" },
      { role: "assistant", content: "a1" },
      { role: "user", content: "q2" },
      { role: "assistant", content: "", toolCalls: [{ id: "new", name: "search", args: {} }] },
      { role: "tool", toolCallId: "new", toolName: "search", content: "new result", isError: false },
    ]);
  });

  it("drops orphan tool results, answers unanswered calls, and skips sub-prompt and system messages", () => {
    const messages = conversation(
      { role: "user", side: "b", content: "go" },
      { role: "system", side: null, content: "Execution stopped by user" },
      {
        role: "tool",
        side: "a",
        tool_call_id: "ghost",
        name: "x",
        content: "orphan",
        tool_status: "success",
      },
      { role: "assistant", side: "a", content: "", tool_calls: [toolCall("c1", "slow")] },
      { role: "assistant", side: "a", content: "nested", depth: 1 },
    );
    const context = assembleContext({
      systemPrompt: "S",
      messages,
      actingSide: "a",
      turnStartSeq: 1,
      options: chat,
    });
    expect(context).toEqual([
      { role: "system", content: "S" },
      { role: "user", content: "go" },
      { role: "assistant", content: "", toolCalls: [{ id: "c1", name: "slow", args: {} }] },
      {
        role: "tool",
        toolCallId: "c1",
        toolName: "slow",
        content: UNANSWERED_TOOL_CALL_RESULT,
        isError: true,
      },
    ]);
  });

  it("sends recent images as image parts and older ones as file notes", () => {
    const image = (path: string) => ({
      id: path,
      type: "file" as const,
      path,
      name: path,
      mimeType: "image/png",
      size: 1,
    });
    const messages = conversation(
      { role: "user", side: "b", content: "first", attachments: [image("/attachments/1.png")] },
      { role: "user", side: "b", content: "second", attachments: [image("/attachments/2.png")] },
    );
    const context = assembleContext({
      systemPrompt: "S",
      messages,
      actingSide: "a",
      turnStartSeq: 1,
      options: { ...chat, recentImageThreshold: 1 },
      imageData: new Map([
        ["/attachments/1.png", "AAA"],
        ["/attachments/2.png", "BBB"],
      ]),
    });
    expect(context[1]).toEqual({ role: "user", content: "first\n\n[Attached files: /attachments/1.png]" });
    expect(context[2]).toEqual({
      role: "user",
      content: [
        { type: "text", text: "second" },
        { type: "image", mimeType: "image/png", data: "BBB" },
      ],
    });
  });

  it("appends the system appendix (e.g. the child registry) to the system prompt", () => {
    const context = assembleContext({
      systemPrompt: "S",
      systemAppendix: "Children: none",
      messages: [],
      actingSide: "a",
      turnStartSeq: 0,
      options: chat,
    });
    expect(context).toEqual([{ role: "system", content: "S\n\nChildren: none" }]);
  });
});

describe("messages injected while tools run", () => {
  it("moves them after the call's results, and treats an injected assistant message as side A's", () => {
    const messages = conversation(
      { role: "user", side: "b", content: "go" },
      { role: "assistant", side: "a", content: "", tool_calls: [toolCall("c1", "t"), toolCall("c2", "t")] },
      { role: "tool", side: "a", tool_call_id: "c1", name: "t", content: "r1", tool_status: "success" },
      { role: "user", side: null, content: "injected input" },
      { role: "assistant", side: null, content: "injected note" },
      { role: "tool", side: "a", tool_call_id: "c2", name: "t", content: "r2", tool_status: "success" },
    );
    const context = assembleContext({
      systemPrompt: "S",
      messages,
      actingSide: "a",
      turnStartSeq: 1,
      options: chat,
    });
    expect(
      context.map((message) => [
        message.role,
        "toolCallId" in message ? message.toolCallId : message.content,
      ]),
    ).toEqual([
      ["system", "S"],
      ["user", "go"],
      ["assistant", ""],
      ["tool", "c1"],
      ["tool", "c2"],
      ["user", "injected input"],
      ["assistant", "injected note"],
    ]);
  });
});
