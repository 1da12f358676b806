// Forks and replays are named readably, without stacking suffixes (issue 41).
import { describe, expect, it } from "vitest";
import { derivedRunName, originalRunName } from "./run-names";

describe("run names", () => {
  it("names a fork and a replay after the original run", () => {
    expect(derivedRunName("fork", "assistant")).toBe("Fork of assistant");
    expect(derivedRunName("replay", "Poem run")).toBe("Replay of Poem run");
  });

  it("never stacks: a replay of a fork, or a fork of a replay of a fork, names the original", () => {
    expect(derivedRunName("replay", "Fork of assistant")).toBe("Replay of assistant");
    expect(derivedRunName("fork", "Replay of Fork of assistant")).toBe("Fork of assistant");
    // Names of runs made before this change.
    expect(derivedRunName("replay", "assistant (fork)")).toBe("Replay of assistant");
    expect(originalRunName("orchestrator (fork) (replay)")).toBe("orchestrator");
  });

  it("keeps a name that only looks like a prefix", () => {
    expect(derivedRunName("fork", "Fork of ")).toBe("Fork of Fork of");
    expect(derivedRunName("fork", "Forkful")).toBe("Fork of Forkful");
  });
});
