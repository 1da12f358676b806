import { describe, expect, it } from "vitest";
import { ParkedCaches } from "./parked-caches";

describe("ParkedCaches", () => {
  it("hands a parked cache back once", () => {
    const caches = new ParkedCaches<string>(4);
    caches.park("a", "cache of a");
    expect(caches.take("a")).toBe("cache of a");
    expect(caches.take("a")).toBeUndefined();
  });

  it("drops the least recently parked thread once full", () => {
    const caches = new ParkedCaches<string>(2);
    caches.park("a", "1");
    caches.park("b", "2");
    caches.park("a", "3"); // parked again: now the most recent
    caches.park("c", "4");
    expect(caches.size).toBe(2);
    expect(caches.take("b")).toBeUndefined();
    expect(caches.take("a")).toBe("3");
    expect(caches.take("c")).toBe("4");
  });
});
