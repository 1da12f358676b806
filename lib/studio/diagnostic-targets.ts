// Where the live compile's diagnostics land in the studio: counts per node and edge (for the red
// decorations) and the messages for one inspector field.
import type { GraphDiagnostic } from "@/lib/graph";

export interface DiagnosticCounts {
  byNode: Map<string, number>;
  byEdge: Map<string, number>;
}

export function countErrors(diagnostics: GraphDiagnostic[]): DiagnosticCounts {
  const byNode = new Map<string, number>();
  const byEdge = new Map<string, number>();
  for (const diagnostic of diagnostics) {
    if (diagnostic.severity !== "error") continue;
    if (diagnostic.node_id) byNode.set(diagnostic.node_id, (byNode.get(diagnostic.node_id) ?? 0) + 1);
    if (diagnostic.edge_id) byEdge.set(diagnostic.edge_id, (byEdge.get(diagnostic.edge_id) ?? 0) + 1);
  }
  return { byNode, byEdge };
}

const DEFINITION_PATH_HEAD = /^(agents|prompts|models|tools)\[\d+\]/;

/** The path of a diagnostic below its definition: `prompts[2].tools[0].blocking` → `.tools[0].blocking`. */
export function pathWithinDefinition(path: string): string {
  return path.replace(DEFINITION_PATH_HEAD, "");
}

/** Messages of the node's diagnostics at `fieldPath` (e.g. `.model`, `.sideA.maxSteps`) or below it. */
export function fieldMessages(diagnostics: GraphDiagnostic[], nodeId: string, fieldPath: string): string[] {
  return diagnostics
    .filter((diagnostic) => {
      if (diagnostic.node_id !== nodeId) return false;
      const rest = pathWithinDefinition(diagnostic.path);
      return rest === fieldPath || rest.startsWith(`${fieldPath}.`) || rest.startsWith(`${fieldPath}[`);
    })
    .map((diagnostic) => diagnostic.message);
}
