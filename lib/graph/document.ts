// The canvas document: positioned nodes that each hold one definition (agent, prompt, tool, model)
// or a note. Nodes are the single source of truth; edges are derived from the references inside
// the definitions (see edges.ts), so the canvas and the compiled bundle can never disagree. Its
// schema is the wire contract (lib/contracts/graph-document.ts); these are the helpers over it.
import {
  type DefinitionNode,
  GRAPH_SCHEMA_VERSION,
  type Graph,
  type GraphNode,
} from "@/lib/contracts/graph-document";

export {
  DEFINITION_NODE_KINDS,
  type DefinitionNode,
  type DefinitionNodeKind,
  GRAPH_SCHEMA_VERSION,
  type Graph,
  type GraphNode,
  type GraphNodeKind,
  GraphNodeSchema,
  GraphSchema,
} from "@/lib/contracts/graph-document";

export function emptyGraph(): Graph {
  return { version: GRAPH_SCHEMA_VERSION, nodes: [] };
}

export function isDefinitionNode(node: GraphNode): node is DefinitionNode {
  return node.type !== "note";
}

export function definitionName(node: DefinitionNode): string {
  const name = node.data.definition.name;
  return typeof name === "string" ? name : "";
}
