// What the studio's commands do to the store (and the viewport): copy, paste, duplicate, delete,
// select all, focus a node, add a node. Each change to the document is one undo step.
import type { ReactFlowInstance } from "@xyflow/react";
import { definitionName, isDefinitionNode } from "@/lib/graph";
import { copyNodes, duplicateNodes, pasteNodes } from "@/lib/studio/clipboard";
import { deleteSelection } from "@/lib/studio/delete-selection";
import { addNode, findNode, type StudioNodeKind } from "@/lib/studio/document-edits";
import { placeNewNode } from "@/lib/studio/document-layout";
import { isSelectionEmpty, selectionOf, selectionOfNodes } from "@/lib/studio/selection";
import type { StudioStore } from "@/lib/studio/studio-store";
import { readStudioClipboard, writeStudioClipboard } from "./system-clipboard";

// Only the viewport calls are needed; typed loosely so the flow's node type does not leak in here.
export type StudioViewport = Pick<ReactFlowInstance, "fitView">;

const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? "" : "s"}`;

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
