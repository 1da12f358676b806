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

  it("trims what it shows and treats blank text as none", () => {
    expect(statusDetail(facts({ status: "stopped", stop_reason: "  Stopped by user \n" }))).toEqual({
      text: "Stopped by user",
      tone: "problem",
    });
    expect(statusDetail(facts({ status: "stopped", stop_reason: "   " }))).toBeNull();
    expect(statusDetail(facts({ status: "failed", failure: "  boom ", stop_reason: " boom" }))).toEqual({
      text: "boom",
      tone: "problem",
    });
    expect(
      statusDetail(facts({ status: "failed", failure: " ", stop_reason: "Reached max steps (5)" })),
    ).toEqual({
      text: "Reached max steps (5)",
      tone: "problem",
    });
    expect(statusDetail(facts({ status: "running", status_text: "  " }))).toBeNull();
    expect(statusDetail(facts({ status: "running", status_text: null }))).toBeNull();
    expect(statusDetail(facts({ status: "queued", status_text: " Waiting for a worker " }))).toEqual({
      text: "Waiting for a worker",
      tone: "info",
    });
  });

  it("gives an ended or idle thread's own reason as information", () => {
    for (const status of ["completed", "terminated", "idle"] as const)
      expect(statusDetail(facts({ status, stop_reason: "Stop tool called: finish" }))).toEqual({
        text: "Stop tool called: finish",
        tone: "info",
      });
    expect(statusDetail(facts({ status: "idle" }))).toBeNull();
    // A reason that repeats another status is still news.
    expect(statusDetail(facts({ status: "completed", stop_reason: "Terminated" }))).toEqual({
      text: "Terminated",
      tone: "info",
    });
    expect(statusDetail(facts({ status: "stopped", stop_reason: "Session failed" }))).toEqual({
      text: "Session failed",
      tone: "problem",
    });
  });

  it("says a thread waits for an approval whatever else it carries", () => {
    expect(statusDetail(facts({ status: "waiting_approval", status_text: "x", stop_reason: "y" }))).toEqual({
      text: "Waiting for a human to approve a tool call",
      tone: "info",
    });
  });
});
