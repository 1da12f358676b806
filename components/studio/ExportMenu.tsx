"use client";
// Export menu: downloads the canvas as it is now, compiled in the browser (JSON bundle, one TypeScript
// module, or a zipped project), never a stale saved version. It says when the canvas has unsaved
// changes or problems and offers to save first. The shared Popover places it (inside the viewport at
// any width), closes it after a choice, on Escape (focus back on the button) and on a click outside,
// and moves between its items with the arrow keys.
import { useId, useState } from "react";
import { Button } from "@/components/ui/Button";
import { Menu, MenuItem } from "@/components/ui/Popover";
import { createApiClient } from "@/lib/api/client";
import {
  EXPORT_FORMATS,
  type ExportFile,
  type ExportFormat,
  exportCanvas,
  exportNotice,
} from "@/lib/studio/export-canvas";
import { useStudio, useStudioStore } from "./StudioStoreContext";
import { saveDocument } from "./save-document";
import { useCompiled } from "./useCompiled";

function download(file: ExportFile) {
  const url = URL.createObjectURL(new Blob([file.data], { type: file.mimeType }));
  const link = document.createElement("a");
  link.href = url;
  link.download = file.fileName;
  document.body.append(link);
  link.click();
  link.remove();
  // Give the browser a moment to start the download before the URL goes away.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

async function projectName(projectId: string): Promise<string> {
  try {
    return (await createApiClient().projects.get(projectId)).name;
  } catch {
    return "standard-agents-project";
  }
}

export function ExportMenu({ projectId }: { projectId: string }) {
  const store = useStudioStore();
  const compiled = useCompiled();
  const unsaved = useStudio((state) => state.history.present !== state.savedDocument);
  const baseVersion = useStudio((state) => state.baseVersion);
  const [busy, setBusy] = useState(false);
  const noticeId = useId();
  const errors = compiled.diagnostics.filter((diagnostic) => diagnostic.severity === "error").length;
  const notice = exportNotice({ unsaved, errors, baseVersion });

  async function exportAs(format: ExportFormat) {
    setBusy(true);
    try {
      // Read the document at the moment of the choice: it is what the user sees on the canvas.
      const result = exportCanvas(store.getState().history.present, format, await projectName(projectId));
      if (!result.ok) {
        store.getState().setStatus({ tone: "error", text: `Not exported: ${result.reason}` });
        return;
      }
      download(result.file);
      const state = store.getState();
      const what = state.history.present !== state.savedDocument ? " (with unsaved changes)" : "";
      state.setStatus({ tone: "info", text: `Exported ${result.file.fileName}${what}` });
    } finally {
      setBusy(false);
    }
  }

  return (
    <Menu
      label="Export"
      placement="bottom-end"
      className="w-72"
      describedBy={notice ? noticeId : undefined}
      panelProps={{ "data-export-panel": "" }}
      trigger={(props) => (
        <Button
          disabled={busy}
          title={unsaved ? "Export the canvas as it is (it has unsaved changes)" : "Export the project"}
          {...props}
        >
          Export
          {unsaved ? (
            <span aria-hidden="true" className="text-warning">
              •
            </span>
          ) : null}
        </Button>
      )}
    >
      {notice ? (
        <p id={noticeId} className="mb-1 border-b border-border px-2 pt-1 pb-1.5 text-muted">
          {notice}
        </p>
      ) : null}
      {unsaved ? (
        <MenuItem className="font-medium" onSelect={() => void saveDocument(store, projectId)}>
          Save first
        </MenuItem>
      ) : null}
      {EXPORT_FORMATS.map(({ format, label }) => (
        <MenuItem key={format} onSelect={() => void exportAs(format)}>
          {label}
        </MenuItem>
      ))}
    </Menu>
  );
}
