// keptRunStanding: a kept playground run is current, of an older version, or of an agent gone.
import { describe, expect, it } from "vitest";
import { keptRunNotice, keptRunStanding } from "./kept-run";

describe("keptRunStanding", () => {
  it("is current on the saved version with its agent there", () => {
    expect(keptRunStanding({ agentId: "assistant", version: 3 }, 3, ["assistant"])).toEqual({
      kind: "current",
    });
  });

  it("is stale when the canvas was saved since", () => {
    const run = { agentId: "assistant", version: 2 };
    const standing = keptRunStanding(run, 3, ["assistant"]);
    expect(standing).toEqual({ kind: "stale", runVersion: 2, currentVersion: 3 });
    expect(keptRunNotice(run, standing)).toBe(
      "This run is from v2; the canvas is saved as v3. Run starts a new run on v3.",
    );
  });

  it("is orphaned when the saved version no longer runs its agent, whatever the version", () => {
    const run = { agentId: "team_lead", version: 2 };
    const standing = keptRunStanding(run, 3, ["assistant"]);
    expect(standing.kind).toBe("orphaned");
    expect(keptRunNotice(run, standing)).toContain("v3 has no team_lead to chat with");
    expect(keptRunStanding({ agentId: "team_lead" }, 3, []).kind).toBe("orphaned");
  });

  it("stays current while the run's version is not known yet", () => {
    expect(keptRunStanding({ agentId: "assistant" }, 3, ["assistant"]).kind).toBe("current");
  });
});
