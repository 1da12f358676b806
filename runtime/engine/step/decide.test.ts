import { describe, expect, it } from "vitest";
import { initialExecutionState } from "../../store/messages";
import { type DecisionInput, decideNext } from "./decide";
import { EXECUTION_STOPPED_RESULT } from "./types";

const running = { ...initialExecutionState(), stepCount: 3, turnSteps: 2, runSteps: 3, turnsA: 1, turnsB: 1 };

function input(overrides: Partial<DecisionInput> = {}): DecisionInput {
  return {
    execution: running,
    decision: { kind: "continue" },
    agent: { type: "ai_human", sideA: { prompt: "p" }, maxSessionTurns: undefined },
    side: "a",
    sideConfig: { stopOnResponse: true, stopTool: undefined },
    control: { stopRequested: false, forcedSide: null },
    ...overrides,
  };
}

const dual = { type: "dual_ai" as const, sideA: { prompt: "a" }, sideB: { prompt: "b" } };

describe("decideNext", () => {
  it("parks a completed session with its result and reported attachments, naming the side", () => {
    const move = decideNext(
      input({
        decision: { kind: "session_completed", result: "done", attachments: ["/x.png"] },
        usage: { inputTokens: 1, outputTokens: 2, costUsd: 0 },
      }),
    );
    expect(move).toEqual({
      kind: "park",
      transition: "completeSession",
      changes: {
        execution: running,
        usage: { inputTokens: 1, outputTokens: 2, costUsd: 0 },
        result: "done",
        stopReason: "Session completed",
      },
      side: "a",
      attachments: ["/x.png"],
    });
  });

  it("lets a session end win over a stop request and a forced turn", () => {
    const move = decideNext(
      input({
        decision: { kind: "session_failed", failure: "no", attachments: [] },
        control: { stopRequested: true, forcedSide: "b" },
      }),
    );
    expect(move.kind).toBe("park");
    expect(move.kind === "park" && move.transition).toBe("failSession");
    expect(move.changes.failure).toBe("no");
  });

  it("parks a run stopped by state.execution.stop() as stopped, keeping extra changes", () => {
    const move = decideNext(
      input({ control: { stopRequested: true, forcedSide: null }, extra: { statusText: "busy" } }),
    );
    expect(move).toEqual({
      kind: "park",
      transition: "stopSession",
      changes: {
        statusText: "busy",
        execution: running,
        stopReason: EXECUTION_STOPPED_RESULT,
      },
      side: "a",
    });
  });

  it("forceTurn to B of an ai_human waits for the human: idle, no side named", () => {
    const move = decideNext(input({ control: { stopRequested: false, forcedSide: "b" } }));
    expect(move).toEqual({
      kind: "park",
      transition: "park",
      changes: { execution: running, stopReason: null },
    });
  });

  it("forceTurn to the acting side runs on even when the stop rules ended the turn", () => {
    const move = decideNext(
      input({
        decision: { kind: "turn_ended", reason: "response" },
        control: { stopRequested: false, forcedSide: "a" },
      }),
    );
    expect(move).toEqual({ kind: "run_on", changes: { execution: running } });
  });

  it("forceTurn to the other side of a dual_ai passes the turn even when the rules say continue", () => {
    const move = decideNext(input({ agent: dual, control: { stopRequested: false, forcedSide: "b" } }));
    expect(move.kind).toBe("switch_side");
    if (move.kind !== "switch_side") return;
    expect(move.execution.currentSide).toBe("b");
    expect(move.execution.turnsA).toBe(running.turnsA + 1);
    expect(move.execution.turnSteps).toBe(0);
  });

  it("continues on the same side while the stop rules say continue", () => {
    expect(decideNext(input())).toEqual({ kind: "run_on", changes: { execution: running } });
  });

  it("stops at the per-run cap, the larger of 250 and the sides' maxSteps", () => {
    const atDefault = decideNext(input({ execution: { ...running, runSteps: 250 } }));
    expect(atDefault).toMatchObject({
      kind: "park",
      transition: "stopSession",
      changes: { stopReason: "Maximum steps reached (250)" },
    });
    const raised = input({
      execution: { ...running, runSteps: 250 },
      agent: { type: "ai_human", sideA: { prompt: "p", maxSteps: 400 } },
    });
    expect(decideNext(raised).kind).toBe("run_on");
  });

  it("an ai_human turn that ends parks the thread idle and counts the turn", () => {
    const move = decideNext(input({ decision: { kind: "turn_ended", reason: "response" } }));
    expect(move).toEqual({
      kind: "park",
      transition: "park",
      changes: { execution: { ...running, turnsA: running.turnsA + 1 }, stopReason: null },
    });
  });

  it("a turn that reaches maxSessionTurns stops the session", () => {
    const move = decideNext(
      input({
        agent: { ...dual, maxSessionTurns: 2 },
        execution: { ...running, turnsA: 1, turnsB: 2 },
        decision: { kind: "turn_ended", reason: "stop_tool" },
      }),
    );
    expect(move).toMatchObject({
      kind: "park",
      side: "a",
      transition: "stopSession",
      changes: { stopReason: "Reached max session turns (2 exchanges)" },
    });
  });

  it("a dual_ai side without a turn-stop condition passes the turn after every step", () => {
    const move = decideNext(
      input({ agent: dual, side: "b", sideConfig: { stopOnResponse: false, stopTool: undefined } }),
    );
    expect(move.kind).toBe("switch_side");
    if (move.kind !== "switch_side") return;
    expect(move.execution).toMatchObject({ currentSide: "a", turnsB: running.turnsB + 1, turnSteps: 0 });
    expect(move.changes).toEqual({ execution: running });
  });

  it("a dual_ai side with a stop tool keeps its turn until the tool ends it", () => {
    const move = decideNext(input({ agent: dual, sideConfig: { stopOnResponse: false, stopTool: "done" } }));
    expect(move.kind).toBe("run_on");
  });

  it("a dual_ai turn ending at the per-run cap stops instead of switching", () => {
    const move = decideNext(
      input({
        agent: dual,
        execution: { ...running, runSteps: 250 },
        decision: { kind: "turn_ended", reason: "response" },
      }),
    );
    expect(move).toMatchObject({
      kind: "park",
      transition: "stopSession",
      changes: { stopReason: "Maximum steps reached (250)" },
    });
  });

  it("a stop-rule limit parks the thread stopped with its reason", () => {
    const move = decideNext(input({ decision: { kind: "limit", reason: "Max steps (3)" } }));
    expect(move).toMatchObject({
      kind: "park",
      side: "a",
      transition: "stopSession",
      changes: { stopReason: "Max steps (3)" },
    });
  });
});
