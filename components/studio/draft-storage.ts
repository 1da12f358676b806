// The browser side of studio drafts: one IndexedDB record per project (idb-keyval), read raw so the
// pure decision in lib/studio/draft.ts parses it.
import { createStore, del, get, set, type UseStore } from "idb-keyval";
import { type DraftRecord, draftKey } from "@/lib/studio/draft";

let store: UseStore | null = null;

/** Opened on first use, never while rendering on the server. */
function draftStore(): UseStore {
  store ??= createStore("tandem-studio", "drafts");
  return store;
}

export const readDraft = (projectId: string): Promise<unknown> => get(draftKey(projectId), draftStore());

export const writeDraft = (draft: DraftRecord): Promise<void> =>
  set(draftKey(draft.projectId), draft, draftStore());

export const clearDraft = (projectId: string): Promise<void> => del(draftKey(projectId), draftStore());
