import { describe, expect, it } from "vitest";
import { emptyGraph, type Graph } from "@/lib/graph";
import { createStudioStore } from "./studio-store";

const withNote = (text: string): Graph => ({
  ...emptyGraph(),
  nodes: [{ id: "n", type: "note", position: { x: 0, y: 0 }, data: { text } }],
});

describe("the studio store's draft and conflict state", () => {
  it("restores a draft as unsaved changes, one undo step above the saved document", () => {
    const saved = withNote("saved");
    const store = createStudioStore(saved, 3);
    store.getState().restoreDraft(withNote("draft"), 2, 1234);
    const state = store.getState();
    expect(state.history.present).toEqual(withNote("draft"));
    expect(state.history.present).not.toBe(state.savedDocument);
    expect(state.staleBase).toBe(2);
    expect(state.draftNotice).toEqual({ savedAt: 1234, staleBase: 2, serverVersion: 3 });
    store.getState().undo();
    expect(store.getState().history.present).toBe(saved);
  });

  it("discards back to the saved document, and Undo brings the changes back", () => {
    const saved = withNote("saved");
    const store = createStudioStore(saved, 3);
    store.getState().restoreDraft(withNote("draft"), 2, 1234);
    store.getState().discardChanges();
    expect(store.getState().history.present).toBe(saved);
    expect(store.getState().draftNotice).toBeNull();
    expect(store.getState().staleBase).toBeNull();
    store.getState().undo();
    expect(store.getState().history.present).toEqual(withNote("draft"));
  });

  it("opens the conflict dialog, and a merge rebases the document on their version", () => {
    const store = createStudioStore(withNote("base"), 2);
    store.getState().edit(() => withNote("ours"));
    store.getState().conflicted({ baseVersion: 2, currentVersion: 3 });
    expect(store.getState().dialog).toBe("save-conflict");
    const theirs = withNote("theirs");
    store.getState().merged(withNote("merged"), theirs, 3);
    const state = store.getState();
    expect(state.baseVersion).toBe(3);
    expect(state.savedDocument).toBe(theirs);
    expect(state.history.present).toEqual(withNote("merged"));
    store.getState().undo();
    expect(store.getState().history.present).toEqual(withNote("ours"));
  });

  it("forgets a stale base and the conflict once saved", () => {
    const store = createStudioStore(withNote("saved"), 3);
    store.getState().restoreDraft(withNote("draft"), 2, 1);
    store.getState().conflicted({ baseVersion: 2, currentVersion: 3 });
    store.getState().saved(4, store.getState().history.present);
    expect(store.getState().staleBase).toBeNull();
    expect(store.getState().conflict).toBeNull();
    expect(store.getState().draftNotice).toBeNull();
    expect(store.getState().baseVersion).toBe(4);
  });
});
