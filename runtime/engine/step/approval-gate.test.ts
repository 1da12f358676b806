import { describe, expect, it } from "vitest";
import { indexBundle, resolveSideConfig } from "@/lib/standard";
import { assetBundle } from "../../../test/support/spec-fixtures";
import type { ApprovalRow } from "../../store/approval-store";
import type { StoredToolCall } from "../../store/messages";
import { buildToolCatalog } from "../tool-catalog";
import { approvedCall, deniedExecution, needsApproval, verdictOf } from "./approval-gate";

const call: StoredToolCall = {
  id: "call_1",
  type: "function",
  function: { name: "write_file", arguments: JSON.stringify({ path: "/a.md", content: "asked" }) },
};

function row(overrides: Partial<ApprovalRow>): ApprovalRow {
  return {
    id: "ap_1",
    thread_id: "t",
    root_id: "t",
    project_id: "p",
    tool_call_id: "call_1",
    tool_name: "write_file",
    args: { path: "/a.md", content: "asked" },
    args_schema: null,
    state: "pending",
    decided_args: null,
    reason: null,
    requested_at: 1,
    decided_at: null,
    thread_name: null,
    agent_id: "a",
    ...overrides,
  };
}

describe("the approval gate", () => {
  it("waits without a row or while pending, and follows the decision once made", () => {
    expect(verdictOf(undefined).kind).toBe("wait");
    expect(verdictOf(row({})).kind).toBe("wait");
    expect(verdictOf(row({ state: "approved" })).kind).toBe("approved");
    expect(verdictOf(row({ state: "denied" })).kind).toBe("denied");
    expect(verdictOf(row({ state: "cancelled" })).kind).toBe("denied");
  });

  it("runs an approved call with the edited arguments, or as asked", () => {
    expect(approvedCall(call, row({ state: "approved" }))).toBe(call);
    const edited = approvedCall(
      call,
      row({ state: "approved", decided_args: { path: "/b.md", content: "new" } }),
    );
    expect(edited.id).toBe("call_1");
    expect(JSON.parse(edited.function.arguments)).toEqual({ path: "/b.md", content: "new" });
  });

  it("answers a denied call with an error result carrying the reason", () => {
    const denied = deniedExecution(call, row({ state: "denied", reason: "not today" }));
    expect(denied.status).toBe("error");
    expect(denied.content).toContain("not today");
    expect(denied.metadata).toEqual({ approval: { id: "ap_1", state: "denied" } });
    expect(deniedExecution(call, row({ state: "denied" })).content).toContain("A human denied this call.");
  });

  it("gates the model's calls of marked tools only, never the runtime's own immediate calls", () => {
    const bundle = assetBundle();
    const worker = bundle.prompts.find((prompt) => prompt.name === "asset_worker")!;
    worker.tools = [{ name: "write_file", requiresApproval: true }, "list_files"];
    const index = indexBundle(bundle);
    const agent = bundle.agents.find((candidate) => candidate.name === "asset_subagent")!;
    const catalog = buildToolCatalog(worker, resolveSideConfig(agent.sideA), index);
    expect([...(catalog.approvals ?? [])]).toEqual(["write_file"]);
    expect(needsApproval({ catalog }, call)).toBe(true);
    expect(needsApproval({ catalog }, { ...call, function: { ...call.function, name: "list_files" } })).toBe(
      false,
    );
    expect(needsApproval({ catalog }, { ...call, id: "immediate_1" })).toBe(false);
    worker.tools = ["write_file"];
    expect(
      buildToolCatalog(worker, resolveSideConfig(agent.sideA), indexBundle(bundle)).approvals,
    ).toBeUndefined();
  });
});
