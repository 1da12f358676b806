// compileGraph(graph) → { bundle, diagnostics }: gathers the definitions held by the nodes into a
// Standard Agents bundle, validates it, and pins every diagnostic to the node (and, where one is
// drawn, the edge) that causes it. Pure and fast: it runs on every canvas change.
import { type Bundle, type Diagnostic, parseBundle } from "@/lib/standard";
import { type DefinitionNodeKind, type Graph, isDefinitionNode } from "./document";
import { deriveEdges, fallbackEdgeId, includeEdgeId, modelEdgeId, sideEdgeId, toolEdgeId } from "./edges";

export type GraphDiagnostic = Diagnostic & { node_id?: string; edge_id?: string };

export interface CompileResult {
  /** The validated bundle when there are no errors; otherwise the definitions as drawn. */
  bundle: Bundle;
  diagnostics: GraphDiagnostic[];
  valid: boolean;
}

type BundleKey = "agents" | "prompts" | "models" | "tools";

const BUNDLE_KEY: Record<DefinitionNodeKind, BundleKey> = {
  agent: "agents",
  prompt: "prompts",
  model: "models",
  tool: "tools",
};

export function compileGraph(graph: Graph): CompileResult {
  const raw = {
    agents: [] as unknown[],
    prompts: [] as unknown[],
    models: [] as unknown[],
    tools: [] as unknown[],
  };
  const nodeIdAt = new Map<string, string>(); // "prompts[3]" → node id
  for (const node of graph.nodes) {
    if (!isDefinitionNode(node)) continue;
    const key = BUNDLE_KEY[node.type];
    nodeIdAt.set(`${key}[${raw[key].length}]`, node.id);
    raw[key].push(node.data.definition);
  }
  const parsed = parseBundle(raw);
  const edgeIds = new Set(deriveEdges(graph).map((edge) => edge.id));
  const diagnostics = parsed.diagnostics.map((diagnostic) => locate(diagnostic, nodeIdAt, edgeIds));
  const bundle = parsed.bundle ?? (raw as unknown as Bundle);
  return { bundle, diagnostics, valid: parsed.ok };
}

const PATH_HEAD = /^(agents|prompts|models|tools)\[(\d+)\](.*)$/;

function locate(
  diagnostic: Diagnostic,
  nodeIdAt: Map<string, string>,
  edgeIds: Set<string>,
): GraphDiagnostic {
  const match = PATH_HEAD.exec(diagnostic.path);
  if (!match) return diagnostic;
  const [, key, position, rest = ""] = match;
  const nodeId = nodeIdAt.get(`${key}[${position}]`);
  if (!nodeId) return diagnostic;
  const edgeId = edgeFor(key as BundleKey, nodeId, rest);
  return edgeId && edgeIds.has(edgeId)
    ? { ...diagnostic, node_id: nodeId, edge_id: edgeId }
    : { ...diagnostic, node_id: nodeId };
}

/** Which derived edge a diagnostic path below a node refers to, if any. */
const EDGE_PATTERNS: {
  key: BundleKey;
  pattern: RegExp;
  edgeId: (nodeId: string, match: RegExpExecArray) => string;
}[] = [
  {
    key: "agents",
    pattern: /^\.(sideA|sideB)\.prompt\b/,
    edgeId: (id, m) => sideEdgeId(id, m[1] as "sideA" | "sideB"),
  },
  { key: "prompts", pattern: /^\.tools\[(\d+)\]/, edgeId: (id, m) => toolEdgeId(id, Number(m[1])) },
  { key: "prompts", pattern: /^\.model\b/, edgeId: (id) => modelEdgeId(id) },
  { key: "prompts", pattern: /^\.prompt\[(\d+)\]/, edgeId: (id, m) => includeEdgeId(id, Number(m[1])) },
  { key: "models", pattern: /^\.fallbacks\[(\d+)\]/, edgeId: (id, m) => fallbackEdgeId(id, Number(m[1])) },
];

function edgeFor(key: BundleKey, nodeId: string, rest: string): string | undefined {
  for (const candidate of EDGE_PATTERNS) {
    if (candidate.key !== key) continue;
    const match = candidate.pattern.exec(rest);
    if (match) return candidate.edgeId(nodeId, match);
  }
  return undefined;
}
