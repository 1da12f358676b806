import { describe, expect, it } from "vitest";
import {
  emptyMap,
  getEntry,
  hasEntry,
  hashKey,
  mapEntries,
  mapFromEntries,
  type PersistentMap,
  setEntry,
  updateEntry,
} from "./persistent-map";

/** Two distinct keys with the same FNV-1a hash, found once by searching `key-0`, `key-1`, … */
const COLLIDING_KEYS = ["key-901258", "key-1540052"] as const;

describe("persistent map", () => {
  it("stores and finds thousands of keys, counting each once", () => {
    let map: PersistentMap<number> = emptyMap();
    for (let index = 0; index < 5000; index++) map = setEntry(map, `thread-${index}`, index);
    for (let index = 0; index < 5000; index += 2) map = setEntry(map, `thread-${index}`, -index);
    expect(map.size).toBe(5000);
    expect(getEntry(map, "thread-4998")).toBe(-4998);
    expect(getEntry(map, "thread-4999")).toBe(4999);
    expect(getEntry(map, "thread-5000")).toBeUndefined();
    expect(new Set([...mapEntries(map)].map(([key]) => key)).size).toBe(5000);
  });

  it("never changes the map it was given", () => {
    const before = mapFromEntries([
      ["a", 1],
      ["b", 2],
    ]);
    const after = setEntry(
      updateEntry(before, "a", (value = 0) => value + 10),
      "c",
      3,
    );
    expect([getEntry(before, "a"), getEntry(before, "c"), before.size]).toEqual([1, undefined, 2]);
    expect([getEntry(after, "a"), getEntry(after, "c"), after.size]).toEqual([11, 3, 3]);
  });

  it("answers the same map when a key is set to the value it already has", () => {
    const value = { status: "running" };
    const map = setEntry(emptyMap<object>(), "t", value);
    expect(setEntry(map, "t", value)).toBe(map);
    expect(setEntry(map, "t", { status: "running" })).not.toBe(map);
  });

  it("keeps keys whose hashes collide apart", () => {
    const [first, second] = COLLIDING_KEYS;
    expect(hashKey(first)).toBe(hashKey(second));
    let map = setEntry(setEntry(emptyMap<string>(), first, "first"), second, "second");
    map = setEntry(map, first, "first again");
    expect(map.size).toBe(2);
    expect(getEntry(map, first)).toBe("first again");
    expect(getEntry(map, second)).toBe("second");
    expect(hasEntry(map, `${first}x`)).toBe(false);
  });

  it("hashes with 32-bit FNV-1a (its published test values)", () => {
    expect(hashKey("")).toBe(0x811c9dc5);
    expect(hashKey("a")).toBe(0xe40c292c);
    expect(hashKey("foobar")).toBe(0xbf9cf968);
  });

  it("lists every entry once, and finds nothing in an empty map", () => {
    expect(getEntry(emptyMap(), "a")).toBeUndefined();
    expect(emptyMap().size).toBe(0);
    expect([...mapEntries(emptyMap())]).toEqual([]);
    const map = mapFromEntries(Array.from({ length: 100 }, (_, index) => [`k${index}`, index] as const));
    expect([...mapEntries(map)].sort(([left], [right]) => left.localeCompare(right))).toEqual(
      Array.from({ length: 100 }, (_, index) => [`k${index}`, index]).sort(([left], [right]) =>
        String(left).localeCompare(String(right)),
      ),
    );
    expect(updateEntry(map, "new", (current) => (current === undefined ? 1000 : 0))).toMatchObject({
      size: 101,
    });
    expect(
      getEntry(
        updateEntry(map, "new", (current) => (current === undefined ? -1 : 0)),
        "new",
      ),
    ).toBe(-1);
  });
});
