// The id remapping of a fork that copies a subagent tree: every id the copy renews (threads,
// messages, invocations, env requests) is replaced wherever it is written down — a tool result that
// names a child's reference, a report's metadata, a child's `from_parent` — so the copy refers to
// its own threads and never to the source's. Pure; runtime/services/thread-fork.ts applies it.

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

/** Old id → new id, keys in lower case (Postgres writes uuids in lower case). */
export type IdMap = ReadonlyMap<string, string>;

/** `text` with every UUID that `ids` renews replaced by its new id; other text and UUIDs are kept. */
export function remapIds(text: string, ids: IdMap): string {
  return text.replace(UUID, (found) => ids.get(found.toLowerCase()) ?? found);
}

/** `remapIds` for a nullable string (a column). */
export function remapNullable(text: string | null, ids: IdMap): string | null {
  return text === null ? null : remapIds(text, ids);
}

/** A JSON value with every string in it (object keys included) remapped; null and undefined kept. */
export function remapJson<T>(value: T, ids: IdMap): T {
  if (value === null || value === undefined) return value;
  return JSON.parse(remapIds(JSON.stringify(value), ids)) as T;
}
