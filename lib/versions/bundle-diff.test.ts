import { describe, expect, it } from "vitest";
import { canonicalJson, diffBundles, isEmptyDiff } from "./bundle-diff";

const model = { name: "demo", provider: "scripted", model: "scripted" };

describe("diffBundles", () => {
  it("finds nothing between identical bundles", () => {
    const bundle = { agents: [], prompts: [], models: [model], tools: [] };
    const diff = diffBundles(bundle, bundle);
    expect(isEmptyDiff(diff)).toBe(true);
  });

  it("reports added, removed and changed names per kind, sorted", () => {
    const previous = {
      models: [model, { name: "old", provider: "scripted", model: "x" }],
      prompts: [{ name: "p", prompt: "one" }],
    };
    const next = {
      models: [
        { ...model, model: "other" },
        { name: "zeta", provider: "a", model: "b" },
        { name: "alpha", provider: "a", model: "b" },
      ],
      prompts: [{ name: "p", prompt: "one" }],
      tools: [{ name: "search" }],
    };
    const diff = diffBundles(previous, next);
    expect(diff.added).toEqual({ agents: [], prompts: [], models: ["alpha", "zeta"], tools: ["search"] });
    expect(diff.removed).toEqual({ agents: [], prompts: [], models: ["old"], tools: [] });
    expect(diff.changed).toEqual({ agents: [], prompts: [], models: ["demo"], tools: [] });
    expect(isEmptyDiff(diff)).toBe(false);
  });

  it("ignores key order and missing kinds", () => {
    const diff = diffBundles(
      { models: [{ name: "m", provider: "a", model: "b" }] },
      { agents: [], models: [{ model: "b", provider: "a", name: "m" }] },
    );
    expect(isEmptyDiff(diff)).toBe(true);
  });
});

describe("canonicalJson", () => {
  it("sorts keys at every depth and drops undefined", () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { y: 2, x: undefined }], c: null } })).toBe(
      '{"a":{"c":null,"d":[1,{"y":2}]},"b":1}',
    );
  });
});
