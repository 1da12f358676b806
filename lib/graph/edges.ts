// Derives the canvas edges from the references inside node definitions: side → prompt, prompt →
// tool / sub-prompt / subagent / handoff, prompt → model, include parts, model fallbacks.
// Edge ids are deterministic, so diagnostics and selections can point at them across recompiles.
import {
  type DefinitionNodeKind,
  definitionName,
  type Graph,
  type GraphNode,
  isDefinitionNode,
} from "./document";

export type GraphEdgeKind =
  | "side"
  | "tool"
  | "subprompt"
  | "subagent"
  | "handoff"
  | "model"
  | "include"
  | "fallback";

export interface GraphEdge {
  id: string;
  kind: GraphEdgeKind;
  source: string;
  target: string;
  /** Which side of an agent (`sideA` / `sideB`) a side edge leaves from. */
  sourceHandle?: "sideA" | "sideB";
  /** For prompt tool edges: the index of the entry in the prompt's `tools` array. */
  toolIndex?: number;
}

type Definition = Record<string, unknown>;

export interface NodeIndex {
  byKindAndName: Map<string, GraphNode>;
  find(kind: DefinitionNodeKind, name: string): GraphNode | undefined;
  /** A callable name resolves to a tool, then a prompt, then an agent (the spec's Callables). */
  findCallable(name: string): GraphNode | undefined;
}

export function indexNodes(graph: Graph): NodeIndex {
  const byKindAndName = new Map<string, GraphNode>();
  for (const node of graph.nodes) {
    if (!isDefinitionNode(node)) continue;
    const key = `${node.type}:${definitionName(node)}`;
    if (!byKindAndName.has(key)) byKindAndName.set(key, node);
  }
  const find = (kind: DefinitionNodeKind, name: string) => byKindAndName.get(`${kind}:${name}`);
  return {
    byKindAndName,
    find,
    findCallable: (name) => find("tool", name) ?? find("prompt", name) ?? find("agent", name),
  };
}

export function toolEntryName(entry: unknown): string | undefined {
  if (typeof entry === "string") return entry;
  if (entry && typeof entry === "object" && typeof (entry as Definition).name === "string") {
    return (entry as Definition).name as string;
  }
  return undefined;
}

function asDefinition(value: unknown): Definition | undefined {
  return value && typeof value === "object" && !Array.isArray(value) ? (value as Definition) : undefined;
}

export function sideEdgeId(agentNodeId: string, side: "sideA" | "sideB"): string {
  return `${agentNodeId}:${side}`;
}
export function toolEdgeId(promptNodeId: string, index: number): string {
  return `${promptNodeId}:tools:${index}`;
}
export function modelEdgeId(promptNodeId: string): string {
  return `${promptNodeId}:model`;
}
export function includeEdgeId(promptNodeId: string, partIndex: number): string {
  return `${promptNodeId}:prompt:${partIndex}`;
}
export function fallbackEdgeId(modelNodeId: string, index: number): string {
  return `${modelNodeId}:fallbacks:${index}`;
}

function toolEdgeKind(target: GraphNode): GraphEdgeKind {
  if (target.type === "prompt") return "subprompt";
  if (target.type === "agent") return target.data.definition.type === "dual_ai" ? "subagent" : "handoff";
  return "tool";
}

export function deriveEdges(graph: Graph, index: NodeIndex = indexNodes(graph)): GraphEdge[] {
  const edges: GraphEdge[] = [];
  for (const node of graph.nodes) {
    if (!isDefinitionNode(node)) continue;
    const definition = node.data.definition;
    if (node.type === "agent") {
      for (const side of ["sideA", "sideB"] as const) {
        const promptName = asDefinition(definition[side])?.prompt;
        const target = typeof promptName === "string" ? index.find("prompt", promptName) : undefined;
        if (target) {
          edges.push({
            id: sideEdgeId(node.id, side),
            kind: "side",
            source: node.id,
            sourceHandle: side,
            target: target.id,
          });
        }
      }
    } else if (node.type === "prompt") {
      const modelName = definition.model;
      const model = typeof modelName === "string" ? index.find("model", modelName) : undefined;
      if (model) edges.push({ id: modelEdgeId(node.id), kind: "model", source: node.id, target: model.id });
      const tools = Array.isArray(definition.tools) ? definition.tools : [];
      tools.forEach((entry, toolIndex) => {
        const name = toolEntryName(entry);
        const target = name === undefined ? undefined : index.findCallable(name);
        if (target) {
          edges.push({
            id: toolEdgeId(node.id, toolIndex),
            kind: toolEdgeKind(target),
            source: node.id,
            target: target.id,
            toolIndex,
          });
        }
      });
      const parts = Array.isArray(definition.prompt) ? definition.prompt : [];
      parts.forEach((part, partIndex) => {
        const include = asDefinition(part);
        if (include?.type !== "include" || typeof include.prompt !== "string") return;
        const target = index.find("prompt", include.prompt);
        if (target)
          edges.push({
            id: includeEdgeId(node.id, partIndex),
            kind: "include",
            source: node.id,
            target: target.id,
          });
      });
    } else if (node.type === "model") {
      const fallbacks = Array.isArray(definition.fallbacks) ? definition.fallbacks : [];
      fallbacks.forEach((name, fallbackIndex) => {
        const target = typeof name === "string" ? index.find("model", name) : undefined;
        if (target)
          edges.push({
            id: fallbackEdgeId(node.id, fallbackIndex),
            kind: "fallback",
            source: node.id,
            target: target.id,
          });
      });
    }
  }
  return edges;
}
