// Applies `registry` events: a parent's child registry merged by `reference`. A full event
// (`partial: false`, sent while the registry has at most 100 entries) replaces it; a partial one
// upserts the changed entries, which keeps the work O(changed) for a parent with thousands of children.
import type { RegistryEntry } from "./events";
import { emptyMap, getEntry, mapFromEntries, type PersistentMap, setEntry } from "./persistent-map";
import type { ChildRegistry, LiveState } from "./state";

export interface RegistryUpdate {
  threadId: string;
  children: readonly RegistryEntry[];
  partial: boolean;
  total?: number;
}

export function applyRegistry(state: LiveState, update: RegistryUpdate): LiveState {
  const current = getEntry(state.registries, update.threadId);
  const next = update.partial ? mergeEntries(current, update) : replaceEntries(update.children);
  return { ...state, registries: setEntry(state.registries, update.threadId, next) };
}

function replaceEntries(children: readonly RegistryEntry[]): ChildRegistry {
  const entries = mapFromEntries(children.map((entry) => [entry.reference, entry] as const));
  return { entries, total: entries.size };
}

function mergeEntries(current: ChildRegistry | undefined, update: RegistryUpdate): ChildRegistry {
  let entries: PersistentMap<RegistryEntry> = current?.entries ?? emptyMap();
  for (const entry of update.children) entries = setEntry(entries, entry.reference, entry);
  return { entries, total: Math.max(update.total ?? 0, entries.size) };
}
