import { describe, expect, it } from "vitest";
import { THREAD_STATUSES } from "@/lib/contracts/thread";
import { registryStatusText, threadStatusLabel } from "./status-label";

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

describe("registryStatusText", () => {
  it("shows a working child's session status text beside its badge", () => {
    expect(registryStatusText("running", "reviewing")).toBe("reviewing");
  });

  it("says nothing for a status left from an earlier session: a resumed child never reads 'running completed'", () => {
    expect(registryStatusText("running", "completed")).toBeNull();
    expect(registryStatusText("queued", "stopped")).toBeNull();
    expect(registryStatusText("running", "running")).toBeNull();
  });

  it("says nothing for a child at rest", () => {
    expect(registryStatusText("completed", "reviewing")).toBeNull();
  });
});
