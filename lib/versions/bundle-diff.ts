// Pure comparison of two definitions bundles by definition name, per kind.

export const DEFINITION_KINDS = ["agents", "prompts", "models", "tools"] as const;
export type DefinitionKind = (typeof DEFINITION_KINDS)[number];

type NamedDefinition = { readonly name: string; readonly [property: string]: unknown };
export type ComparableBundle = Partial<Record<DefinitionKind, readonly NamedDefinition[]>>;

export type NamesByKind = Record<DefinitionKind, string[]>;

export interface BundleDiff {
  added: NamesByKind;
  removed: NamesByKind;
  changed: NamesByKind;
}

function emptyNamesByKind(): NamesByKind {
  return { agents: [], prompts: [], models: [], tools: [] };
}

/** JSON with object keys sorted, so key order never counts as a change. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, entry]) => entry !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, entry]) => `${JSON.stringify(key)}:${canonicalJson(entry)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

function byName(definitions: readonly NamedDefinition[] = []): Map<string, string> {
  return new Map(definitions.map((definition) => [definition.name, canonicalJson(definition)]));
}

/** What `next` added, removed and changed compared with `previous` (names sorted per kind). */
export function diffBundles(previous: ComparableBundle, next: ComparableBundle): BundleDiff {
  const diff: BundleDiff = {
    added: emptyNamesByKind(),
    removed: emptyNamesByKind(),
    changed: emptyNamesByKind(),
  };
  for (const kind of DEFINITION_KINDS) {
    const before = byName(previous[kind]);
    const after = byName(next[kind]);
    for (const [name, content] of after) {
      const earlier = before.get(name);
      if (earlier === undefined) diff.added[kind].push(name);
      else if (earlier !== content) diff.changed[kind].push(name);
    }
    for (const name of before.keys()) if (!after.has(name)) diff.removed[kind].push(name);
    diff.added[kind].sort();
    diff.removed[kind].sort();
    diff.changed[kind].sort();
  }
  return diff;
}

/** True when the diff names no definition at all. */
export function isEmptyDiff(diff: BundleDiff): boolean {
  return DEFINITION_KINDS.every(
    (kind) => diff.added[kind].length + diff.removed[kind].length + diff.changed[kind].length === 0,
  );
}
