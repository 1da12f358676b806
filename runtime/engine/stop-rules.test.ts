import { describe, expect, it } from "vitest";
import { resolveSideConfig } from "@/lib/standard";
import { bindingAttachments, bindingMessage, evaluateStop, sessionTurnLimitReason } from "./stop-rules";

const reviewer = resolveSideConfig({
  prompt: "asset_reviewer",
  stopOnResponse: false,
  sessionStop: { name: "approve_asset", messageProperty: "summary", attachmentsProperty: "attachments" },
  sessionFail: "give_up",
  stopTool: "hand_back",
  stopToolResponseProperty: "notes",
  maxSteps: 3,
});

describe("evaluateStop", () => {
  it("ends the session on a successful sessionStop, with the mapped message and attachments", () => {
    const decision = evaluateStop(
      {
        text: "",
        toolCalls: [
          {
            id: "1",
            name: "approve_asset",
            args: { summary: "Approved", attachments: ["/a.png"] },
            status: "success",
          },
        ],
      },
      { side: "b", sideConfig: reviewer, turnSteps: 1 },
    );
    expect(decision).toEqual({ kind: "session_completed", result: "Approved", attachments: ["/a.png"] });
  });

  it("ignores a sessionStop call that failed", () => {
    const decision = evaluateStop(
      { text: "", toolCalls: [{ id: "1", name: "approve_asset", args: {}, status: "error" }] },
      { side: "b", sideConfig: reviewer, turnSteps: 1 },
    );
    expect(decision).toEqual({ kind: "continue" });
  });

  it("fails the session on sessionFail with the default message property", () => {
    const decision = evaluateStop(
      { text: "", toolCalls: [{ id: "1", name: "give_up", args: { message: "cannot" }, status: "success" }] },
      { side: "b", sideConfig: reviewer, turnSteps: 1 },
    );
    expect(decision).toEqual({ kind: "session_failed", failure: "cannot", attachments: [] });
  });

  it("puts session bindings before stopTool, whatever the call order", () => {
    const decision = evaluateStop(
      {
        text: "",
        toolCalls: [
          { id: "1", name: "hand_back", args: {}, status: "success" },
          { id: "2", name: "approve_asset", args: { summary: "ok" }, status: "success" },
        ],
      },
      { side: "b", sideConfig: reviewer, turnSteps: 1 },
    );
    expect(decision.kind).toBe("session_completed");
  });

  it("ends the turn on stopTool and extracts stopToolResponseProperty", () => {
    const decision = evaluateStop(
      {
        text: "",
        toolCalls: [{ id: "1", name: "hand_back", args: { notes: "fix the shadow" }, status: "success" }],
      },
      { side: "b", sideConfig: reviewer, turnSteps: 1 },
    );
    expect(decision).toEqual({ kind: "turn_ended", reason: "stop_tool", responseText: "fix the shadow" });
  });

  it("ends the turn on a plain response only when stopOnResponse is on", () => {
    const worker = resolveSideConfig({ prompt: "w" });
    expect(
      evaluateStop({ text: "Done", toolCalls: [] }, { side: "a", sideConfig: worker, turnSteps: 1 }),
    ).toEqual({
      kind: "turn_ended",
      reason: "response",
    });
    expect(
      evaluateStop({ text: "Done", toolCalls: [] }, { side: "b", sideConfig: reviewer, turnSteps: 1 }),
    ).toEqual({
      kind: "continue",
    });
    const withTools = evaluateStop(
      { text: "Working", toolCalls: [{ id: "1", name: "search", args: {}, status: "success" }] },
      { side: "a", sideConfig: worker, turnSteps: 1 },
    );
    expect(withTools).toEqual({ kind: "continue" });
  });

  it("stops cleanly at maxSteps with a reason", () => {
    expect(
      evaluateStop({ text: "thinking", toolCalls: [] }, { side: "b", sideConfig: reviewer, turnSteps: 3 }),
    ).toEqual({
      kind: "limit",
      reason: "Side b reached max steps (3)",
    });
  });
});

describe("sessionTurnLimitReason", () => {
  it("counts exchanges as the smaller of both sides' turns", () => {
    expect(sessionTurnLimitReason(2, 1, 2)).toBeNull();
    expect(sessionTurnLimitReason(2, 2, 2)).toBe("Reached max session turns (2 exchanges)");
    expect(sessionTurnLimitReason(9, 9, undefined)).toBeNull();
  });
});

// The spec's order (§5): session bindings, then stopTool, then stopOnResponse, then the safety limits.
// Each adjacent pair is tried on the one step where both apply: the last step maxSteps allows.
describe("evaluateStop follows the spec's order on the step where two rules apply", () => {
  const lastStep = { side: "b" as const, turnSteps: 3 };
  const withStopOnResponse = resolveSideConfig({
    prompt: "asset_reviewer",
    stopOnResponse: true,
    sessionStop: "approve_asset",
    sessionFail: "give_up",
    stopTool: "hand_back",
    maxSteps: 3,
  });
  const call = (name: string, args: unknown = {}, status: "success" | "error" = "success") => ({
    id: name,
    name,
    args,
    status,
  });

  it("1 before 2: sessionStop and sessionFail beat stopTool in the same step", () => {
    for (const binding of ["approve_asset", "give_up"]) {
      const decision = evaluateStop(
        { text: "", toolCalls: [call("hand_back"), call(binding, { message: "m", summary: "s" })] },
        { ...lastStep, sideConfig: reviewer },
      );
      expect(decision.kind).toBe(binding === "approve_asset" ? "session_completed" : "session_failed");
    }
  });

  it("within 1: when sessionStop and sessionFail both succeed in one step, the earlier call decides", () => {
    const stopFirst = evaluateStop(
      { text: "", toolCalls: [call("approve_asset", { summary: "ok" }), call("give_up", { message: "no" })] },
      { ...lastStep, sideConfig: reviewer },
    );
    expect(stopFirst).toEqual({ kind: "session_completed", result: "ok", attachments: [] });
    const failFirst = evaluateStop(
      { text: "", toolCalls: [call("give_up", { message: "no" }), call("approve_asset", { summary: "ok" })] },
      { ...lastStep, sideConfig: reviewer },
    );
    expect(failFirst).toEqual({ kind: "session_failed", failure: "no", attachments: [] });
  });

  it("2 before 3: a stop-tool call with text ends the turn as stop_tool, not as a response", () => {
    const decision = evaluateStop(
      { text: "Here you go.", toolCalls: [call("hand_back")] },
      { ...lastStep, sideConfig: withStopOnResponse },
    );
    expect(decision).toEqual({ kind: "turn_ended", reason: "stop_tool" });
  });

  it("3 needs a step without tool calls: text next to any other tool call continues", () => {
    const decision = evaluateStop(
      { text: "Looking.", toolCalls: [call("search")] },
      { side: "b", turnSteps: 1, sideConfig: withStopOnResponse },
    );
    expect(decision).toEqual({ kind: "continue" });
    const blank = evaluateStop(
      { text: "  \n", toolCalls: [] },
      { side: "b", turnSteps: 1, sideConfig: withStopOnResponse },
    );
    expect(blank).toEqual({ kind: "continue" });
  });

  it("2 before 4: a stop-tool call on the last allowed step ends the turn, not at the limit", () => {
    const decision = evaluateStop(
      { text: "", toolCalls: [call("hand_back", { notes: "done" })] },
      { ...lastStep, sideConfig: reviewer },
    );
    expect(decision).toEqual({ kind: "turn_ended", reason: "stop_tool", responseText: "done" });
  });

  it("3 before 4: a plain response on the last allowed step ends the turn, not at the limit", () => {
    const decision = evaluateStop(
      { text: "Done.", toolCalls: [] },
      { ...lastStep, sideConfig: withStopOnResponse },
    );
    expect(decision).toEqual({ kind: "turn_ended", reason: "response" });
  });

  it("1 before 4: session bindings on the last allowed step end the session, not at the limit", () => {
    expect(
      evaluateStop(
        { text: "", toolCalls: [call("approve_asset", { summary: "ok" })] },
        { ...lastStep, sideConfig: reviewer },
      ).kind,
    ).toBe("session_completed");
    expect(
      evaluateStop(
        { text: "", toolCalls: [call("give_up", { message: "no" })] },
        { ...lastStep, sideConfig: reviewer },
      ).kind,
    ).toBe("session_failed");
  });

  it("4: failed stop calls do not count, so the last allowed step still stops at the limit", () => {
    for (const name of ["approve_asset", "give_up", "hand_back"]) {
      const decision = evaluateStop(
        { text: "", toolCalls: [call(name, {}, "error")] },
        { ...lastStep, sideConfig: reviewer },
      );
      expect(decision).toEqual({ kind: "limit", reason: "Side b reached max steps (3)" });
    }
    expect(
      evaluateStop(
        { text: "", toolCalls: [call("hand_back")] },
        { side: "b", turnSteps: 2, sideConfig: reviewer },
      ),
    ).toEqual({ kind: "turn_ended", reason: "stop_tool" });
    expect(
      evaluateStop(
        { text: "", toolCalls: [call("search")] },
        { side: "b", turnSteps: 2, sideConfig: reviewer },
      ),
    ).toEqual({ kind: "continue" });
    expect(
      evaluateStop(
        { text: "", toolCalls: [call("search")] },
        { side: "a", turnSteps: 4, sideConfig: reviewer },
      ),
    ).toEqual({ kind: "limit", reason: "Side a reached max steps (3)" });
  });
});

describe("session binding payloads", () => {
  const binding = { name: "approve_asset", messageProperty: "summary", attachmentsProperty: "files" };
  const counted = { name: "approve_asset", messageProperty: "length" };

  it("bindingMessage: a string as it is, other JSON as JSON text, nothing as empty", () => {
    expect(bindingMessage(binding, { summary: "Approved" })).toBe("Approved");
    expect(bindingMessage(binding, { summary: { score: 9 } })).toBe('{"score":9}');
    expect(bindingMessage(binding, { summary: 42 })).toBe("42");
    expect(bindingMessage(binding, { summary: false })).toBe("false");
    expect(bindingMessage(binding, { summary: "" })).toBe("");
    expect(bindingMessage(binding, { summary: null })).toBe("");
    expect(bindingMessage(binding, {})).toBe("");
  });

  it("bindingMessage reads only the properties of a JSON object, never of arrays, strings or null", () => {
    expect(bindingMessage(counted, [1, 2, 3])).toBe("");
    expect(bindingMessage(counted, "abc")).toBe("");
    expect(bindingMessage(counted, null)).toBe("");
    expect(bindingMessage(counted, undefined)).toBe("");
    expect(bindingMessage(counted, { length: 2 })).toBe("2");
  });

  it("bindingAttachments: one path, a list of paths (non-strings and empties dropped), or none", () => {
    expect(bindingAttachments(binding, { files: "/a.png" })).toEqual(["/a.png"]);
    expect(bindingAttachments(binding, { files: "" })).toEqual([]);
    expect(bindingAttachments(binding, { files: ["/a.png", "", 3, null, "/b.png"] })).toEqual([
      "/a.png",
      "/b.png",
    ]);
    expect(bindingAttachments(binding, { files: 7 })).toEqual([]);
    expect(bindingAttachments(binding, { files: { path: "/a.png" } })).toEqual([]);
    expect(bindingAttachments(binding, {})).toEqual([]);
  });

  it("bindingAttachments without an attachmentsProperty is empty, whatever the arguments hold", () => {
    const bare = { name: "approve_asset", messageProperty: "summary" };
    expect(
      bindingAttachments(bare, { undefined: ["/a.png"], files: ["/b.png"], attachments: "/c.png" }),
    ).toEqual([]);
  });

  it("the stop tool's response property: text as it is, other JSON as JSON text, absent as no responseText at all", () => {
    const object = evaluateStop(
      {
        text: "",
        toolCalls: [{ id: "1", name: "hand_back", args: { notes: { fixed: 2 } }, status: "success" }],
      },
      { side: "b", sideConfig: reviewer, turnSteps: 1 },
    );
    expect(object).toEqual({ kind: "turn_ended", reason: "stop_tool", responseText: '{"fixed":2}' });
    const absent = evaluateStop(
      { text: "", toolCalls: [{ id: "1", name: "hand_back", args: {}, status: "success" }] },
      { side: "b", sideConfig: reviewer, turnSteps: 1 },
    );
    expect(Object.keys(absent)).toEqual(["kind", "reason"]);
  });
});
