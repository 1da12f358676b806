// decompile(bundle) → graph: one node per definition, laid out automatically. When the previous
// graph is given, nodes that still exist (same kind and name) keep their id, position and size,
// and notes are kept, so re-importing or saving definitions never scrambles a user's canvas.
import type { Bundle } from "@/lib/standard";
import {
  type DefinitionNode,
  type DefinitionNodeKind,
  definitionName,
  GRAPH_SCHEMA_VERSION,
  type Graph,
  type GraphNode,
  isDefinitionNode,
} from "./document";
import { deriveEdges } from "./edges";
import { layoutGraph } from "./layout";

const KINDS_IN_ORDER: [DefinitionNodeKind, "agents" | "prompts" | "tools" | "models"][] = [
  ["agent", "agents"],
  ["prompt", "prompts"],
  ["tool", "tools"],
  ["model", "models"],
];

/** A readable, stable node id for a new definition node, unique within `taken`. */
export function newNodeId(kind: DefinitionNodeKind, name: string, taken: Set<string>): string {
  const base = `${kind}:${name || "unnamed"}`;
  let id = base;
  for (let n = 2; taken.has(id); n++) id = `${base}#${n}`;
  taken.add(id);
  return id;
}

export interface DecompileOptions {
  /**
   * A definition whose name matches no previous node takes the id and position of a previous node of
   * its kind that matches no definition (in order), so renaming a definition in code keeps its node.
   */
  keepRenamed?: boolean;
}

export function decompileBundle(bundle: Bundle, previous?: Graph, options: DecompileOptions = {}): Graph {
  const previousByKey = new Map<string, DefinitionNode>();
  for (const node of previous?.nodes ?? []) {
    if (isDefinitionNode(node)) previousByKey.set(`${node.type}:${definitionName(node)}`, node);
  }
  const notes = (previous?.nodes ?? []).filter((node) => node.type === "note");
  const taken = new Set<string>(notes.map((node) => node.id));
  const fresh = new Set<string>();
  const nodes: GraphNode[] = [];
  const entries = KINDS_IN_ORDER.flatMap(([kind, key]) =>
    (bundle[key] as unknown as Record<string, unknown>[]).map((definition) => ({
      kind,
      definition,
      name: typeof definition.name === "string" ? definition.name : "",
    })),
  );
  const named = new Set(entries.map(({ kind, name }) => `${kind}:${name}`));
  const renamed = new Map<DefinitionNodeKind, DefinitionNode[]>();
  if (options.keepRenamed) {
    for (const [key, node] of previousByKey) {
      if (named.has(key)) continue;
      renamed.set(node.type, [...(renamed.get(node.type) ?? []), node]);
    }
  }
  for (const { kind, definition, name } of entries) {
    const kept = previousByKey.get(`${kind}:${name}`) ?? renamed.get(kind)?.shift();
    previousByKey.delete(`${kind}:${name}`);
    if (kept && !taken.has(kept.id)) {
      taken.add(kept.id);
      nodes.push({ ...kept, data: { definition } } as GraphNode);
      continue;
    }
    const id = newNodeId(kind, name, taken);
    fresh.add(id);
    nodes.push({ id, type: kind, position: { x: 0, y: 0 }, data: { definition } } as GraphNode);
  }
  const graph: Graph = {
    version: GRAPH_SCHEMA_VERSION,
    nodes: [...nodes, ...notes],
    viewport: previous?.viewport,
  };
  if (!graph.viewport) delete graph.viewport;
  return layoutGraph(graph, deriveEdges(graph), fresh);
}
