import { describe, expect, it } from "vitest";
import { selectPendingApprovals } from "./apply-approval";
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
});
