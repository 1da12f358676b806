import { describe, expect, it } from "vitest";
import { canonicalJson, diffBundles, diffFields, formatFieldValue, isEmptyDiff } from "./bundle-diff";

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

describe("field-level changes", () => {
  it("lists the changed fields of each changed definition, old and new values", () => {
    const diff = diffBundles(
      {
        models: [model],
        agents: [{ name: "chat", sideA: { prompt: "p", stopOnResponse: true }, title: "Chat" }],
      },
      {
        models: [{ ...model, model: "gpt-5", baseURL: "http://x" }],
        agents: [{ name: "chat", sideA: { prompt: "q", stopOnResponse: true } }],
      },
    );
    expect(diff.fields.models).toEqual({
      demo: [
        { path: "baseURL", after: "http://x" },
        { path: "model", before: "scripted", after: "gpt-5" },
      ],
    });
    expect(diff.fields.agents).toEqual({
      chat: [
        { path: "sideA.prompt", before: "p", after: "q" },
        { path: "title", before: "Chat" },
      ],
    });
    expect(diff.fields.prompts).toEqual({});
  });

  it("compares arrays as a whole and ignores key order inside them", () => {
    expect(diffFields({ tools: ["a", "b"] }, { tools: ["a", "b"] })).toEqual([]);
    expect(diffFields({ tools: [{ x: 1, y: 2 }] }, { tools: [{ y: 2, x: 1 }] })).toEqual([]);
    expect(diffFields({ tools: ["a"] }, { tools: ["a", "b"] })).toEqual([
      { path: "tools", before: ["a"], after: ["a", "b"] },
    ]);
  });

  it("reports a property that changes type as one change at its path", () => {
    expect(diffFields({ prompt: "text" }, { prompt: [{ type: "text", content: "x" }] })).toEqual([
      { path: "prompt", before: "text", after: [{ type: "text", content: "x" }] },
    ]);
  });

  it("formats values for people", () => {
    expect(formatFieldValue("hi")).toBe('"hi"');
    expect(formatFieldValue(3)).toBe("3");
    expect(formatFieldValue({ b: 1, a: true })).toBe('{"a":true,"b":1}');
    expect(formatFieldValue(undefined)).toBe("(not set)");
  });
});

describe("canonicalJson", () => {
  it("sorts keys at every depth and drops undefined", () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { y: 2, x: undefined }], c: null } })).toBe(
      '{"a":{"c":null,"d":[1,{"y":2}]},"b":1}',
    );
  });
});
