// An immutable string-keyed map with structural sharing (a hash array mapped trie, 32-way, path
// copying). The live state holds a thousand threads and takes a hundred events a second; copying a
// plain object per event would be O(tree), while `setEntry` here copies only the ≤ 7 nodes on one
// path, and every untouched subtree stays the same object (cheap equality checks in the UI).

const BITS_PER_LEVEL = 5;
const BRANCH_WIDTH = 1 << BITS_PER_LEVEL;
const LEVEL_MASK = BRANCH_WIDTH - 1;

interface Branch<V> {
  readonly kind: "branch";
  readonly slots: ReadonlyArray<TrieNode<V> | undefined>;
}

/** Keys whose hashes are equal; almost always one entry. */
interface Leaf<V> {
  readonly kind: "leaf";
  readonly hash: number;
  readonly entries: ReadonlyArray<readonly [string, V]>;
}

type TrieNode<V> = Branch<V> | Leaf<V>;

export interface PersistentMap<V> {
  readonly size: number;
  readonly root: Branch<V>;
}

const EMPTY_BRANCH: Branch<never> = { kind: "branch", slots: new Array(BRANCH_WIDTH).fill(undefined) };
const EMPTY_MAP: PersistentMap<never> = { size: 0, root: EMPTY_BRANCH };

export function emptyMap<V>(): PersistentMap<V> {
  return EMPTY_MAP;
}

/** 32-bit FNV-1a: fast, and spreads UUIDs evenly enough for a trie. Exported for collision tests. */
export function hashKey(key: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < key.length; index++) {
    hash ^= key.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

function slotOf(hash: number, shift: number): number {
  return (hash >>> shift) & LEVEL_MASK;
}

export function getEntry<V>(map: PersistentMap<V>, key: string): V | undefined {
  const hash = hashKey(key);
  let node: TrieNode<V> | undefined = map.root;
  let shift = 0;
  while (node) {
    // A leaf of another hash holds other keys: the search by key finds nothing there.
    if (node.kind === "leaf") return node.entries.find(([entryKey]) => entryKey === key)?.[1];
    node = node.slots[slotOf(hash, shift)];
    shift += BITS_PER_LEVEL;
  }
  return undefined;
}

export function hasEntry<V>(map: PersistentMap<V>, key: string): boolean {
  return getEntry(map, key) !== undefined;
}

function withSlot<V>(branch: Branch<V>, slot: number, node: TrieNode<V>): Branch<V> {
  const slots = branch.slots.slice();
  slots[slot] = node;
  return { kind: "branch", slots };
}

/** A branch holding two leaves whose hashes differ, split as deep as their hashes agree. */
function joinLeaves<V>(first: Leaf<V>, second: Leaf<V>, shift: number): TrieNode<V> {
  const firstSlot = slotOf(first.hash, shift);
  const secondSlot = slotOf(second.hash, shift);
  const empty = EMPTY_BRANCH as Branch<V>;
  if (firstSlot !== secondSlot) return withSlot(withSlot(empty, firstSlot, first), secondSlot, second);
  return withSlot(empty, firstSlot, joinLeaves(first, second, shift + BITS_PER_LEVEL));
}

interface Inserted<V> {
  node: TrieNode<V>;
  added: boolean;
}

function insert<V>(
  node: TrieNode<V> | undefined,
  hash: number,
  key: string,
  value: V,
  shift: number,
): Inserted<V> {
  if (node === undefined) return { node: { kind: "leaf", hash, entries: [[key, value]] }, added: true };
  if (node.kind === "leaf") {
    if (node.hash === hash) {
      const index = node.entries.findIndex(([entryKey]) => entryKey === key);
      const entries = node.entries.slice();
      if (index === -1) entries.push([key, value]);
      else entries[index] = [key, value];
      return { node: { kind: "leaf", hash, entries }, added: index === -1 };
    }
    // Different hashes differ in some bit, so joinLeaves splits them within the 32 bits.
    return { node: joinLeaves(node, { kind: "leaf", hash, entries: [[key, value]] }, shift), added: true };
  }
  const slot = slotOf(hash, shift);
  const inserted = insert(node.slots[slot], hash, key, value, shift + BITS_PER_LEVEL);
  return { node: withSlot(node, slot, inserted.node), added: inserted.added };
}

/** A new map with `key` set to `value`; the same map when the value is already that object. */
export function setEntry<V>(map: PersistentMap<V>, key: string, value: V): PersistentMap<V> {
  if (getEntry(map, key) === value) return map;
  const inserted = insert(map.root, hashKey(key), key, value, 0);
  return { size: map.size + (inserted.added ? 1 : 0), root: inserted.node as Branch<V> };
}

/** A new map with `key`'s value replaced by `update(current)`; `update` sees undefined when absent. */
export function updateEntry<V>(
  map: PersistentMap<V>,
  key: string,
  update: (current: V | undefined) => V,
): PersistentMap<V> {
  return setEntry(map, key, update(getEntry(map, key)));
}

export function* mapEntries<V>(map: PersistentMap<V>): Generator<readonly [string, V]> {
  const stack: TrieNode<V>[] = [map.root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.kind === "leaf") {
      yield* node.entries;
      continue;
    }
    for (const child of node.slots) if (child) stack.push(child);
  }
}

export function* mapValues<V>(map: PersistentMap<V>): Generator<V> {
  for (const [, value] of mapEntries(map)) yield value;
}

export function mapFromEntries<V>(entries: Iterable<readonly [string, V]>): PersistentMap<V> {
  let map = emptyMap<V>();
  for (const [key, value] of entries) map = setEntry(map, key, value);
  return map;
}
