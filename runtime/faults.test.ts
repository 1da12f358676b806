import { describe, expect, it } from "vitest";
import { parseCrashSpec } from "./faults";

describe("parseCrashSpec", () => {
  it("reads point, agent and occurrence", () => {
    expect(parseCrashSpec("after_model_call@asset_subagent#4")).toEqual({
      point: "after_model_call",
      agent: "asset_subagent",
      occurrence: 4,
    });
    expect(parseCrashSpec("before_terminal_commit")).toEqual({
      point: "before_terminal_commit",
      agent: null,
      occurrence: 1,
    });
  });

  it("ignores empty or malformed values", () => {
    expect(parseCrashSpec(undefined)).toBeNull();
    expect(parseCrashSpec("")).toBeNull();
    expect(parseCrashSpec("rm -rf /")).toBeNull();
  });
});
