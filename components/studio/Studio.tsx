"use client";
import { ReactFlowProvider, useReactFlow } from "@xyflow/react";
import { useEffect, useMemo, useRef, useState } from "react";
// The studio: toolbar on top, the node palette on the left, canvas in the middle, inspector (or the
// playground, which then holds the inspector too) on the right, problems and code below, and the
// dialogs (command palette, keyboard shortcuts, models, saving) every command can open; a draft of
// unsaved work is kept in this browser and restored. Each area is a `data-studio-region` for F6, and
// a skip link leads to the open playground.
import { ProjectIdProvider } from "@/components/access/ProjectIdContext";
import { refusal, usePermission } from "@/components/access/permission";
import { fitCanvasViewport, type Graph, layoutRoomFor } from "@/lib/graph";
import { isSelectionEmpty } from "@/lib/studio/selection";
import { createStudioStore, type StudioStore } from "@/lib/studio/studio-store";
import { BottomPanel } from "./BottomPanel";
import { CommandPalette } from "./CommandPalette";
import { DraftNotice } from "./DraftNotice";
import { HistoryDialog } from "./HistoryDialog";
import { Inspector } from "./Inspector";
import { LeaveGuard } from "./LeaveGuard";
import { ModelsDialog } from "./ModelsDialog";
import { NodePalette } from "./NodePalette";
import {
  PlaygroundProvider,
  type PlaygroundStore,
  usePlayground,
  usePlaygroundStore,
} from "./PlaygroundContext";
import { PlaygroundPanel } from "./PlaygroundPanel";
import { SaveConflictDialog, SaveProblemsDialog } from "./SaveDialogs";
import { ShortcutsDialog } from "./ShortcutsDialog";
import { StatusLine } from "./StatusLine";
import { StudioCanvas } from "./StudioCanvas";
import { StudioStoreProvider, useStudioStore } from "./StudioStoreContext";
import { StudioToolbar } from "./StudioToolbar";
import type { StudioViewport } from "./studio-actions";
import type { StudioCommandContext } from "./studio-commands";
import { focusPlayground } from "./studio-regions";
import { useStudioDraft } from "./useStudioDraft";
import { useStudioShortcuts } from "./useStudioShortcuts";

/** The viewport calls commands need, read from React Flow and the canvas element's box. */
function useStudioViewport(
  canvas: React.RefObject<HTMLDivElement | null>,
  store: StudioStore,
  playground: PlaygroundStore,
): StudioViewport {
  const { fitView, setViewport, getViewport, screenToFlowPosition, getInternalNode } = useReactFlow();
  // The viewport the last fit asked for: while the view is still there, a resized pane is fitted again.
  const lastFit = useRef<{ x: number; y: number; zoom: number } | null>(null);
  return useMemo(() => {
    const paneSize = () => {
      const box = canvas.current?.getBoundingClientRect();
      return box && box.width > 0 && box.height > 0 ? { width: box.width, height: box.height } : undefined;
    };
    const fitCanvas = (options?: { duration?: number }) => {
      const pane = paneSize();
      if (!pane) return;
      const fit = fitCanvasViewport(store.getState().history.present.nodes, pane);
      if (!fit) return;
      const { x, y, zoom } = fit;
      lastFit.current = { x, y, zoom };
      void setViewport({ x, y, zoom }, { duration: options?.duration });
    };
    const atLastFit = () => {
      const fit = lastFit.current;
      const now = getViewport();
      return (
        fit !== null &&
        Math.abs(now.x - fit.x) < 0.5 &&
        Math.abs(now.y - fit.y) < 0.5 &&
        Math.abs(now.zoom - fit.zoom) < 1e-3
      );
    };
    return {
      fitView,
      fitCanvas,
      refitIfFitted: () => {
        if (atLastFit()) fitCanvas();
      },
      fitIfUnmoved: () => {
        // Never fitted: React Flow's initial viewport means nobody has moved the view yet.
        const now = getViewport();
        const untouched = lastFit.current === null && now.x === 0 && now.y === 0 && now.zoom === 1;
        if (untouched || atLastFit()) fitCanvas();
      },
      layoutRoom: () => {
        const pane = paneSize();
        if (!pane) return undefined;
        // A layout made now is run right away in the playground, which takes the inspector's place
        // and is wider: it is packed for the narrower pane too, so running hides no card.
        const { open, width } = playground.getState();
        const inspector = canvas.current?.nextElementSibling?.getBoundingClientRect().width ?? 0;
        const narrowed = open ? pane.width : pane.width - Math.max(0, width - inspector);
        return layoutRoomFor({ width: Math.min(pane.width, narrowed), height: pane.height });
      },
      visibleArea: () => {
        const box = canvas.current?.getBoundingClientRect();
        if (!box || box.width === 0 || box.height === 0) return null;
        const topLeft = screenToFlowPosition({ x: box.left, y: box.top }, { snapToGrid: false });
        const bottomRight = screenToFlowPosition({ x: box.right, y: box.bottom }, { snapToGrid: false });
        return { ...topLeft, width: bottomRight.x - topLeft.x, height: bottomRight.y - topLeft.y };
      },
      nodeSize: (nodeId) => {
        const measured = getInternalNode(nodeId)?.measured;
        return measured?.width && measured.height
          ? { width: measured.width, height: measured.height }
          : undefined;
      },
    };
  }, [canvas, store, playground, fitView, setViewport, getViewport, screenToFlowPosition, getInternalNode]);
}

/**
 * While the playground is open, selecting something shows its inspector in the playground's panel,
 * and clearing the selection brings the playground back (the run goes on either way).
 */
function usePanelFollowsSelection(store: StudioStore, playground: PlaygroundStore) {
  useEffect(
    () =>
      store.subscribe((state, previous) => {
        if (state.selection === previous.selection || !playground.getState().open) return;
        const view = isSelectionEmpty(state.selection) ? "playground" : "inspector";
        if (playground.getState().view !== view) playground.setState({ view });
      }),
    [store, playground],
  );
}

/** The first stop of the studio for the keyboard while the playground is open: straight into it. */
function SkipToPlayground() {
  const playground = usePlaygroundStore();
  const open = usePlayground((state) => state.open);
  if (!open) return null;
  return (
    <button
      type="button"
      // Shown only while focused, over the toolbar's left end (not-sr-only would drop its padding).
      className="pointer-events-none absolute left-2 top-1.5 z-50 rounded-md bg-accent px-3 py-1.5 text-sm font-medium text-accent-contrast opacity-0 shadow focus:pointer-events-auto focus:opacity-100"
      onClick={() => {
        if (playground.getState().view !== "playground")
          playground.setState({ view: "playground", focusPending: true });
        else focusPlayground();
      }}
    >
      Skip to the playground (F6 moves between areas)
    </button>
  );
}

function StudioWorkspace({ projectId }: { projectId: string }) {
  const store = useStudioStore();
  const canvas = useRef<HTMLDivElement>(null);
  const playground = usePlaygroundStore();
  const viewport = useStudioViewport(canvas, store, playground);
  // Mod+S and the palette's Save say why a role may not save rather than answering a 403.
  const saveRefused = refusal(usePermission("save", projectId));
  const context = useMemo<StudioCommandContext>(
    () => ({ store, projectId, viewport, saveRefused }),
    [store, projectId, viewport, saveRefused],
  );
  useStudioShortcuts(context);
  usePanelFollowsSelection(store, playground);
  // A draft restored after the canvas opened (on the saved document, often empty) is framed like an
  // opened canvas, unless the view was moved meanwhile.
  useStudioDraft(store, projectId, () => requestAnimationFrame(() => viewport.fitIfUnmoved()));
  // The pane changes size when the playground opens or closes, a panel is resized or the window is:
  // a fitted canvas stays fitted (its run badges and right-hand cards would otherwise be cut off).
  useEffect(() => {
    const element = canvas.current;
    if (!element) return;
    let last = { width: element.clientWidth, height: element.clientHeight };
    const observer = new ResizeObserver(() => {
      const now = { width: element.clientWidth, height: element.clientHeight };
      if (now.width === last.width && now.height === last.height) return;
      last = now;
      viewport.refitIfFitted();
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [viewport]);
  const playgroundOpen = usePlayground((state) => state.open);
  return (
    <div className="relative flex h-[calc(100vh-2.75rem)] flex-col">
      <SkipToPlayground />
      <div data-studio-region="toolbar" className="contents">
        <StudioToolbar context={context} />
      </div>
      <DraftNotice />
      <div className="flex min-h-0 flex-1">
        <div data-studio-region="palette" className="contents">
          <NodePalette context={context} />
        </div>
        <div className="flex min-w-0 flex-1 flex-col">
          <div className="flex min-h-0 flex-1">
            <div ref={canvas} data-studio-region="canvas" className="min-w-0 flex-1">
              <StudioCanvas context={context} />
            </div>
            {playgroundOpen ? null : <Inspector context={context} />}
          </div>
          <div data-studio-region="bottom-panel" className="contents">
            <BottomPanel />
          </div>
        </div>
        {/* The playground takes the inspector's place, over the full height beside the canvas, and
            shows the inspector in its place while something is selected. */}
        {playgroundOpen ? <PlaygroundPanel projectId={projectId} context={context} /> : null}
      </div>
      <StatusLine />
      <CommandPalette context={context} />
      <ShortcutsDialog />
      <ModelsDialog />
      <HistoryDialog projectId={projectId} />
      <SaveProblemsDialog projectId={projectId} />
      <SaveConflictDialog projectId={projectId} />
      <LeaveGuard projectId={projectId} />
    </div>
  );
}

export function Studio({ projectId, graph, version }: { projectId: string; graph: Graph; version: number }) {
  const [store] = useState(() => createStudioStore(graph, version));
  return (
    <ProjectIdProvider projectId={projectId}>
      <StudioStoreProvider store={store}>
        <PlaygroundProvider projectId={projectId}>
          <ReactFlowProvider>
            <StudioWorkspace projectId={projectId} />
          </ReactFlowProvider>
        </PlaygroundProvider>
      </StudioStoreProvider>
    </ProjectIdProvider>
  );
}
