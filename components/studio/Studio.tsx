"use client";
// The studio: toolbar on top, canvas in the middle, inspector on the right, problems and code below.
import { ReactFlowProvider } from "@xyflow/react";
import { useEffect, useState } from "react";
import type { Graph } from "@/lib/graph";
import { createStudioStore, type StudioStore } from "@/lib/studio/studio-store";
import { CodePane } from "./CodePane";
import { Inspector } from "./Inspector";
import { ProblemsPanel } from "./ProblemsPanel";
import { StatusLine } from "./StatusLine";
import { StudioCanvas } from "./StudioCanvas";
import { StudioStoreProvider } from "./StudioStoreContext";
import { StudioToolbar } from "./StudioToolbar";

function isTextEntry(target: EventTarget | null): boolean {
  return (
    target instanceof HTMLElement &&
    (target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName))
  );
}

/** Ctrl/Cmd+Z undoes, Shift+Ctrl/Cmd+Z redoes, except while typing (the field keeps its own undo). */
function useUndoShortcuts(store: StudioStore) {
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (!(event.ctrlKey || event.metaKey) || event.key.toLowerCase() !== "z" || isTextEntry(event.target))
        return;
      event.preventDefault();
      if (event.shiftKey) store.getState().redo();
      else store.getState().undo();
    };
    window.addEventListener("keydown", onKeyDown);
    return () => window.removeEventListener("keydown", onKeyDown);
  }, [store]);
}

export function Studio({ projectId, graph, version }: { projectId: string; graph: Graph; version: number }) {
  const [store] = useState(() => createStudioStore(graph, version));
  useUndoShortcuts(store);
  return (
    <StudioStoreProvider store={store}>
      <ReactFlowProvider>
        <div className="flex h-[calc(100vh-2.75rem)] flex-col">
          <StudioToolbar projectId={projectId} />
          <div className="flex min-h-0 flex-1">
            <div className="min-w-0 flex-1">
              <StudioCanvas projectId={projectId} />
            </div>
            <Inspector />
          </div>
          <div className="flex h-44 shrink-0 border-t border-border bg-surface">
            <ProblemsPanel />
            <CodePane />
          </div>
          <StatusLine />
        </div>
      </ReactFlowProvider>
    </StudioStoreProvider>
  );
}
