import { describe, expect, it } from "vitest";
import { childOutcomeOf } from "./report-to-parent";

describe("childOutcomeOf", () => {
  it("reads each session end as the child's outcome", () => {
    expect(childOutcomeOf("completed", { result: "done" })).toEqual({ kind: "completed", result: "done" });
    expect(childOutcomeOf("failed", { failure: "boom" })).toEqual({ kind: "failed", failure: "boom" });
    expect(childOutcomeOf("stopped", { stopReason: "maxTurns" })).toEqual({
      kind: "stopped",
      reason: "maxTurns",
    });
    expect(childOutcomeOf("terminated", {})).toEqual({ kind: "terminated" });
  });

  it("fills what a session end left out", () => {
    expect(childOutcomeOf("completed", {})).toEqual({ kind: "completed", result: "" });
    expect(childOutcomeOf("failed", { failure: null })).toEqual({ kind: "failed", failure: "" });
    expect(childOutcomeOf("stopped", {})).toEqual({ kind: "stopped", reason: "stopped" });
  });

  it("is null for a status that ends no session, so nothing is reported", () => {
    for (const status of ["idle", "queued", "running"]) expect(childOutcomeOf(status, {})).toBeNull();
  });
});
