import { describe, expect, it } from "vitest";
import { ParkedCaches } from "./parked-caches";

describe("ParkedCaches", () => {
  it("hands a parked cache back once", () => {
    const caches = new ParkedCaches<string>({ entries: 4, bytes: Number.POSITIVE_INFINITY });
    caches.park("a", "cache of a");
    expect(caches.take("a")).toBe("cache of a");
    expect(caches.take("a")).toBeUndefined();
  });

  it("drops the least recently parked thread once full", () => {
    const caches = new ParkedCaches<string>({ entries: 2, bytes: Number.POSITIVE_INFINITY });
    caches.park("a", "1");
    caches.park("b", "2");
    caches.park("a", "3"); // parked again: now the most recent
    caches.park("c", "4");
    expect(caches.size).toBe(2);
    expect(caches.take("b")).toBeUndefined();
    expect(caches.take("a")).toBe("3");
    expect(caches.take("c")).toBe("4");
  });

  it("drops the oldest caches once their estimated bytes pass the budget, and counts what it hands back", () => {
    const caches = new ParkedCaches<string>({ entries: 100, bytes: 10 }, (cache) => cache.length);
    caches.park("a", "xxxx");
    caches.park("b", "yyyy");
    expect(caches.heldBytes).toBe(8);
    caches.park("c", "zzzz"); // 12 bytes: a goes
    expect(caches.take("a")).toBeUndefined();
    expect(caches.heldBytes).toBe(8);
    expect(caches.take("b")).toBe("yyyy");
    expect(caches.heldBytes).toBe(4);
    caches.park("c", "zz"); // parked again: its old size no longer counts
    expect(caches.heldBytes).toBe(2);
    caches.park("d", "x".repeat(11)); // larger than the budget alone: kept by nobody
    expect(caches.size).toBe(0);
    expect(caches.heldBytes).toBe(0);
  });
});
