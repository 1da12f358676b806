"use client";
import { VersionsPanel } from "@/components/projects/VersionsPanel";
// The project's version history inside the studio: the project page's versions panel (counts, diff
// with the previous version, restore) in a dialog. Restoring saves that version again as a new one
// and reloads the canvas from it; unsaved changes on the canvas are replaced, as the dialog says.
import { Dialog, DialogHeader } from "@/components/ui/Dialog";
import { createApiClient } from "@/lib/api/client";
import { GraphSchema } from "@/lib/graph";
import { useStudio, useStudioStore } from "./StudioStoreContext";

export function HistoryDialog({ projectId }: { projectId: string }) {
  const store = useStudioStore();
  const open = useStudio((state) => state.dialog === "history");
  const baseVersion = useStudio((state) => state.baseVersion);
  const unsaved = useStudio((state) => state.history.present !== state.savedDocument);
  const close = () => store.getState().openDialog(null);
  const reloadCanvas = async () => {
    const project = await createApiClient().projects.get(projectId);
    store.getState().load(GraphSchema.parse(project.graph), project.version);
    store.getState().setStatus({ tone: "info", text: `Restored as v${project.version}` });
    close();
  };
  return (
    // Anchored near the top (not centred), so opening a version's diff grows it downwards instead of
    // moving every row; wide enough for a version's counts and its actions on one line.
    <Dialog open={open} label="Version history" onClose={close} className="mt-[10vh] mb-auto">
      <DialogHeader title="Version history" onClose={close} />
      <div className="flex max-h-[75vh] w-[58rem] flex-col gap-2 overflow-y-auto p-4">
        {unsaved ? (
          <p className="text-xs text-muted">
            The canvas has unsaved changes: restoring a version replaces them (save first to keep them).
          </p>
        ) : null}
        <VersionsPanel projectId={projectId} currentVersion={baseVersion ?? 0} onRestored={reloadCanvas} />
      </div>
    </Dialog>
  );
}
