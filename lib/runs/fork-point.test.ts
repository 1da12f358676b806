import { describe, expect, it } from "vitest";
import { type ForkPointMessage, forkCut } from "./fork-point";

let seq = 0;
function message(id: string, role: string, extra: Partial<ForkPointMessage> = {}): ForkPointMessage {
  seq += 1;
  return { id, seq, role, depth: 0, tool_calls: null, tool_call_id: null, ...extra };
}

function history(): ForkPointMessage[] {
  seq = 0;
  return [
    message("u1", "user"),
    message("a1", "assistant", { tool_calls: [{ id: "c1" }, { id: "c2" }] }),
    message("n1", "assistant", { depth: 1 }),
    message("r1", "tool", { tool_call_id: "c1" }),
    message("r2", "tool", { tool_call_id: "c2" }),
    message("a2", "assistant"),
    message("u2", "user"),
  ];
}

describe("forkCut", () => {
  it("cuts at a plain message", () => {
    expect(forkCut(history(), "u1")).toEqual({ kind: "ok", throughSeq: 1, throughId: "u1", extended: false });
    expect(forkCut(history(), "a2")).toEqual({ kind: "ok", throughSeq: 6, throughId: "a2", extended: false });
  });

  it("includes every result of an assistant message's tool calls", () => {
    expect(forkCut(history(), "a1")).toEqual({ kind: "ok", throughSeq: 5, throughId: "r2", extended: true });
  });

  it("includes the remaining results when the cut is at one result of several", () => {
    expect(forkCut(history(), "r1")).toEqual({ kind: "ok", throughSeq: 5, throughId: "r2", extended: true });
  });

  it("refuses unknown and nested messages", () => {
    expect(forkCut(history(), "nope")).toEqual({ kind: "not_found" });
    expect(forkCut(history(), "n1")).toEqual({ kind: "nested" });
  });

  it("with replace, ends just before the message (nothing before the first one)", () => {
    expect(forkCut(history(), "u2", { replace: true })).toEqual({
      kind: "ok",
      throughSeq: 6,
      throughId: "a2",
      extended: false,
    });
    expect(forkCut(history(), "u1", { replace: true })).toEqual({
      kind: "ok",
      throughSeq: 0,
      throughId: null,
      extended: false,
    });
    expect(forkCut(history(), "r2", { replace: true })).toEqual({ kind: "unanswered", callId: "c2" });
    expect(forkCut(history(), "r1", { replace: true })).toEqual({ kind: "unanswered", callId: "c1" });
  });

  it("refuses a cut that would hold a call without its result", () => {
    const open = history().slice(0, 4);
    expect(forkCut(open, "a1")).toEqual({ kind: "unanswered", callId: "c2" });
    expect(forkCut(open, "u1").kind).toBe("ok");
  });
});
