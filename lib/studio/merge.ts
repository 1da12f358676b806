// Three-way merge of canvas documents by node id, for a save that lost a race: `base` is the version
// both sides started from, `ours` the local document, `theirs` the version saved meanwhile. Changes
// that only one side made are combined; where both sides changed the same node field differently
// (or one removed a node the other changed), ours wins and the node is reported.
import { definitionName, type Graph, type GraphNode, isDefinitionNode } from "@/lib/graph";
import { canonicalJson } from "@/lib/versions/bundle-diff";

export interface MergeConflict {
  nodeId: string;
  /** What the user sees, e.g. `prompt writer` or `note`. */
  label: string;
  /** What happened on each side. */
  reason: "both-changed" | "you-removed" | "they-removed" | "both-added";
}

export interface MergeResult {
  document: Graph;
  /** Nodes both sides changed; the local version was kept. */
  conflicts: MergeConflict[];
  /** How many nodes their additions, removals and changes altered in the result. */
  theirChanges: number;
}

const same = (a: unknown, b: unknown) => a === b || canonicalJson(a) === canonicalJson(b);

export function nodeLabel(node: GraphNode): string {
  if (!isDefinitionNode(node)) return "note";
  return `${node.type} ${definitionName(node) || node.id}`;
}

type Fields = Record<string, unknown>;

const isRecord = (value: unknown): value is Fields =>
  value !== null && typeof value === "object" && !Array.isArray(value);

/**
 * Merges one value changed on both sides: objects key by key (so they moving a node and you editing
 * its prompt are both kept), anything else whole. Where a key changed differently on both sides,
 * ours wins and `conflict` is set.
 */
function mergeValue(base: unknown, ours: unknown, theirs: unknown): { value: unknown; conflict: boolean } {
  if (same(ours, theirs) || same(theirs, base)) return { value: ours, conflict: false };
  if (same(ours, base)) return { value: theirs, conflict: false };
  if (!isRecord(base) || !isRecord(ours) || !isRecord(theirs)) return { value: ours, conflict: true };
  const merged: Fields = {};
  let conflict = false;
  for (const key of new Set([...Object.keys(ours), ...Object.keys(theirs), ...Object.keys(base)])) {
    const field = mergeValue(base[key], ours[key], theirs[key]);
    conflict ||= field.conflict;
    if (field.value !== undefined) merged[key] = field.value;
  }
  return { value: merged, conflict };
}

/** Merges a node present on all three sides and changed on both. */
function mergeNode(
  base: GraphNode,
  ours: GraphNode,
  theirs: GraphNode,
): { node: GraphNode; conflict: boolean } {
  // A node whose kind differs between sides cannot be mixed field by field: ours stays whole.
  if (ours.type !== theirs.type) return { node: ours, conflict: true };
  const merged = mergeValue(base, ours, theirs);
  return { node: merged.value as GraphNode, conflict: merged.conflict };
}

export function mergeDocuments(base: Graph, ours: Graph, theirs: Graph): MergeResult {
  const byId = (graph: Graph) => new Map(graph.nodes.map((node) => [node.id, node]));
  const baseNodes = byId(base);
  const ourNodes = byId(ours);
  const theirNodes = byId(theirs);
  const conflicts: MergeConflict[] = [];
  let theirChanges = 0;
  const result = new Map<string, GraphNode | null>();

  for (const id of new Set([...ourNodes.keys(), ...theirNodes.keys(), ...baseNodes.keys()])) {
    const b = baseNodes.get(id);
    const o = ourNodes.get(id);
    const t = theirNodes.get(id);
    if (same(o, t)) {
      result.set(id, o ?? null);
    } else if (same(t, b)) {
      result.set(id, o ?? null);
    } else if (same(o, b)) {
      theirChanges += 1;
      result.set(id, t ?? null);
    } else if (o && t && b) {
      const merged = mergeNode(b, o, t);
      if (!same(merged.node, o)) theirChanges += 1;
      result.set(id, merged.node);
      if (merged.conflict) conflicts.push({ nodeId: id, label: nodeLabel(o), reason: "both-changed" });
    } else {
      // Both sides did something different to a node: ours wins, whatever it was.
      result.set(id, o ?? null);
      const shown = o ?? t ?? b;
      if (shown) {
        const reason = !o ? "you-removed" : !t ? "they-removed" : "both-added";
        conflicts.push({ nodeId: id, label: nodeLabel(shown), reason });
      }
    }
  }

  // Our order first, then the nodes only they have, in their order.
  const nodes: GraphNode[] = [];
  for (const node of ours.nodes) {
    const kept = result.get(node.id);
    if (kept) nodes.push(kept);
  }
  for (const node of theirs.nodes) {
    if (ourNodes.has(node.id)) continue;
    const kept = result.get(node.id);
    if (kept) nodes.push(kept);
  }
  return { document: { ...ours, nodes }, conflicts, theirChanges };
}

const REASON_TEXT: Record<MergeConflict["reason"], string> = {
  "both-changed": "changed on both sides",
  "you-removed": "you removed it, they changed it",
  "they-removed": "they removed it, you changed it",
  "both-added": "added on both sides",
};

export const conflictReasonText = (conflict: MergeConflict) => REASON_TEXT[conflict.reason];
