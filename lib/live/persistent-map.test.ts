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

/** For each bit of the 32-bit hash, two keys whose FNV-1a hashes differ in that bit only (found by search). */
const ONE_BIT_APART: ReadonlyArray<readonly [string, string]> = [
  ["k87022", "k147620"], // bit 0
  ["k257889", "k532825"], // bit 1
  ["k164694", "k573702"], // bit 2
  ["k258316", "k610932"], // bit 3
  ["k189241", "k321520"], // bit 4
  ["k30848", "k221787"], // bit 5
  ["k7979", "k83706"], // bit 6
  ["k397398", "k1055855"], // bit 7
  ["k248873", "k422602"], // bit 8
  ["k164482", "k720493"], // bit 9
  ["k31992", "k525419"], // bit 10
  ["k216481", "k441704"], // bit 11
  ["k251389", "k363956"], // bit 12
  ["k73615", "k768038"], // bit 13
  ["k122693", "k408698"], // bit 14
  ["k462852", "k665820"], // bit 15
  ["k349041", "k751390"], // bit 16
  ["k598418", "k1069966"], // bit 17
  ["k186438", "k232612"], // bit 18
  ["k355858", "k820226"], // bit 19
  ["k285389", "k507614"], // bit 20
  ["k98679", "k185102"], // bit 21
  ["k92298", "k354442"], // bit 22
  ["k12863", "k1182330"], // bit 23
  ["k332549", "k558402"], // bit 24
  ["k51979", "k650112"], // bit 25
  ["k38692", "k326661"], // bit 26
  ["k511288", "k1124344"], // bit 27
  ["k601739", "k2018584"], // bit 28
  ["k18201", "k59765"], // bit 29
  ["k28649", "k1273996"], // bit 30
  ["k620098", "k808216"], // bit 31
];

/** The depth of the deepest branch under `node` (the root is depth 1). */
function branchDepth(node: { kind: string; slots?: ReadonlyArray<unknown> }): number {
  if (node.kind === "leaf") return 0;
  if (node.kind !== "branch") throw new Error(`A trie node of unknown kind "${node.kind}"`);
  let deepest = 0;
  for (const child of node.slots ?? []) if (child) deepest = Math.max(deepest, branchDepth(child as never));
  return 1 + deepest;
}

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

  it("splits keys whose hashes differ in any one bit within seven 32-way levels", () => {
    expect(branchDepth(emptyMap().root)).toBe(1);
    for (const [bit, [first, second]] of ONE_BIT_APART.entries()) {
      expect((hashKey(first) ^ hashKey(second)) >>> 0).toBe(2 ** bit);
      const map = mapFromEntries([
        [first, 1],
        [second, 2],
      ]);
      expect([getEntry(map, first), getEntry(map, second), map.size]).toEqual([1, 2, 2]);
      // 5 bits a level: the bit that differs is read at level floor(bit / 5), and no level is deeper.
      expect(branchDepth(map.root)).toBe(Math.floor(bit / 5) + 1);
      expect(map.root.slots).toHaveLength(32);
    }
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
    expect(hasEntry(map, first)).toBe(true);
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
