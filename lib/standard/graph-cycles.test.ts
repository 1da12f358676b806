import { describe, expect, it } from "vitest";
import { describeCycle, findCycles } from "./graph-cycles";

const graph = (edges: Record<string, string[]>) => new Map(Object.entries(edges));

describe("findCycles", () => {
  it("finds no cycle in a DAG", () => {
    expect(findCycles(graph({ a: ["b", "c"], b: ["c"], c: [] }))).toEqual([]);
  });

  it("reports a self-loop and a longer cycle once each, starting at the smallest name", () => {
    expect(findCycles(graph({ c: ["a"], a: ["b"], b: ["c"], d: ["d"] }))).toEqual([["a", "b", "c"], ["d"]]);
  });

  it("ignores edges to unknown nodes", () => {
    expect(findCycles(graph({ a: ["missing"] }))).toEqual([]);
  });
});

describe("describeCycle", () => {
  it("closes the loop with arrows", () => {
    expect(describeCycle(["a", "b"])).toBe("a → b → a");
    expect(describeCycle(["a"])).toBe("a → a");
  });
});
