"use client";
// Keeps unsaved studio work in this browser: restores a project's draft when the studio opens,
// writes the document (debounced, and at once when the page is hidden or left) while it differs
// from the saved one, removes the draft once saved or discarded, and asks before the page unloads
// with unsaved changes. The draft survives reloads, navigation, crashes and server restarts.
import { useEffect, useRef } from "react";
import { decideDraft, makeDraft } from "@/lib/studio/draft";
import type { StudioStore } from "@/lib/studio/studio-store";
import { clearDraft, readDraft, writeDraft } from "./draft-storage";

export const DRAFT_DEBOUNCE_MS = 500;

/** `onRestored` runs after a stored draft replaced the opened document. */
export function useStudioDraft(store: StudioStore, projectId: string, onRestored?: () => void) {
  // The latest callback, without re-running the effect (which reads the draft once per project).
  const restored = useRef(onRestored);
  restored.current = onRestored;
  useEffect(() => {
    let ready = false;
    let disposed = false;
    let timer: ReturnType<typeof setTimeout> | null = null;
    const unsaved = () => {
      const state = store.getState();
      return state.history.present !== state.savedDocument;
    };
    const failed = (error: unknown) => {
      console.warn("[tandem] could not keep the studio draft:", error);
      if (!disposed) store.getState().setDraftState("failed");
    };

    const writeNow = async () => {
      if (timer) clearTimeout(timer);
      timer = null;
      const state = store.getState();
      if (!unsaved()) {
        state.setDraftState("none");
        await clearDraft(projectId).catch(failed);
        return;
      }
      const document = state.history.present;
      const draft = makeDraft(projectId, document, state.staleBase ?? state.baseVersion, Date.now());
      await writeDraft(draft).then(() => {
        if (!disposed && store.getState().history.present === document)
          store.getState().setDraftState("kept");
      }, failed);
    };
    const schedule = () => {
      if (!ready) return;
      if (!unsaved()) {
        void writeNow();
        return;
      }
      store.getState().setDraftState("pending");
      if (timer) clearTimeout(timer);
      timer = setTimeout(() => void writeNow(), DRAFT_DEBOUNCE_MS);
    };
    const flush = () => {
      if (timer) void writeNow();
    };

    readDraft(projectId)
      .then((stored) => {
        if (disposed) return;
        const state = store.getState();
        const decision = decideDraft(stored, projectId, {
          document: state.savedDocument,
          version: state.baseVersion,
        });
        if (decision.kind === "discard") void clearDraft(projectId).catch(failed);
        // Edits made in the instant before the draft was read win; they are written over it below.
        if (decision.kind === "restore" && !unsaved()) {
          state.restoreDraft(decision.draft.document, decision.staleBase, decision.draft.savedAt);
          state.setDraftState("kept");
          restored.current?.();
        }
      }, failed)
      .finally(() => {
        if (disposed) return;
        ready = true;
        if (unsaved() && store.getState().draftState !== "kept") schedule();
      });

    const unsubscribe = store.subscribe((state, previous) => {
      if (
        state.history.present !== previous.history.present ||
        state.savedDocument !== previous.savedDocument ||
        state.staleBase !== previous.staleBase
      ) {
        schedule();
      }
    });
    const onVisibility = () => {
      if (document.visibilityState === "hidden") flush();
    };
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      flush();
      if (!unsaved()) return;
      event.preventDefault();
      // Older browsers show the prompt only when returnValue is set.
      event.returnValue = "";
    };
    window.addEventListener("pagehide", flush);
    window.addEventListener("beforeunload", onBeforeUnload);
    document.addEventListener("visibilitychange", onVisibility);
    return () => {
      flush();
      disposed = true;
      unsubscribe();
      window.removeEventListener("pagehide", flush);
      window.removeEventListener("beforeunload", onBeforeUnload);
      document.removeEventListener("visibilitychange", onVisibility);
    };
  }, [store, projectId]);
}
