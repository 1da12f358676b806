// Copy, paste and duplicate of canvas nodes as pure functions over the document. A copy is a JSON
// payload with a marker type, so it can travel through the system clipboard into another project's
// studio. Pasted nodes get fresh ids, names that are free in the target (`writer` → `writer_copy`),
// references rewired to each other's copies, and positions offset from the originals.
import { z } from "zod";
import {
  type DefinitionNodeKind,
  definitionName,
  type Graph,
  type GraphNode,
  GraphNodeSchema,
  isDefinitionNode,
  newNodeId,
} from "@/lib/graph";
import { type ReferenceKind, rewriteReferences } from "./definition-references";

export const STUDIO_CLIPBOARD_TYPE = "tandem/studio-nodes";
export const PASTE_OFFSET = 40;

export const StudioClipboardSchema = z.object({
  type: z.literal(STUDIO_CLIPBOARD_TYPE),
  version: z.literal(1),
  nodes: z.array(GraphNodeSchema).min(1).max(5_000),
});
export type StudioClipboard = z.infer<typeof StudioClipboardSchema>;

/** The selected nodes (in document order) as a clipboard payload, or null when none of them exists. */
export function copyNodes(graph: Graph, nodeIds: Iterable<string>): StudioClipboard | null {
  const wanted = new Set(nodeIds);
  const nodes = graph.nodes.filter((node) => wanted.has(node.id));
  return nodes.length ? { type: STUDIO_CLIPBOARD_TYPE, version: 1, nodes } : null;
}

export function serializeClipboard(payload: StudioClipboard): string {
  return JSON.stringify(payload);
}

/** The payload inside clipboard text, or null when the text is anything else (never throws). */
export function parseClipboard(text: string): StudioClipboard | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  const parsed = StudioClipboardSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}

function freeName(name: string, taken: Set<string>): string {
  if (name === "" || !taken.has(name)) return name;
  let candidate = `${name}_copy`;
  for (let n = 2; taken.has(candidate); n++) candidate = `${name}_copy_${n}`;
  return candidate;
}

/** The smallest diagonal offset that puts no pasted node exactly on an existing node. */
function pasteOffset(graph: Graph, nodes: readonly GraphNode[]): number {
  const occupied = new Set(graph.nodes.map((node) => `${node.position.x},${node.position.y}`));
  for (let step = 1; ; step++) {
    const offset = step * PASTE_OFFSET;
    const collides = nodes.some((node) =>
      occupied.has(`${node.position.x + offset},${node.position.y + offset}`),
    );
    if (!collides) return offset;
  }
}

function nextNoteId(taken: Set<string>): string {
  let n = 1;
  while (taken.has(`note:${n}`)) n++;
  const id = `note:${n}`;
  taken.add(id);
  return id;
}

/**
 * Adds the payload's nodes to `graph`. References between pasted nodes point at the copies;
 * references to anything else keep their name, so they still reach the same definitions in this
 * project (or same-named ones in another) and show up as problems when nothing answers.
 */
export function pasteNodes(graph: Graph, payload: StudioClipboard): { graph: Graph; nodeIds: string[] } {
  const takenNames = new Set(graph.nodes.filter(isDefinitionNode).map(definitionName));
  const takenIds = new Set(graph.nodes.map((node) => node.id));
  const renamed = new Map<string, string>();
  const key = (kind: DefinitionNodeKind, name: string) => `${kind}:${name}`;
  for (const node of payload.nodes) {
    if (!isDefinitionNode(node)) continue;
    const name = definitionName(node);
    if (renamed.has(key(node.type, name))) continue;
    const fresh = freeName(name, takenNames);
    takenNames.add(fresh);
    renamed.set(key(node.type, name), fresh);
  }
  const resolve = (kind: ReferenceKind, name: string): string => {
    const kinds: DefinitionNodeKind[] = kind === "callable" ? ["tool", "prompt", "agent"] : [kind];
    for (const candidate of kinds) {
      const copy = renamed.get(key(candidate, name));
      if (copy !== undefined) return copy;
    }
    return name;
  };
  const offset = pasteOffset(graph, payload.nodes);
  const pasted = payload.nodes.map((original): GraphNode => {
    const position = { x: original.position.x + offset, y: original.position.y + offset };
    if (!isDefinitionNode(original)) {
      return { ...original, id: nextNoteId(takenIds), position, data: { ...original.data } };
    }
    const rewired = rewriteReferences(original, resolve);
    if (rewired.type === "note") return rewired;
    const name = renamed.get(key(original.type, definitionName(original))) ?? "";
    const definition = name === "" ? rewired.data.definition : { ...rewired.data.definition, name };
    const id = newNodeId(original.type, name, takenIds);
    return { ...rewired, id, position, data: { definition } } as GraphNode;
  });
  return { graph: { ...graph, nodes: [...graph.nodes, ...pasted] }, nodeIds: pasted.map((node) => node.id) };
}

/** Copy and paste in one go, within the same document. */
export function duplicateNodes(graph: Graph, nodeIds: Iterable<string>): { graph: Graph; nodeIds: string[] } {
  const payload = copyNodes(graph, nodeIds);
  return payload ? pasteNodes(graph, payload) : { graph, nodeIds: [] };
}
