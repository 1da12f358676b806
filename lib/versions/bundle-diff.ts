// Pure comparison of two definitions bundles by definition name, per kind, and of a changed
// definition field by field (which properties changed, from what to what).
import type { FieldChange } from "@/lib/contracts/version";

export const DEFINITION_KINDS = ["agents", "prompts", "models", "tools"] as const;
export type DefinitionKind = (typeof DEFINITION_KINDS)[number];

type NamedDefinition = { readonly name: string; readonly [property: string]: unknown };
export type ComparableBundle = Partial<Record<DefinitionKind, readonly NamedDefinition[]>>;

export type NamesByKind = Record<DefinitionKind, string[]>;

/** One changed property of a definition (declared on the wire: lib/contracts/version.ts). */
export type { FieldChange };

/** The field changes of every changed definition, by kind and name. */
export type FieldChangesByKind = Record<DefinitionKind, Record<string, FieldChange[]>>;

export interface BundleDiff {
  added: NamesByKind;
  removed: NamesByKind;
  changed: NamesByKind;
  fields: FieldChangesByKind;
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

function byName(definitions: readonly NamedDefinition[] = []): Map<string, NamedDefinition> {
  return new Map(definitions.map((definition) => [definition.name, definition]));
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** The properties that differ between two values, as paths below `prefix`, sorted by path. */
export function diffFields(before: unknown, after: unknown, prefix = ""): FieldChange[] {
  if (isPlainObject(before) && isPlainObject(after)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
    return keys.flatMap((key) => {
      const path = prefix ? `${prefix}.${key}` : key;
      const earlier = before[key];
      const later = after[key];
      if (earlier === undefined && later === undefined) return [];
      if (earlier === undefined) return [{ path, after: later }];
      if (later === undefined) return [{ path, before: earlier }];
      return diffFields(earlier, later, path);
    });
  }
  if (canonicalJson(before) === canonicalJson(after)) return [];
  return [{ path: prefix || "(value)", before, after }];
}

/** What `next` added, removed and changed compared with `previous` (names sorted per kind). */
export function diffBundles(previous: ComparableBundle, next: ComparableBundle): BundleDiff {
  const diff: BundleDiff = {
    added: emptyNamesByKind(),
    removed: emptyNamesByKind(),
    changed: emptyNamesByKind(),
    fields: { agents: {}, prompts: {}, models: {}, tools: {} },
  };
  for (const kind of DEFINITION_KINDS) {
    const before = byName(previous[kind]);
    const after = byName(next[kind]);
    for (const [name, definition] of after) {
      const earlier = before.get(name);
      if (earlier === undefined) {
        diff.added[kind].push(name);
        continue;
      }
      const fields = diffFields(earlier, definition);
      if (fields.length > 0) {
        diff.changed[kind].push(name);
        diff.fields[kind][name] = fields;
      }
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

/** A field value for people: strings as they are (quoted), anything else as compact JSON. */
export function formatFieldValue(value: unknown): string {
  if (value === undefined) return "(not set)";
  if (typeof value === "string") return JSON.stringify(value);
  return canonicalJson(value);
}
