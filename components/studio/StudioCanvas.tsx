"use client";
// The React Flow canvas: renders the document and turns drags, connections and deletions into
// document edits, and palette entries dropped on it into new nodes. Refused connections say why in
// the status line while the user is still drawing. While threads run, active agents and prompts are
// highlighted (useNodeActivity). Large canvases stay smooth: flow nodes are reused unless their node
// changed, the compile is skipped while nodes only move, and every handler is stable. A click on a
// node or edge while the playground is open shows the inspector in the playground's panel.
import {
  Background,
  type Connection,
  ControlButton,
  Controls,
  type Edge,
  type EdgeChange,
  MiniMap,
  type NodeChange,
  ReactFlow,
  type ReactFlowState,
  useReactFlow,
  useStore,
  useStoreApi,
} from "@xyflow/react";
import "@xyflow/react/dist/style.css";
import {
  type DragEvent,
  type MouseEvent as ReactMouseEvent,
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useState,
} from "react";
import { useShallow } from "zustand/react/shallow";
import { Button } from "@/components/ui/Button";
import { ICONS } from "@/components/ui/icons";
import {
  boundsInView,
  CANVAS_FAR_ZOOM,
  CANVAS_MINIMAP_SIZE,
  definitionName,
  type Graph,
  graphBounds,
  isDefinitionNode,
  MINIMAP_FROM_NODES,
} from "@/lib/graph";
import { connect, connectionRefusal, findNode, moveNodes } from "@/lib/studio/document-edits";
import { applySelectChanges, type SelectChange, withoutMissingEdges } from "@/lib/studio/selection";
import { countsWithUnapplied } from "@/lib/studio/unapplied-fields";
import { CanvasContextMenu, type CanvasMenuState } from "./CanvasContextMenu";
import { EdgeLabels, STUDIO_EDGE_TYPES } from "./edges";
import { type StudioFlowEdge, type StudioFlowNode, toFlowEdges, toFlowNodes } from "./flow-elements";
import { NODE_PRESET_MIME, paletteEntry } from "./NodePalette";
import { STUDIO_NODE_TYPES } from "./nodes";
import { usePlaygroundOverlay, usePlaygroundStore } from "./PlaygroundContext";
import { withRunOverlay } from "./run-overlay-flow";
import { useStudio, useStudioStore } from "./StudioStoreContext";
import { addPresetNode } from "./studio-actions";
import type { StudioCommandContext } from "./studio-commands";
import { useCompiled } from "./useCompiled";
import { useNodeActivity } from "./useNodeActivity";

type Size = { width: number; height: number };

function nodeLabel(graphNodeId: string, graph: Graph): string {
  const node = findNode(graph, graphNodeId);
  return node && isDefinitionNode(node) ? definitionName(node) || node.type : "note";
}

/**
 * From this many nodes, only the cards, edges and labels near the view are in the DOM: panning and
 * dragging 300 nodes then costs what 30 do. Smaller canvases keep every card in the DOM, so the
 * keyboard can reach each one (a card out of view is not focusable when it is not rendered).
 */
export const CULL_FROM_NODES = 100;

function FitIcon() {
  return (
    <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 30" aria-hidden="true">
      <path d="M3.692 4.63c0-.53.4-.938.939-.938h5.215V0H4.708C2.13 0 0 2.054 0 4.63v5.216h3.692V4.631zM27.354 0h-5.2v3.692h5.17c.53 0 .984.4.984.939v5.215H32V4.631A4.624 4.624 0 0027.354 0zm.954 24.83c0 .532-.4.94-.939.94h-5.215v3.768h5.215c2.577 0 4.631-2.13 4.631-4.707v-5.139h-3.692v5.139zm-23.677.94c-.531 0-.939-.4-.939-.94v-5.138H0v5.139c0 2.577 2.13 4.707 4.708 4.707h5.138V25.77H4.631z" />
    </svg>
  );
}

/**
 * On an empty canvas, what to do first: a template (opens the toolbar's Templates menu) or a node
 * from the palette. It takes no pointer outside its text and button, so a node can be dropped anywhere.
 */
function EmptyCanvasHint() {
  const store = useStudioStore();
  return (
    <div
      data-testid="empty-canvas-hint"
      className="pointer-events-none absolute inset-0 z-[4] flex items-center justify-center p-6"
    >
      <div className="pointer-events-auto flex max-w-md flex-col items-center gap-2 text-center">
        <p className="text-sm font-medium">This canvas is empty</p>
        <p className="text-xs text-muted">
          Start from a template, or drag a node from the palette onto the canvas.
        </p>
        <Button size="compact" onClick={() => store.getState().openDialog("templates")}>
          {ICONS.templates}
          Start from a template
        </Button>
      </div>
    </div>
  );
}

const isInteractive = (state: ReactFlowState) =>
  state.nodesDraggable || state.nodesConnectable || state.elementsSelectable;

/** React Flow's "Toggle Interactivity" (locks dragging, connecting and selecting), in our order. */
function InteractivityButton() {
  const flowStore = useStoreApi();
  const interactive = useStore(isInteractive);
  return (
    <ControlButton
      className="react-flow__controls-interactive"
      onClick={() =>
        flowStore.setState({
          nodesDraggable: !interactive,
          nodesConnectable: !interactive,
          elementsSelectable: !interactive,
        })
      }
      title="Toggle Interactivity"
      aria-label="Toggle Interactivity"
    >
      {interactive ? <UnlockIcon /> : <LockIcon />}
    </ControlButton>
  );
}

// React Flow's lock icons (not exported), for the interactivity button.
function LockIcon() {
  return (
    <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 25 32" aria-hidden="true">
      <path d="M21.333 10.667H19.81V7.619C19.81 3.429 16.38 0 12.19 0 8 0 4.571 3.429 4.571 7.619v3.048H3.048A3.056 3.056 0 000 13.714v15.238A3.056 3.056 0 003.048 32h18.285a3.056 3.056 0 003.048-3.048V13.714a3.056 3.056 0 00-3.048-3.047zM12.19 24.533a3.056 3.056 0 01-3.047-3.047 3.056 3.056 0 013.047-3.048 3.056 3.056 0 013.048 3.048 3.056 3.056 0 01-3.048 3.047zm4.724-13.866H7.467V7.619c0-2.59 2.133-4.724 4.723-4.724 2.591 0 4.724 2.133 4.724 4.724v3.048z" />
    </svg>
  );
}

function UnlockIcon() {
  return (
    <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 25 32" aria-hidden="true">
      <path d="M21.333 10.667H19.81V7.619C19.81 3.429 16.38 0 12.19 0c-4.114 1.828-1.37 2.133.305 2.438 1.676.305 4.42 2.59 4.42 5.181v3.048H3.047A3.056 3.056 0 000 13.714v15.238A3.056 3.056 0 003.048 32h18.285a3.056 3.056 0 003.048-3.048V13.714a3.056 3.056 0 00-3.048-3.047zM12.19 24.533a3.056 3.056 0 01-3.047-3.047 3.056 3.056 0 013.047-3.048 3.056 3.056 0 013.048 3.048 3.056 3.056 0 01-3.048 3.047z" />
    </svg>
  );
}

function miniMapColor(node: StudioFlowNode): string {
  return `var(--kind-${node.type ?? "note"})`;
}

/** Keys that add to the selection on click; Shift also draws a selection box on the canvas. */
const MULTI_SELECTION_KEYS = ["Shift", "Meta", "Control"];

function selectChanges(
  changes: readonly (NodeChange<StudioFlowNode> | EdgeChange<StudioFlowEdge>)[],
): SelectChange[] {
  return changes.flatMap((change) =>
    change.type === "select" ? [{ id: change.id, selected: change.selected }] : [],
  );
}

const PRO_OPTIONS = { hideAttribution: true };

const isPaletteDrag = (event: DragEvent) => event.dataTransfer.types.includes(NODE_PRESET_MIME);

export function StudioCanvas({ context }: { context: StudioCommandContext }) {
  const store = useStudioStore();
  const { screenToFlowPosition } = useReactFlow();
  const selection = useStudio((state) => state.selection);
  // Positions come from the document itself; the compile (edges, error counts) only changes with
  // the definitions, so it is not redone while nodes are dragged.
  const graph = useStudio((state) => state.history.present);
  const compiled = useCompiled();
  const { edges } = compiled;
  // Inspector text that does not parse counts on its card too, as Problems lists it.
  const unapplied = useStudio((state) => state.unappliedFields);
  const counts = useMemo(() => countsWithUnapplied(compiled.counts, unapplied), [compiled.counts, unapplied]);
  const [measured, setMeasured] = useState<Map<string, Size>>(() => new Map());
  const bounds = useMemo(() => graphBounds(graph.nodes), [graph.nodes]);
  const culled = graph.nodes.length >= CULL_FROM_NODES;
  const partlyOutOfView = useStore(
    useCallback(
      (state: ReactFlowState) =>
        bounds !== null &&
        state.width > 0 &&
        !boundsInView(
          bounds,
          { width: state.width, height: state.height },
          { x: state.transform[0], y: state.transform[1], zoom: state.transform[2] },
        ),
      [bounds],
    ),
  );
  // While the view pans or zooms, the viewport is its own compositor layer: the browser moves the
  // painted canvas instead of repainting 300 cards each frame. Only then: a layer kept while still
  // would blur the text after a zoom. Set on the element, so React does not re-render for it.
  const flowElement = useRef<HTMLDivElement>(null);
  const onMoveStart = useCallback(() => flowElement.current?.classList.add("studio-canvas-moving"), []);
  const onMoveEnd = useCallback(() => flowElement.current?.classList.remove("studio-canvas-moving"), []);
  // Zoomed far out, cards are drawn as coloured blocks without their unreadable text (globals.css,
  // .studio-canvas-far). A class on the element, switched by a store subscription: crossing the
  // threshold re-renders nothing.
  const flowStore = useStoreApi();
  useEffect(() => {
    const apply = (zoom: number) =>
      flowElement.current?.classList.toggle("studio-canvas-far", zoom < CANVAS_FAR_ZOOM);
    apply(flowStore.getState().transform[2]);
    return flowStore.subscribe((state) => apply(state.transform[2]));
  }, [flowStore]);
  const [menu, setMenu] = useState<CanvasMenuState | null>(null);
  const [hoveredEdgeId, setHoveredEdgeId] = useState<string | null>(null);
  const closeMenu = useCallback(() => setMenu(null), []);
  // Stable: React Flow hands these to every edge, and a new function would re-render all of them
  // on every frame of a drag.
  const onEdgeMouseEnter = useCallback(
    (_: ReactMouseEvent, edge: StudioFlowEdge) => setHoveredEdgeId(edge.id),
    [],
  );
  const onEdgeMouseLeave = useCallback(() => setHoveredEdgeId(null), []);
  const openMenu = useCallback((event: ReactMouseEvent | MouseEvent, target: CanvasMenuState["target"]) => {
    event.preventDefault();
    setMenu({ x: event.clientX, y: event.clientY, target });
  }, []);
  const activity = useNodeActivity(context.projectId, compiled.graph.nodes);
  // A selected edge the canvas no longer draws (its reference removed, its target gone) stops being
  // selected: hidden, nothing could deselect it.
  useEffect(() => {
    if (selection.edgeIds.length === 0) return;
    store.getState().setSelection(withoutMissingEdges(selection, new Set(edges.map((edge) => edge.id))));
  }, [store, edges, selection]);

  const runOverlay = usePlaygroundOverlay(compiled.graph, edges);
  // A click on a node or an edge while the playground is open shows the inspector in its panel, also
  // when that item was already selected (the selection does not change then).
  const playground = usePlaygroundStore();
  const showInspector = useCallback(() => {
    if (playground.getState().open) playground.setState({ view: "inspector" });
  }, [playground]);

  const previousNodes = useRef<StudioFlowNode[]>([]);
  const baseNodes = useMemo(() => {
    const next = toFlowNodes(graph, counts, selection, measured, activity, previousNodes.current);
    previousNodes.current = next;
    return next;
  }, [graph, counts, selection, measured, activity]);
  // The edges depend on the selected edges only, compared by content: picking up a card must not
  // hand React Flow a new edge array (see toFlowEdges).
  const selectedEdgeIds = useStudio(useShallow((state) => state.selection.edgeIds));
  const baseEdges = useMemo(
    () => toFlowEdges(compiled.graph, edges, counts, selectedEdgeIds),
    [compiled.graph, edges, counts, selectedEdgeIds],
  );
  const { nodes: flowNodes, edges: flowEdges } = useMemo(
    () => withRunOverlay(baseNodes, baseEdges, runOverlay),
    [baseNodes, baseEdges, runOverlay],
  );

  const onNodesChange = useCallback(
    (changes: NodeChange<StudioFlowNode>[]) => {
      const sizes = new Map<string, Size>();
      const positions = new Map<string, { x: number; y: number }>();
      let dragging = false;
      for (const change of changes) {
        if (change.type === "dimensions" && change.dimensions) sizes.set(change.id, change.dimensions);
        if (change.type === "position" && change.position) {
          positions.set(change.id, change.position);
          dragging ||= change.dragging === true;
        }
        if (change.type === "position" && change.dragging === false && !change.position) {
          positions.set(
            change.id,
            findNode(store.getState().history.present, change.id)?.position ?? { x: 0, y: 0 },
          );
        }
      }
      if (sizes.size) setMeasured((current) => new Map([...current, ...sizes]));
      if (positions.size) store.getState().dragTo((document) => moveNodes(document, positions), !dragging);
      const selected = selectChanges(changes);
      if (selected.length) {
        store.getState().setSelection(applySelectChanges(store.getState().selection, "node", selected));
      }
    },
    [store],
  );

  // Deletion is the studio's own "delete" command (one undo step for nodes and edges together), so
  // React Flow's delete key is off and its remove changes never arrive here.
  const onEdgesChange = useCallback(
    (changes: EdgeChange<StudioFlowEdge>[]) => {
      const selected = selectChanges(changes);
      if (selected.length) {
        store.getState().setSelection(applySelectChanges(store.getState().selection, "edge", selected));
      }
    },
    [store],
  );

  const isValidConnection = useCallback(
    (connection: Edge | Connection) => {
      const refusal = connectionRefusal(store.getState().history.present, connection);
      if (refusal) store.getState().setStatus({ tone: "error", text: refusal });
      return refusal === null;
    },
    [store],
  );

  const onConnect = useCallback(
    (connection: Connection) => {
      const document = store.getState().history.present;
      store.getState().edit((current) => connect(current, connection));
      store.getState().setStatus({
        tone: "info",
        text: `Connected ${nodeLabel(connection.source, document)} → ${nodeLabel(connection.target, document)}`,
      });
    },
    [store],
  );

  const onPaneContextMenu = useCallback(
    (event: ReactMouseEvent | MouseEvent) => openMenu(event, "pane"),
    [openMenu],
  );
  const onSelectionContextMenu = useCallback(
    (event: ReactMouseEvent) => openMenu(event, "selection"),
    [openMenu],
  );
  const onNodeContextMenu = useCallback(
    (event: ReactMouseEvent, node: StudioFlowNode) => {
      if (!store.getState().selection.nodeIds.includes(node.id)) {
        store.getState().select({ kind: "node", id: node.id });
      }
      openMenu(event, "selection");
    },
    [store, openMenu],
  );

  // Palette entries dragged onto the canvas (NodePalette): the node lands where it is dropped.
  const onDragOver = useCallback((event: DragEvent) => {
    if (!isPaletteDrag(event)) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = "copy";
  }, []);
  const onDrop = useCallback(
    (event: DragEvent) => {
      if (!isPaletteDrag(event)) return;
      event.preventDefault();
      const preset = paletteEntry(event.dataTransfer.getData(NODE_PRESET_MIME));
      if (!preset) return;
      const at = screenToFlowPosition({ x: event.clientX, y: event.clientY }, { snapToGrid: false });
      addPresetNode(store, context.viewport, preset, at);
    },
    [store, context.viewport, screenToFlowPosition],
  );

  return (
    <>
      <ReactFlow<StudioFlowNode, StudioFlowEdge>
        ref={flowElement}
        onMoveStart={onMoveStart}
        onMoveEnd={onMoveEnd}
        nodes={flowNodes}
        edges={flowEdges}
        nodeTypes={STUDIO_NODE_TYPES}
        edgeTypes={STUDIO_EDGE_TYPES}
        onEdgeMouseEnter={onEdgeMouseEnter}
        onEdgeMouseLeave={onEdgeMouseLeave}
        // A pointer that leaves the canvas hovers no edge (whatever the label or edge under it last saw).
        onMouseLeave={onEdgeMouseLeave}
        onNodeClick={showInspector}
        onEdgeClick={showInspector}
        onNodesChange={onNodesChange}
        onEdgesChange={onEdgesChange}
        onConnect={onConnect}
        isValidConnection={isValidConnection}
        deleteKeyCode={null}
        multiSelectionKeyCode={MULTI_SELECTION_KEYS}
        selectionKeyCode="Shift"
        onPaneContextMenu={onPaneContextMenu}
        onNodeContextMenu={onNodeContextMenu}
        onSelectionContextMenu={onSelectionContextMenu}
        onDragOver={onDragOver}
        onDrop={onDrop}
        onInit={() => {
          // Fit the view when the studio opens on nodes (the saved document, or a draft restored
          // before this); an empty canvas must not re-fit (and jump) when its first node is added.
          if (store.getState().history.present.nodes.length > 0) context.viewport.fitCanvas();
        }}
        minZoom={0.2}
        onlyRenderVisibleElements={culled}
        proOptions={PRO_OPTIONS}
        aria-label="Studio canvas"
      >
        <Background gap={16} />
        {/* Small canvases fit on screen; the minimap (fit view keeps cards out from under it when it
            can, fitCanvasViewport) appears for larger ones, and whenever part of the canvas is out
            of view, so the reader knows there is more. */}
        {graph.nodes.length > MINIMAP_FROM_NODES || partlyOutOfView ? (
          <MiniMap
            pannable
            zoomable
            ariaLabel="Canvas minimap"
            nodeColor={miniMapColor}
            style={CANVAS_MINIMAP_SIZE}
          />
        ) : null}
        {/* Our fit (fitCanvas) and, after it, the interactivity toggle: React Flow puts its own toggle
            before any added button, so Tab would reach the lock before the fit button above it. */}
        <Controls showFitView={false} showInteractive={false}>
          <ControlButton
            className="react-flow__controls-fitview"
            onClick={() => context.viewport.fitCanvas()}
            title="Fit View"
            aria-label="Fit View"
          >
            <FitIcon />
          </ControlButton>
          <InteractivityButton />
        </Controls>
        {graph.nodes.length === 0 ? <EmptyCanvasHint /> : null}
        <EdgeLabels
          edges={flowEdges}
          culled={culled}
          hoveredEdgeId={hoveredEdgeId}
          onHover={setHoveredEdgeId}
          onSelect={(id) => {
            store.getState().select({ kind: "edge", id });
            showInspector();
          }}
        />
      </ReactFlow>
      {menu ? <CanvasContextMenu menu={menu} context={context} onClose={closeMenu} /> : null}
    </>
  );
}
