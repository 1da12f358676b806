"use client";
// Export menu: downloads the canvas as it is now, compiled in the browser (JSON bundle, one TypeScript
// module, or a zipped project), never a stale saved version. It says when the canvas has unsaved
// changes or problems and offers to save first; it closes after a choice, on Escape and on a click
// outside. Open/close is plain state so a positioning wrapper can place the panel.
import { useEffect, useId, useRef, useState } from "react";
import { Button } from "@/components/ui/Button";
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

/** The panel's width (Tailwind w-72). */
const PANEL_WIDTH_PX = 288;

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
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  /** The panel opens toward the side with room: right-aligned unless the button sits near the left edge (a wrapped toolbar). */
  const [alignLeft, setAlignLeft] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const noticeId = useId();
  const errors = compiled.diagnostics.filter((diagnostic) => diagnostic.severity === "error").length;
  const notice = exportNotice({ unsaved, errors, baseVersion });

  useEffect(() => {
    if (!open) return;
    const onPointerDown = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== "Escape") return;
      setOpen(false);
      root.current?.querySelector<HTMLButtonElement>("button[aria-haspopup]")?.focus();
    };
    document.addEventListener("pointerdown", onPointerDown);
    document.addEventListener("keydown", onKeyDown);
    return () => {
      document.removeEventListener("pointerdown", onPointerDown);
      document.removeEventListener("keydown", onKeyDown);
    };
  }, [open]);

  async function exportAs(format: ExportFormat) {
    setOpen(false);
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
    <div ref={root} className="relative">
      <Button
        aria-haspopup="menu"
        aria-expanded={open}
        disabled={busy}
        title={unsaved ? "Export the canvas as it is (it has unsaved changes)" : "Export the project"}
        onClick={() => {
          const right = root.current?.getBoundingClientRect().right ?? Number.POSITIVE_INFINITY;
          setAlignLeft(right < PANEL_WIDTH_PX + 8);
          setOpen(!open);
        }}
      >
        Export
        {unsaved ? (
          <span aria-hidden="true" className="text-warning">
            •
          </span>
        ) : null}
      </Button>
      {open ? (
        <div
          data-export-panel=""
          className={`absolute ${alignLeft ? "left-0" : "right-0"} z-20 mt-1 flex w-72 flex-col rounded border border-border bg-surface p-1 text-xs shadow`}
        >
          {notice ? (
            <p id={noticeId} className="border-b border-border px-2 pt-1 pb-1.5 text-muted">
              {notice}
            </p>
          ) : null}
          <div
            role="menu"
            aria-label="Export"
            aria-describedby={notice ? noticeId : undefined}
            className="flex flex-col"
          >
            {unsaved ? (
              <button
                type="button"
                role="menuitem"
                className="rounded px-2 py-1.5 text-left font-medium hover:bg-surface-muted"
                onClick={() => {
                  setOpen(false);
                  void saveDocument(store, projectId);
                }}
              >
                Save first
              </button>
            ) : null}
            {EXPORT_FORMATS.map(({ format, label }) => (
              <button
                key={format}
                type="button"
                role="menuitem"
                className="rounded px-2 py-1.5 text-left hover:bg-surface-muted"
                onClick={() => void exportAs(format)}
              >
                {label}
              </button>
            ))}
          </div>
        </div>
      ) : null}
    </div>
  );
}
