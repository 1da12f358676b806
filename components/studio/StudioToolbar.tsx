"use client";
// Toolbar: templates, add nodes (placed next to the selection or in free space), undo/redo, auto
// layout, save, export and run.
import { useState } from "react";
import { Button } from "@/components/ui/Button";
import { addNode, type StudioNodeKind } from "@/lib/studio/document-edits";
import { autoLayout, placeNewNode } from "@/lib/studio/document-layout";
import { canRedo, canUndo } from "@/lib/studio/history";
import type { StudioStore } from "@/lib/studio/studio-store";
import { RunButton } from "./RunButton";
import { useStudio, useStudioStore } from "./StudioStoreContext";
import { saveDocument } from "./save-document";
import { TemplatesMenu } from "./TemplatesMenu";

const ADDABLE: { kind: StudioNodeKind; label: string }[] = [
  { kind: "agent", label: "Add agent" },
  { kind: "prompt", label: "Add prompt" },
  { kind: "tool", label: "Add tool" },
  { kind: "model", label: "Add model" },
  { kind: "note", label: "Add note" },
];

/** New nodes go right of the selected node, or in free space, never on top of another node. */
export function addNodeOfKind(store: StudioStore, kind: StudioNodeKind) {
  let nodeId = "";
  const { selection } = store.getState();
  store.getState().edit((document) => {
    const near = selection.nodeIds.at(-1) ?? null;
    const added = addNode(document, kind, placeNewNode(document, near));
    nodeId = added.nodeId;
    return added.graph;
  });
  store.getState().select({ kind: "node", id: nodeId });
}

function ExportMenu({ projectId }: { projectId: string }) {
  const [open, setOpen] = useState(false);
  const base = `/api/projects/${encodeURIComponent(projectId)}/export`;
  return (
    <div className="relative">
      <Button aria-expanded={open} onClick={() => setOpen(!open)}>
        Export
      </Button>
      {open ? (
        <div className="absolute right-0 z-10 mt-1 flex w-48 flex-col rounded border border-border bg-surface p-1 text-xs shadow">
          <a className="rounded px-2 py-1 hover:bg-surface-muted" href={`${base}?format=ts`} download>
            TypeScript module (.ts)
          </a>
          <a className="rounded px-2 py-1 hover:bg-surface-muted" href={`${base}?format=zip`} download>
            Standard Agents project (.zip)
          </a>
        </div>
      ) : null}
    </div>
  );
}

export function StudioToolbar({ projectId }: { projectId: string }) {
  const store = useStudioStore();
  const history = useStudio((state) => state.history);
  const baseVersion = useStudio((state) => state.baseVersion);
  return (
    <div
      role="toolbar"
      aria-label="Studio tools"
      className="flex flex-wrap items-center gap-1.5 border-b border-border bg-surface px-3 py-1.5"
    >
      <TemplatesMenu />
      {ADDABLE.map(({ kind, label }) => (
        <Button key={kind} onClick={() => addNodeOfKind(store, kind)}>
          {label}
        </Button>
      ))}
      <span className="mx-1 h-5 w-px bg-border" />
      <Button
        aria-keyshortcuts="Control+Z Meta+Z"
        disabled={!canUndo(history)}
        onClick={() => store.getState().undo()}
      >
        Undo
      </Button>
      <Button
        aria-keyshortcuts="Control+Shift+Z Meta+Shift+Z"
        disabled={!canRedo(history)}
        onClick={() => store.getState().redo()}
      >
        Redo
      </Button>
      <Button
        onClick={() => {
          store.getState().edit(autoLayout);
          store.getState().setStatus({ tone: "info", text: "Laid out the whole canvas" });
        }}
      >
        Auto layout
      </Button>
      <span className="ml-auto text-xs text-muted">
        {baseVersion ? `based on v${baseVersion}` : "not saved yet"}
      </span>
      <Button tone="primary" onClick={() => void saveDocument(store, projectId)}>
        Save
      </Button>
      <ExportMenu projectId={projectId} />
      <RunButton projectId={projectId} />
    </div>
  );
}
