"use client";
// The studio: toolbar on top, canvas in the middle, inspector on the right, problems and code below,
// and the dialogs (command palette, keyboard shortcuts, models) every command can open.
import { ReactFlowProvider, useReactFlow } from "@xyflow/react";
import { useMemo, useState } from "react";
import type { Graph } from "@/lib/graph";
import { createStudioStore } from "@/lib/studio/studio-store";
import { CodePane } from "./CodePane";
import { CommandPalette } from "./CommandPalette";
import { HistoryDialog } from "./HistoryDialog";
import { Inspector } from "./Inspector";
import { ModelsDialog } from "./ModelsDialog";
import { ProblemsPanel } from "./ProblemsPanel";
import { ShortcutsDialog } from "./ShortcutsDialog";
import { StatusLine } from "./StatusLine";
import { StudioCanvas } from "./StudioCanvas";
import { StudioStoreProvider, useStudioStore } from "./StudioStoreContext";
import { StudioToolbar } from "./StudioToolbar";
import type { StudioCommandContext } from "./studio-commands";
import { useStudioShortcuts } from "./useStudioShortcuts";

function StudioWorkspace({ projectId }: { projectId: string }) {
  const store = useStudioStore();
  const { fitView } = useReactFlow();
  const context = useMemo<StudioCommandContext>(
    () => ({ store, projectId, viewport: { fitView } }),
    [store, projectId, fitView],
  );
  useStudioShortcuts(context);
  return (
    <div className="flex h-[calc(100vh-2.75rem)] flex-col">
      <StudioToolbar context={context} />
      <div className="flex min-h-0 flex-1">
        <div className="min-w-0 flex-1">
          <StudioCanvas context={context} />
        </div>
        <Inspector />
      </div>
      <div className="flex h-44 shrink-0 border-t border-border bg-surface">
        <ProblemsPanel />
        <CodePane />
      </div>
      <StatusLine />
      <CommandPalette context={context} />
      <ShortcutsDialog />
      <ModelsDialog />
      <HistoryDialog projectId={projectId} />
    </div>
  );
}

export function Studio({ projectId, graph, version }: { projectId: string; graph: Graph; version: number }) {
  const [store] = useState(() => createStudioStore(graph, version));
  return (
    <StudioStoreProvider store={store}>
      <ReactFlowProvider>
        <StudioWorkspace projectId={projectId} />
      </ReactFlowProvider>
    </StudioStoreProvider>
  );
}
