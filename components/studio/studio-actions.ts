// What the studio's commands do to the store (and the viewport): copy, paste, duplicate, delete,
// select all, focus a node, add a node, align and distribute. Each change to the document is one
// undo step.
import type { ReactFlowInstance } from "@xyflow/react";
import { cardSize, definitionName, isDefinitionNode, type Size } from "@/lib/graph";
import {
  type Arrangement,
  arrangeNodes,
  MIN_TO_ALIGN,
  MIN_TO_DISTRIBUTE,
  type NodeBox,
} from "@/lib/studio/alignment";
import { copyNodes, duplicateNodes, pasteNodes } from "@/lib/studio/clipboard";
import { deleteSelection } from "@/lib/studio/delete-selection";
import { addNode, findNode } from "@/lib/studio/document-edits";
import { placeNewNode } from "@/lib/studio/document-layout";
import type { NodePreset } from "@/lib/studio/node-presets";
import { dropPosition, NEW_NODE_SIZE, type Point, placeInView, type Rect } from "@/lib/studio/placement";
import { isSelectionEmpty, selectionOf, selectionOfNodes } from "@/lib/studio/selection";
import type { StudioStore } from "@/lib/studio/studio-store";
import { readStudioClipboard, writeStudioClipboard } from "./system-clipboard";

/** What the commands need from the canvas (kept narrow so the flow's node type does not leak in). */
export interface StudioViewport {
  fitView: ReactFlowInstance["fitView"];
  /**
   * Frames the whole canvas ("Zoom to fit"): never below legible text; a graph still too large
   * starts at its left/top (see lib/graph/fit-viewport).
   */
  fitCanvas(options?: { duration?: number }): void;
  /**
   * After the canvas pane changed size (the playground opened, a panel was resized): frames the
   * canvas again if the view is still where the last fit put it; a view the user moved stays.
   */
  refitIfFitted(): void;
  /**
   * Frames the canvas unless the user has moved the view: it is still where the last fit put it, or
   * nothing has fitted or moved it yet (a draft restored on a canvas opened empty).
   */
  fitIfUnmoved(): void;
  /** The room (flow units) a layout may fill and still be shown whole; undefined before the canvas is shown. */
  layoutRoom(): Size | undefined;
  /** The part of the document the user sees, in flow coordinates; null before the canvas is shown. */
  visibleArea(): Rect | null;
  /** A node's size as rendered (flow units), once React Flow has measured it. */
  nodeSize(nodeId: string): { width: number; height: number } | undefined;
}

const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? "" : "s"}`;

/** "Added prompt prompt_2", "Added a note": the node's kind and name, never its internal id. */
function addedText(store: StudioStore, nodeId: string, preset: NodePreset): string {
  const node = findNode(store.getState().history.present, nodeId);
  const name = node && isDefinitionNode(node) ? definitionName(node) : "";
  return name ? `Added ${preset.label.toLowerCase()} ${name}` : `Added a ${preset.label.toLowerCase()}`;
}

/**
 * Adds a node from the palette's `preset`: where it was dropped (`dropAt`, flow coordinates), else
 * in the middle of the visible canvas on free space. Selects it; one undo step.
 */
export function addPresetNode(
  store: StudioStore,
  viewport: StudioViewport,
  preset: NodePreset,
  dropAt?: Point,
): string {
  let nodeId = "";
  const view = viewport.visibleArea();
  store.getState().edit((document) => {
    const added = addNode(document, preset.kind, { x: 0, y: 0 }, preset.definition, preset.baseName);
    nodeId = added.nodeId;
    const node = findNode(added.graph, nodeId);
    // Placed by the size its card will have, so it lands beside (not under) what is in view.
    const size = node ? cardSize(node) : NEW_NODE_SIZE;
    const position = dropAt
      ? dropPosition(dropAt)
      : view
        ? placeInView(document, view, viewport.nodeSize, size)
        : placeNewNode(document, store.getState().selection.nodeIds.at(-1));
    return {
      ...added.graph,
      nodes: added.graph.nodes.map((candidate) =>
        candidate.id === nodeId ? { ...candidate, position } : candidate,
      ),
    };
  });
  store.getState().select({ kind: "node", id: nodeId });
  store.getState().setStatus({ tone: "info", text: addedText(store, nodeId, preset) });
  return nodeId;
}

/** The selected nodes' boxes as rendered (the stored size, or a default, before they are measured). */
function selectedBoxes(store: StudioStore, viewport: StudioViewport): NodeBox[] {
  const { history, selection } = store.getState();
  return selection.nodeIds.flatMap((id) => {
    const node = findNode(history.present, id);
    if (!node) return [];
    const size = viewport.nodeSize(id) ?? {
      width: node.width ?? NEW_NODE_SIZE.width,
      height: node.height ?? NEW_NODE_SIZE.height,
    };
    return [{ id, ...node.position, ...size }];
  });
}

/** Whether the selection is large enough to align (two nodes) or distribute (three). */
export function canArrange(nodeCount: number, arrangement: Arrangement): boolean {
  return nodeCount >= (arrangement.kind === "align" ? MIN_TO_ALIGN : MIN_TO_DISTRIBUTE);
}

export function arrangeSelection(
  store: StudioStore,
  viewport: StudioViewport,
  arrangement: Arrangement,
  label: string,
): void {
  const boxes = selectedBoxes(store, viewport);
  if (!canArrange(boxes.length, arrangement)) {
    const needed = arrangement.kind === "align" ? MIN_TO_ALIGN : MIN_TO_DISTRIBUTE;
    store
      .getState()
      .setStatus({ tone: "error", text: `Select at least ${needed} nodes to ${label.toLowerCase()}.` });
    return;
  }
  store.getState().edit((document) => arrangeNodes(document, boxes, arrangement));
  store.getState().setStatus({ tone: "info", text: `${label}: ${plural(boxes.length, "node")}` });
}

export async function copySelection(store: StudioStore): Promise<void> {
  const { history, selection } = store.getState();
  const payload = copyNodes(history.present, selection.nodeIds);
  if (!payload) {
    store.getState().setStatus({ tone: "error", text: "Select the nodes to copy first." });
    return;
  }
  try {
    await writeStudioClipboard(payload);
    store.getState().setStatus({
      tone: "info",
      text: `Copied ${plural(payload.nodes.length, "node")}: paste them here or in another project's studio.`,
    });
  } catch (error) {
    store.getState().setStatus({ tone: "error", text: `Could not copy: ${(error as Error).message}` });
  }
}

export async function pasteClipboard(store: StudioStore): Promise<void> {
  const payload = await readStudioClipboard();
  if (!payload) {
    store.getState().setStatus({ tone: "error", text: "Nothing to paste: copy some studio nodes first." });
    return;
  }
  let pasted: string[] = [];
  store.getState().edit((document) => {
    const result = pasteNodes(document, payload);
    pasted = result.nodeIds;
    return result.graph;
  });
  store.getState().setSelection(selectionOfNodes(pasted));
  store.getState().setStatus({ tone: "info", text: `Pasted ${plural(pasted.length, "node")}` });
}

export function duplicateSelection(store: StudioStore): void {
  const { selection } = store.getState();
  if (selection.nodeIds.length === 0) {
    store.getState().setStatus({ tone: "error", text: "Select the nodes to duplicate first." });
    return;
  }
  let copies: string[] = [];
  store.getState().edit((document) => {
    const result = duplicateNodes(document, selection.nodeIds);
    copies = result.nodeIds;
    return result.graph;
  });
  store.getState().setSelection(selectionOfNodes(copies));
  store.getState().setStatus({ tone: "info", text: `Duplicated ${plural(copies.length, "node")}` });
}

export function deleteSelected(store: StudioStore): void {
  const { selection } = store.getState();
  if (isSelectionEmpty(selection)) return;
  store.getState().edit((document) => deleteSelection(document, selection));
  store.getState().select(null);
  const parts = [
    selection.nodeIds.length ? plural(selection.nodeIds.length, "node") : "",
    selection.edgeIds.length ? plural(selection.edgeIds.length, "edge") : "",
  ].filter(Boolean);
  store
    .getState()
    .setStatus({ tone: "info", text: `Deleted ${parts.join(" and ")} (undo brings them back)` });
}

export function selectAll(store: StudioStore): void {
  store
    .getState()
    .setSelection(selectionOfNodes(store.getState().history.present.nodes.map((node) => node.id)));
}

/** Selects the node and brings it into view. */
export function focusNode(store: StudioStore, viewport: StudioViewport, nodeId: string): void {
  const node = findNode(store.getState().history.present, nodeId);
  if (!node) return;
  store.getState().setSelection(selectionOf({ kind: "node", id: nodeId }));
  const name = isDefinitionNode(node) ? definitionName(node) || "(unnamed)" : "note";
  store.getState().setStatus({ tone: "info", text: `Focused ${node.type} ${name}` });
  void viewport.fitView({ nodes: [{ id: nodeId }], duration: 200, maxZoom: 1.2 });
}
