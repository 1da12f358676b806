"use client";
// The dialogs a save can open: "Save with N problems?" when the canvas has errors, and the conflict
// dialog when someone saved a newer version (merge, save as a new version anyway, or keep editing).
// Neither ever changes the local document without the user choosing to.
import { useEffect, useState } from "react";
import { Button } from "@/components/ui/Button";
import { Dialog, DialogHeader } from "@/components/ui/Dialog";
import { conflictReasonText } from "@/lib/studio/merge";
import { useStudio, useStudioStore } from "./StudioStoreContext";
import {
  errorCount,
  type MergePreview,
  previewMerge,
  saveDocument,
  saveMerged,
  saveOverwriting,
  unappliedFieldCount,
} from "./save-document";

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

export function SaveProblemsDialog({ projectId }: { projectId: string }) {
  const store = useStudioStore();
  const open = useStudio((state) => state.dialog === "save-problems");
  const errors = useStudio((state) =>
    state.dialog === "save-problems" ? errorCount(state.history.present) : 0,
  );
  const unapplied = useStudio((state) => (state.dialog === "save-problems" ? unappliedFieldCount(state) : 0));
  const close = () => store.getState().openDialog(null);
  const title = `Save with ${plural(errors + unapplied, "problem", "problems")}?`;
  return (
    <Dialog open={open} label={title} onClose={close}>
      <DialogHeader title={title} onClose={close} />
      <div className="flex w-[30rem] max-w-[calc(100vw-2rem)] flex-col gap-3 p-4">
        {errors > 0 ? (
          <p className="text-sm">
            The canvas has {plural(errors, "error", "errors")} (listed under Problems). The version is saved
            as it is; its agents cannot run until the errors are fixed.
          </p>
        ) : null}
        {unapplied > 0 ? (
          <p className="text-sm">
            {unapplied === 1 ? "An inspector field holds" : `${unapplied} inspector fields hold`} text that
            cannot be applied yet (listed under Problems): it is not part of the version saved. It stays in
            its field for you to fix.
          </p>
        ) : null}
        <div className="flex justify-end gap-2">
          <Button onClick={close}>Cancel</Button>
          <Button
            tone="primary"
            onClick={() => {
              close();
              void saveDocument(store, projectId);
            }}
          >
            Save anyway
          </Button>
        </div>
      </div>
    </Dialog>
  );
}

type PreviewState =
  | { kind: "loading" }
  | { kind: "ready"; preview: MergePreview }
  | { kind: "failed"; message: string };

function MergeSummary({ state }: { state: PreviewState }) {
  if (state.kind === "loading")
    return <p className="text-xs text-muted">Comparing with the saved version…</p>;
  if (state.kind === "failed") {
    return <p className="text-xs text-danger">Could not read the saved version to merge: {state.message}</p>;
  }
  const { preview } = state;
  return (
    <div className="flex flex-col gap-2 text-sm">
      <p>
        <strong>Merge</strong> adds{" "}
        {preview.theirChanges === 0 ? "nothing" : plural(preview.theirChanges, "change", "changes")} from v
        {preview.theirsVersion} to yours
        {preview.conflicts.length === 0 ? "; no node was changed on both sides." : "."}
        {preview.baseFound
          ? ""
          : " (The version you started from could not be read, so nodes both sides have count as added on both.)"}
      </p>
      {preview.conflicts.length > 0 ? (
        <div>
          <p className="text-xs text-muted">
            Changed on both sides — merge keeps yours ({v(preview.theirsVersion)} stays in History):
          </p>
          <ul
            aria-label="Nodes changed on both sides"
            className="mt-1 max-h-32 overflow-y-auto rounded border border-border px-2 py-1 text-xs"
          >
            {preview.conflicts.map((conflict) => (
              <li key={conflict.nodeId} className="flex justify-between gap-3 py-0.5">
                <span className="font-medium">{conflict.label}</span>
                <span className="text-muted">{conflictReasonText(conflict)}</span>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </div>
  );
}

const v = (version: number) => `v${version}`;

export function SaveConflictDialog({ projectId }: { projectId: string }) {
  const store = useStudioStore();
  const open = useStudio((state) => state.dialog === "save-conflict");
  const conflict = useStudio((state) => state.conflict);
  const [state, setState] = useState<PreviewState>({ kind: "loading" });
  const [busy, setBusy] = useState(false);
  const close = () => store.getState().openDialog(null);

  useEffect(() => {
    if (!open) return;
    let current = true;
    setState({ kind: "loading" });
    const { history, conflict: refused } = store.getState();
    previewMerge(projectId, history.present, refused?.baseVersion ?? null).then(
      (preview) => current && setState({ kind: "ready", preview }),
      (error: Error) => current && setState({ kind: "failed", message: error.message }),
    );
    return () => {
      current = false;
    };
  }, [open, projectId, store]);

  const act = async (action: () => Promise<boolean>) => {
    setBusy(true);
    try {
      // A save that conflicts again reopens this dialog with fresh versions.
      store.getState().openDialog(null);
      await action();
    } finally {
      setBusy(false);
    }
  };
  const theirs = state.kind === "ready" ? state.preview.theirsVersion : conflict?.currentVersion;
  const label = "Someone saved a newer version";
  return (
    <Dialog open={open} label={label} onClose={close}>
      <DialogHeader title={label} onClose={close} />
      <div className="flex w-[34rem] max-w-[calc(100vw-2rem)] flex-col gap-3 p-4">
        <p className="text-sm">
          {theirs ? `${v(theirs)} was saved` : "A newer version was saved"} after the version you edited
          {conflict?.baseVersion ? ` (${v(conflict.baseVersion)})` : ""}. Your changes are still here and in
          this browser&apos;s draft; nothing is lost whichever you choose.
        </p>
        <MergeSummary state={state} />
        <p className="text-sm">
          <strong>Save as a new version anyway</strong> saves your canvas as it is on top of{" "}
          {theirs ? v(theirs) : "the newer version"}, which stays in History.
        </p>
        <div className="flex flex-wrap justify-end gap-2">
          <Button onClick={close}>Cancel</Button>
          <Button disabled={busy} onClick={() => void act(() => saveOverwriting(store, projectId))}>
            Save as a new version anyway
          </Button>
          <Button
            tone="primary"
            disabled={busy || state.kind !== "ready"}
            onClick={() => {
              if (state.kind === "ready") void act(() => saveMerged(store, projectId, state.preview));
            }}
          >
            Merge
          </Button>
        </div>
      </div>
    </Dialog>
  );
}
