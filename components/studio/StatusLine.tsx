"use client";
// One line of feedback: saves, connections made and why a connection was refused; on the right,
// the runtime's load, whether there are unsaved changes and whether this browser keeps them as a draft.
// Feedback on something done ("Saved v2", "Started … in the playground") fades after a while, so it
// is not read later as the state of things; an error stays until something else is said.
import { useEffect } from "react";
import type { DraftState } from "@/lib/studio/studio-store";
import { RuntimeLoadIndicator } from "./RuntimeLoadIndicator";
import { useStudio, useStudioStore } from "./StudioStoreContext";

/** How long feedback that is not an error stays on the status line. */
export const STATUS_FADE_MS = 10_000;

const DRAFT_TEXT: Record<DraftState, string> = {
  none: "Unsaved changes",
  pending: "Unsaved changes",
  kept: "Unsaved changes · draft kept in this browser",
  failed: "Unsaved changes · this browser could not keep a draft",
};

export function StatusLine() {
  const store = useStudioStore();
  const status = useStudio((state) => state.status);
  useEffect(() => {
    if (!status || status.tone === "error") return;
    const timer = setTimeout(() => {
      if (store.getState().status === status) store.getState().setStatus(null);
    }, STATUS_FADE_MS);
    return () => clearTimeout(timer);
  }, [store, status]);
  const unsaved = useStudio((state) => state.history.present !== state.savedDocument);
  const draftState = useStudio((state) => state.draftState);
  return (
    <div className="flex min-h-6 items-center gap-3 border-t border-border px-3 py-1 text-xs">
      <p
        role="status"
        aria-label="Studio status"
        // One line: a long message ends in an ellipsis, whole in its tooltip.
        title={status?.text}
        className={`min-w-0 flex-1 truncate ${status?.tone === "error" ? "text-danger" : "text-muted"}`}
      >
        {status?.text ?? ""}
      </p>
      <RuntimeLoadIndicator />
      {unsaved ? (
        <p
          data-testid="unsaved-changes"
          data-draft={draftState}
          className={`shrink-0 ${draftState === "failed" ? "text-danger" : "text-muted"}`}
        >
          <span
            aria-hidden="true"
            className="mr-1 inline-block size-2 rounded-full bg-warning align-middle"
          />
          {DRAFT_TEXT[draftState]}
        </p>
      ) : null}
    </div>
  );
}
