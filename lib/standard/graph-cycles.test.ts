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

  it("reports every cycle through a shared node, sorted, each once whichever node the search starts at", () => {
    const cycles = [
      ["a", "b"],
      ["a", "c", "d"],
      ["b", "e"],
    ];
    expect(findCycles(graph({ d: ["a"], a: ["c", "b"], c: ["d"], b: ["a", "e"], e: ["b"] }))).toEqual(cycles);
    expect(findCycles(graph({ e: ["b"], b: ["e", "a"], a: ["b", "c"], c: ["d"], d: ["a"] }))).toEqual(cycles);
  });

  it("starts a cycle at its smallest name wherever the search entered it", () => {
    expect(findCycles(graph({ m: ["z"], z: ["b"], b: ["m"] }))).toEqual([["b", "m", "z"]]);
    expect(findCycles(graph({ a: ["z"], z: ["y"], y: ["x"], x: ["z"] }))).toEqual([["x", "z", "y"]]);
  });

  it("sorts cycles by their names in order, not by length", () => {
    expect(findCycles(graph({ b: ["b"], a: ["c"], c: ["a"] }))).toEqual([["a", "c"], ["b"]]);
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
