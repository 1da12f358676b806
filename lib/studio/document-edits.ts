// Pure edits of the canvas document (lib/graph): add, move, edit and remove nodes, and turn a drawn
// connection into the definition change it stands for. Edges are never stored: every edit here
// changes a definition, and deriveEdges redraws the canvas from it.
import {
  type DefinitionNode,
  type DefinitionNodeKind,
  definitionName,
  type Graph,
  type GraphEdge,
  type GraphNode,
  isDefinitionNode,
  newNodeId,
  toolEntryName,
} from "@/lib/graph";
import { defaultTool } from "./tool-kinds";

export type Definition = Record<string, unknown>;
export type StudioNodeKind = GraphNode["type"];
export type AgentSideKey = "sideA" | "sideB";

export interface DrawnConnection {
  source: string;
  target: string;
  sourceHandle?: string | null;
}

export const SIDE_HANDLES: readonly AgentSideKey[] = ["sideA", "sideB"];

/** Every definition name in use; tools, prompts and agents share one callable namespace, so one set is enough. */
function takenNames(graph: Graph): Set<string> {
  return new Set(graph.nodes.filter(isDefinitionNode).map(definitionName));
}

export function uniqueName(graph: Graph, base: string): string {
  const taken = takenNames(graph);
  for (let n = 1; ; n++) {
    const candidate = `${base}_${n}`;
    if (!taken.has(candidate)) return candidate;
  }
}

export function defaultDefinition(kind: DefinitionNodeKind, name: string): Definition {
  switch (kind) {
    case "agent":
      return { name, type: "ai_human", sideA: { prompt: "" } };
    case "prompt":
      // No toolDescription yet: the inspector shows a hint in the empty box, and Problems asks for one.
      return { name, toolDescription: "", prompt: "You are a helpful assistant.", model: "" };
    case "tool":
      return defaultTool("builtin", name);
    case "model":
      return { name, provider: "openai", model: "gpt-4o-mini", apiKeyEnv: "OPENAI_API_KEY" };
  }
}

export function findNode(graph: Graph, id: string): GraphNode | undefined {
  return graph.nodes.find((node) => node.id === id);
}

/**
 * Adds a node of `kind` with a unique default name (and `definition(name)` instead of the kind's
 * default when given, for the palette's presets); returns the new document and the node's id.
 */
export function addNode(
  graph: Graph,
  kind: StudioNodeKind,
  position: { x: number; y: number },
  definition?: (name: string) => Definition,
  /** The name to use when it is free (else `<baseName>_<n>`); the kind's `<kind>_<n>` without it. */
  baseName?: string,
): { graph: Graph; nodeId: string } {
  const takenIds = new Set(graph.nodes.map((node) => node.id));
  let node: GraphNode;
  if (kind === "note") {
    let n = 1;
    while (takenIds.has(`note:${n}`)) n++;
    node = { id: `note:${n}`, type: "note", position, data: { text: "" } };
  } else {
    const name =
      baseName && !takenNames(graph).has(baseName) ? baseName : uniqueName(graph, baseName ?? kind);
    const id = newNodeId(kind, name, takenIds);
    const initial = definition ? definition(name) : defaultDefinition(kind, name);
    node = { id, type: kind, position, data: { definition: initial } } as GraphNode;
  }
  return { graph: { ...graph, nodes: [...graph.nodes, node] }, nodeId: node.id };
}

export function removeNodes(graph: Graph, ids: ReadonlySet<string>): Graph {
  return { ...graph, nodes: graph.nodes.filter((node) => !ids.has(node.id)) };
}

export function moveNodes(graph: Graph, positions: ReadonlyMap<string, { x: number; y: number }>): Graph {
  return {
    ...graph,
    nodes: graph.nodes.map((node) => {
      const position = positions.get(node.id);
      return position ? { ...node, position } : node;
    }),
  };
}

export function replaceDefinition(graph: Graph, nodeId: string, definition: Definition): Graph {
  return {
    ...graph,
    nodes: graph.nodes.map((node) =>
      node.id === nodeId && isDefinitionNode(node) ? ({ ...node, data: { definition } } as GraphNode) : node,
    ),
  };
}

/** Sets (or, with `undefined`, removes) one top-level field of a node's definition. */
export function setDefinitionField(graph: Graph, nodeId: string, field: string, value: unknown): Graph {
  const node = findNode(graph, nodeId);
  if (!node || !isDefinitionNode(node)) return graph;
  return replaceDefinition(graph, nodeId, withField(node.data.definition, field, value));
}

/** Sets (or removes) one field of an agent's side; the side object is created when missing. */
export function setSideField(
  graph: Graph,
  nodeId: string,
  side: AgentSideKey,
  field: string,
  value: unknown,
): Graph {
  const node = findNode(graph, nodeId);
  if (node?.type !== "agent") return graph;
  const current = asDefinition(node.data.definition[side]) ?? {};
  return replaceDefinition(
    graph,
    nodeId,
    withField(node.data.definition, side, withField(current, field, value)),
  );
}

export function removeSide(graph: Graph, nodeId: string, side: AgentSideKey): Graph {
  return setDefinitionField(graph, nodeId, side, undefined);
}

export function setNoteText(graph: Graph, nodeId: string, text: string): Graph {
  return {
    ...graph,
    nodes: graph.nodes.map((node) =>
      node.id === nodeId && node.type === "note" ? { ...node, data: { ...node.data, text } } : node,
    ),
  };
}

export function promptToolEntries(node: DefinitionNode): unknown[] {
  const tools = node.data.definition.tools;
  return Array.isArray(tools) ? tools : [];
}

/** Replaces the tools entry at `index` (a name or a config object); `undefined` removes it. */
export function setToolEntry(graph: Graph, promptNodeId: string, index: number, entry: unknown): Graph {
  const node = findNode(graph, promptNodeId);
  if (node?.type !== "prompt") return graph;
  const tools = promptToolEntries(node).slice();
  if (entry === undefined) tools.splice(index, 1);
  else tools[index] = entry;
  return setDefinitionField(graph, promptNodeId, "tools", tools.length ? tools : undefined);
}

export function addToolEntry(graph: Graph, promptNodeId: string, name: string): Graph {
  const node = findNode(graph, promptNodeId);
  if (node?.type !== "prompt") return graph;
  const tools = promptToolEntries(node);
  if (tools.some((entry) => toolEntryName(entry) === name)) return graph;
  return setDefinitionField(graph, promptNodeId, "tools", [...tools, name]);
}

/** Why drawing `connection` makes no sense, or null when it maps to a definition change. */
export function connectionRefusal(graph: Graph, connection: DrawnConnection): string | null {
  const source = findNode(graph, connection.source);
  const target = findNode(graph, connection.target);
  if (!source || !target) return "Drop the connection on another node.";
  if (source.id === target.id) return "A node cannot connect to itself.";
  if (source.type === "note" || target.type === "note") return "Notes do not connect to anything.";
  if (!isDefinitionNode(target) || !definitionName(target)) return "Name the target before connecting to it.";
  switch (source.type) {
    case "agent":
      return target.type === "prompt" ? null : "An agent's side runs a prompt: connect a side to a prompt.";
    case "prompt":
      return null;
    case "model":
      return target.type === "model" ? null : "A model can only fall back to another model.";
    case "tool":
      return `A tool calls nothing: connect a prompt to the tool instead (tool → ${target.type} is not possible).`;
  }
}

/** Applies a drawn connection to the definitions; returns the document unchanged when it is refused. */
export function connect(graph: Graph, connection: DrawnConnection): Graph {
  if (connectionRefusal(graph, connection) !== null) return graph;
  const source = findNode(graph, connection.source) as DefinitionNode;
  const target = findNode(graph, connection.target) as DefinitionNode;
  const targetName = definitionName(target);
  if (source.type === "agent") {
    const side: AgentSideKey = connection.sourceHandle === "sideB" ? "sideB" : "sideA";
    return setSideField(graph, source.id, side, "prompt", targetName);
  }
  if (source.type === "model") {
    const fallbacks = Array.isArray(source.data.definition.fallbacks) ? source.data.definition.fallbacks : [];
    if (fallbacks.includes(targetName)) return graph;
    return setDefinitionField(graph, source.id, "fallbacks", [...fallbacks, targetName]);
  }
  if (target.type === "model") return setDefinitionField(graph, source.id, "model", targetName);
  return addToolEntry(graph, source.id, targetName);
}

/** Removes the reference a derived edge stands for. */
export function disconnect(graph: Graph, edge: GraphEdge): Graph {
  const source = findNode(graph, edge.source);
  if (!source || !isDefinitionNode(source)) return graph;
  switch (edge.kind) {
    case "side":
      return setSideField(graph, source.id, edge.sourceHandle ?? "sideA", "prompt", "");
    case "model":
      return setDefinitionField(graph, source.id, "model", "");
    case "tool":
    case "subprompt":
    case "subagent":
    case "handoff":
      return edge.toolIndex === undefined ? graph : setToolEntry(graph, source.id, edge.toolIndex, undefined);
    default:
      return graph;
  }
}

function asDefinition(value: unknown): Definition | undefined {
  return value && typeof value === "object" && !Array.isArray(value) ? (value as Definition) : undefined;
}

function withField(definition: Definition, field: string, value: unknown): Definition {
  const next = { ...definition };
  if (value === undefined) delete next[field];
  else next[field] = value;
  return next;
}

/**
 * Renames a definition and, when the rename is unambiguous (the old name was this node's alone and
 * the new one is free), every reference to it, so drawn edges follow the node.
 */
export function renameDefinition(graph: Graph, nodeId: string, name: string): Graph {
  const node = findNode(graph, nodeId);
  if (!node || !isDefinitionNode(node)) return graph;
  const oldName = definitionName(node);
  const renamed = setDefinitionField(graph, nodeId, "name", name);
  const others = graph.nodes.filter((other) => other.id !== nodeId && isDefinitionNode(other));
  const names = new Set(others.map((other) => definitionName(other as DefinitionNode)));
  if (!oldName || !name || names.has(oldName) || names.has(name)) return renamed;
  return {
    ...renamed,
    nodes: renamed.nodes.map((other) => renameReferences(other, node.type, oldName, name)),
  };
}

function renameReferences(node: GraphNode, kind: DefinitionNodeKind, from: string, to: string): GraphNode {
  if (!isDefinitionNode(node)) return node;
  const definition = { ...node.data.definition };
  const rename = (value: unknown) => (value === from ? to : value);
  if (node.type === "agent" && kind === "prompt") {
    for (const side of SIDE_HANDLES) {
      const current = asDefinition(definition[side]);
      if (current) definition[side] = { ...current, prompt: rename(current.prompt) };
    }
  }
  if (node.type === "prompt") {
    if (kind === "model") definition.model = rename(definition.model);
    if (kind !== "model" && Array.isArray(definition.tools)) {
      definition.tools = definition.tools.map((entry) => {
        const entryObject = asDefinition(entry);
        return entryObject ? { ...entryObject, name: rename(entryObject.name) } : rename(entry);
      });
    }
    if (kind === "prompt" && Array.isArray(definition.prompt)) {
      definition.prompt = definition.prompt.map((part) => {
        const include = asDefinition(part);
        return include?.type === "include" ? { ...include, prompt: rename(include.prompt) } : part;
      });
    }
  }
  if (node.type === "model" && kind === "model" && Array.isArray(definition.fallbacks)) {
    definition.fallbacks = definition.fallbacks.map(rename);
  }
  return { ...node, data: { definition } } as GraphNode;
}
