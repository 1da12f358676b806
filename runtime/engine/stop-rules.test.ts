import { describe, expect, it } from "vitest";
import { resolveSideConfig } from "@/lib/standard";
import { evaluateStop, sessionTurnLimitReason } from "./stop-rules";

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
