import { describe, expect, it } from "vitest";
import { selectDivergences, selectPendingApprovals } from "./apply-approval";
import { applySseFrame } from "./reducer";
import { initialLiveState } from "./state";

const ROOT = "root-1";

function frame(id: number, approval: Record<string, unknown>) {
  return {
    event: "approval",
    id: String(id),
    data: JSON.stringify({
      thread_id: approval.thread_id,
      approval: {
        root_id: ROOT,
        tool_call_id: `call-${approval.id}`,
        tool_name: "write_file",
        args: { path: "/a.md" },
        requested_at: 100,
        ...approval,
      },
    }),
  };
}

describe("approval events in the live state", () => {
  it("lists pending approvals of the whole tree, oldest first, and drops them once decided", () => {
    let state = initialLiveState(ROOT);
    state = applySseFrame(
      state,
      frame(1, { id: "b", thread_id: "child-2", state: "pending", requested_at: 200 }),
    );
    state = applySseFrame(
      state,
      frame(2, { id: "a", thread_id: "child-1", state: "pending", requested_at: 100 }),
    );
    expect(selectPendingApprovals(state).map((approval) => [approval.id, approval.thread_id])).toEqual([
      ["a", "child-1"],
      ["b", "child-2"],
    ]);
    state = applySseFrame(
      state,
      frame(3, { id: "a", thread_id: "child-1", state: "approved", requested_at: 100 }),
    );
    expect(selectPendingApprovals(state).map((approval) => approval.id)).toEqual(["b"]);
    // A replayed (older) event cannot bring a decided approval back.
    state = applySseFrame(
      state,
      frame(2, { id: "a", thread_id: "child-1", state: "pending", requested_at: 100 }),
    );
    expect(selectPendingApprovals(state).map((approval) => approval.id)).toEqual(["b"]);
    expect(state.problems).toEqual([]);
  });

  it("records a malformed approval event as a problem instead of throwing", () => {
    const state = applySseFrame(initialLiveState(ROOT), {
      event: "approval",
      id: "1",
      data: JSON.stringify({ thread_id: "t", approval: { id: "x", state: "maybe" } }),
    });
    expect(state.problems[0]?.code).toBe("invalid_payload");
    expect(selectPendingApprovals(state)).toEqual([]);
  });

  it("orders approvals requested at the same time by id", () => {
    let state = initialLiveState(ROOT);
    for (const [index, id] of ["c", "a", "b"].entries())
      state = applySseFrame(state, frame(index + 1, { id, thread_id: "child-1", state: "pending" }));
    expect(selectPendingApprovals(state).map((approval) => approval.id)).toEqual(["a", "b", "c"]);
  });
});

function divergenceFrame(id: number, threadId: string, at: number, reason = "request_changed") {
  return {
    event: "divergence",
    id: String(id),
    data: JSON.stringify({
      thread_id: threadId,
      divergence: {
        thread_id: threadId,
        source_thread_id: `source-${threadId}`,
        agent_id: "helper",
        side: "a",
        call_index: 0,
        model: "m1",
        reason,
        at,
      },
    }),
  };
}

describe("divergence events in the live state", () => {
  it("keeps one divergence per replayed thread, listed earliest first", () => {
    let state = initialLiveState(ROOT);
    state = applySseFrame(state, divergenceFrame(1, "child-2", 300));
    state = applySseFrame(state, divergenceFrame(2, "child-1", 200));
    state = applySseFrame(state, divergenceFrame(3, "child-3", 250, "no_recording"));
    expect(selectDivergences(state).map((divergence) => [divergence.thread_id, divergence.at])).toEqual([
      ["child-1", 200],
      ["child-3", 250],
      ["child-2", 300],
    ]);
    expect(selectDivergences(state)[1]).toStrictEqual({
      thread_id: "child-3",
      source_thread_id: "source-child-3",
      agent_id: "helper",
      thread_name: null,
      side: "a",
      call_index: 0,
      model: "m1",
      reason: "no_recording",
      path: null,
      at: 250,
    });
    const again = applySseFrame(state, divergenceFrame(4, "child-1", 200));
    expect(selectDivergences(again)).toEqual(selectDivergences(state));
    expect(again.problems).toEqual([]);
  });
});
