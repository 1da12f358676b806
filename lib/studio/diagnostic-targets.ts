// Where the live compile's diagnostics land in the studio: counts per node and edge (errors for the
// red decorations, warnings for the warning-coloured ones) and the messages for one inspector field.
import type { GraphDiagnostic } from "@/lib/graph";
import type { DiagnosticSeverity } from "@/lib/standard";

export interface DiagnosticCounts {
  /** Errors per node and edge. */
  byNode: Map<string, number>;
  byEdge: Map<string, number>;
  /** Warnings per node and edge. */
  warningsByNode: Map<string, number>;
  warningsByEdge: Map<string, number>;
}

const increment = (counts: Map<string, number>, key: string | undefined) => {
  if (key) counts.set(key, (counts.get(key) ?? 0) + 1);
};

export function countErrors(diagnostics: GraphDiagnostic[]): DiagnosticCounts {
  const counts: DiagnosticCounts = {
    byNode: new Map(),
    byEdge: new Map(),
    warningsByNode: new Map(),
    warningsByEdge: new Map(),
  };
  for (const diagnostic of diagnostics) {
    const error = diagnostic.severity === "error";
    increment(error ? counts.byNode : counts.warningsByNode, diagnostic.node_id);
    increment(error ? counts.byEdge : counts.warningsByEdge, diagnostic.edge_id);
  }
  return counts;
}

const DEFINITION_PATH_HEAD = /^(agents|prompts|models|tools)\[\d+\]/;

/** The path of a diagnostic below its definition: `prompts[2].tools[0].blocking` → `.tools[0].blocking`. */
export function pathWithinDefinition(path: string): string {
  return path.replace(DEFINITION_PATH_HEAD, "");
}

/**
 * Messages of the node's diagnostics of one severity at `fieldPath` (e.g. `.model`, `.sideA.maxSteps`)
 * or below it.
 */
export function fieldMessages(
  diagnostics: GraphDiagnostic[],
  nodeId: string,
  fieldPath: string,
  severity: DiagnosticSeverity = "error",
): string[] {
  return diagnostics
    .filter((diagnostic) => {
      if (diagnostic.node_id !== nodeId || diagnostic.severity !== severity) return false;
      const rest = pathWithinDefinition(diagnostic.path);
      return rest === fieldPath || rest.startsWith(`${fieldPath}.`) || rest.startsWith(`${fieldPath}[`);
    })
    .map((diagnostic) => diagnostic.message);
}
