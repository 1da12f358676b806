import { describe, expect, it } from "vitest";
import { TextCache } from "./text-cache";

describe("TextCache", () => {
  it("computes once per text and returns the kept value after", () => {
    const cache = new TextCache<{ text: string }>(10, 1000);
    let calls = 0;
    const create = (text: string) => {
      calls += 1;
      return { text };
    };
    const first = cache.getOrCreate("a", create);
    expect(cache.getOrCreate("a", create)).toBe(first);
    expect(calls).toBe(1);
  });

  it("evicts the least recently used entry past the entry bound", () => {
    const cache = new TextCache<number>(2, 1000);
    cache.set("a", 1);
    cache.set("b", 2);
    expect(cache.get("a")).toBe(1); // a is now the most recent
    cache.set("c", 3);
    expect(cache.get("b")).toBeUndefined();
    expect(cache.get("a")).toBe(1);
    expect(cache.get("c")).toBe(3);
    expect(cache.size).toBe(2);
  });

  it("evicts past the character bound and never keeps a text longer than it", () => {
    const cache = new TextCache<number>(100, 10);
    cache.set("aaaa", 1);
    cache.set("bbbb", 2);
    cache.set("cccc", 3); // 12 characters: the oldest goes
    expect(cache.get("aaaa")).toBeUndefined();
    expect(cache.get("bbbb")).toBe(2);
    cache.set("x".repeat(11), 4);
    expect(cache.get("x".repeat(11))).toBeUndefined();
    expect(cache.size).toBe(2);
    // Replacing a value does not count its text twice.
    cache.set("bbbb", 5);
    cache.set("dd", 6);
    expect(cache.get("cccc")).toBe(3);
    expect(cache.get("bbbb")).toBe(5);
  });
});
