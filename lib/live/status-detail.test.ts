import { describe, expect, it } from "vitest";
import { type StatusFacts, statusDetail } from "./status-detail";

const facts = (overrides: Partial<StatusFacts>): StatusFacts => ({
  status: "idle",
  stop_reason: null,
  failure: null,
  status_text: null,
  ...overrides,
});

describe("statusDetail", () => {
  it("names the limit a stopped thread hit", () => {
    expect(
      statusDetail(facts({ status: "stopped", stop_reason: "Reached max session turns (40 exchanges)" })),
    ).toEqual({ text: "Reached max session turns (40 exchanges)", tone: "problem" });
  });

  it("gives a failure's text, with a distinct stop reason after it", () => {
    expect(
      statusDetail(facts({ status: "failed", failure: "Error: boom", stop_reason: "Error: boom" })),
    ).toEqual({
      text: "Error: boom",
      tone: "problem",
    });
    expect(
      statusDetail(facts({ status: "failed", failure: "bad input", stop_reason: "Session failed" }))?.text,
    ).toBe("bad input");
    expect(
      statusDetail(facts({ status: "failed", failure: "gave up", stop_reason: "Reached max steps (5)" }))
        ?.text,
    ).toBe("gave up · Reached max steps (5)");
    expect(statusDetail(facts({ status: "failed" }))?.text).toBe("Failed without a reason");
  });

  it("leaves out reasons that only repeat the status", () => {
    expect(statusDetail(facts({ status: "completed", stop_reason: "Session completed" }))).toBeNull();
    expect(statusDetail(facts({ status: "terminated", stop_reason: "Terminated" }))).toBeNull();
    expect(statusDetail(facts({ status: "stopped", stop_reason: null }))).toBeNull();
    expect(statusDetail(facts({ status: "stopped", stop_reason: "Stopped by user" }))?.text).toBe(
      "Stopped by user",
    );
  });

  it("shows reported progress only while the thread is at work", () => {
    expect(statusDetail(facts({ status: "running", status_text: "Reading files" }))).toEqual({
      text: "Reading files",
      tone: "info",
    });
    expect(statusDetail(facts({ status: "completed", status_text: "Reading files" }))).toBeNull();
  });
});
