// What the user has selected on the canvas: any number of nodes and edges (shift-click, box
// selection). The inspector edits the selection when it is exactly one item.

export type SelectedItem = { kind: "node"; id: string } | { kind: "edge"; id: string };

export interface StudioSelection {
  nodeIds: readonly string[];
  edgeIds: readonly string[];
}

export const EMPTY_SELECTION: StudioSelection = { nodeIds: [], edgeIds: [] };

/** A selection of exactly `item`, or nothing. */
export function selectionOf(item: SelectedItem | null): StudioSelection {
  if (!item) return EMPTY_SELECTION;
  return item.kind === "node" ? { nodeIds: [item.id], edgeIds: [] } : { nodeIds: [], edgeIds: [item.id] };
}

export function selectionOfNodes(nodeIds: readonly string[]): StudioSelection {
  return nodeIds.length ? { nodeIds: [...nodeIds], edgeIds: [] } : EMPTY_SELECTION;
}

/** The one selected item, or null when nothing or several things are selected. */
export function soleSelected(selection: StudioSelection): SelectedItem | null {
  const count = selection.nodeIds.length + selection.edgeIds.length;
  if (count !== 1) return null;
  const [nodeId] = selection.nodeIds;
  if (nodeId !== undefined) return { kind: "node", id: nodeId };
  const [edgeId] = selection.edgeIds;
  return edgeId === undefined ? null : { kind: "edge", id: edgeId };
}

export function isSelectionEmpty(selection: StudioSelection): boolean {
  return selection.nodeIds.length === 0 && selection.edgeIds.length === 0;
}

export interface SelectChange {
  id: string;
  selected: boolean;
}

function applyChanges(ids: readonly string[], changes: readonly SelectChange[]): readonly string[] {
  if (changes.length === 0) return ids;
  const next = new Set(ids);
  for (const change of changes) {
    if (change.selected) next.add(change.id);
    else next.delete(change.id);
  }
  return next.size === ids.length && ids.every((id) => next.has(id)) ? ids : [...next];
}

/** Applies the canvas's select/deselect changes; returns the same object when nothing changed. */
export function applySelectChanges(
  selection: StudioSelection,
  kind: SelectedItem["kind"],
  changes: readonly SelectChange[],
): StudioSelection {
  if (kind === "node") {
    const nodeIds = applyChanges(selection.nodeIds, changes);
    return nodeIds === selection.nodeIds ? selection : { ...selection, nodeIds };
  }
  const edgeIds = applyChanges(selection.edgeIds, changes);
  return edgeIds === selection.edgeIds ? selection : { ...selection, edgeIds };
}

/** The selection without nodes the document no longer has (after undo or redo). */
export function withoutMissingNodes(
  selection: StudioSelection,
  nodeIds: ReadonlySet<string>,
): StudioSelection {
  const kept = selection.nodeIds.filter((id) => nodeIds.has(id));
  return kept.length === selection.nodeIds.length ? selection : { ...selection, nodeIds: kept };
}

/** The selection without edges the canvas no longer draws (a reference removed, its target gone). */
export function withoutMissingEdges(
  selection: StudioSelection,
  edgeIds: ReadonlySet<string>,
): StudioSelection {
  const kept = selection.edgeIds.filter((id) => edgeIds.has(id));
  return kept.length === selection.edgeIds.length ? selection : { ...selection, edgeIds: kept };
}
