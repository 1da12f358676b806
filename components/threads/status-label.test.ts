import { describe, expect, it } from "vitest";
import { THREAD_STATUSES } from "@/lib/contracts/thread";
import { threadStatusLabel } from "./status-label";

describe("threadStatusLabel", () => {
  it("says waiting_approval in words", () => {
    expect(threadStatusLabel("waiting_approval")).toBe("waiting for approval");
  });

  it("labels every status without an underscore", () => {
    for (const status of THREAD_STATUSES) expect(threadStatusLabel(status)).not.toContain("_");
  });

  it("shows an unknown status readably rather than dropping it", () => {
    expect(threadStatusLabel("waiting_for_input")).toBe("waiting for input");
  });
});
