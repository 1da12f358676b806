// The studio's live compile, shared by every panel: compileGraph, the derived edges and the error
// counts of the document. Moving nodes changes no definition, so a document that differs from the
// last compiled one only in positions and sizes reuses that compile — a drag on a 300-node canvas
// must not compile the bundle on every frame. Pure.
import { type CompileResult, compileGraph, deriveEdges, type Graph, type GraphEdge } from "@/lib/graph";
import { countErrors, type DiagnosticCounts } from "./diagnostic-targets";

export type CompiledDocument = CompileResult & {
  /**
   * The document as of its last definition change: definitions and notes are current, positions
   * may lag behind a drag (read positions from the store's document).
   */
  graph: Graph;
  edges: GraphEdge[];
  counts: DiagnosticCounts;
};

/** True when both documents hold the same nodes in the same order with the same definitions and notes. */
export function sameDefinitions(previous: Graph, next: Graph): boolean {
  if (previous === next) return true;
  if (previous.nodes.length !== next.nodes.length) return false;
  return previous.nodes.every((node, index) => {
    const other = next.nodes[index];
    return (
      other !== undefined && node.id === other.id && node.type === other.type && node.data === other.data
    );
  });
}

/** Compiles `graph`, or returns `previous` when only positions or sizes changed since it was compiled. */
export function compileDocument(graph: Graph, previous?: CompiledDocument): CompiledDocument {
  if (previous && sameDefinitions(previous.graph, graph)) return previous;
  const compiled = compileGraph(graph);
  return { ...compiled, graph, edges: deriveEdges(graph), counts: countErrors(compiled.diagnostics) };
}
