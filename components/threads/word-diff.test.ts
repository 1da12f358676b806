// The divergence word diff: shared text, removed and added words in order; values that are not
// strings are compared as indented JSON.
import { describe, expect, it } from "vitest";
import { divergenceText, wordDiff } from "./word-diff";

describe("wordDiff", () => {
  it("shows an appended sentence as the only added part", () => {
    const parts = wordDiff("…hand it out.", "…hand it out. Always be brief.");
    expect(parts.filter((part) => part.kind !== "same")).toEqual([
      { kind: "added", text: expect.stringContaining("Always be brief.") },
    ]);
    expect(parts.map((part) => part.text).join("")).toContain("hand it out.");
  });

  it("shows a replaced word as removed then added, the rest shared", () => {
    expect(wordDiff("be kind to users", "be brief to users")).toEqual([
      { kind: "same", text: "be " },
      { kind: "removed", text: "kind" },
      { kind: "added", text: "brief" },
      { kind: "same", text: " to users" },
    ]);
  });

  it("reads a value that is not a string as indented JSON", () => {
    expect(divergenceText({ a: 1 })).toBe('{\n  "a": 1\n}');
    expect(divergenceText("text")).toBe("text");
    expect(divergenceText(undefined)).toBe("(nothing)");
  });
});
