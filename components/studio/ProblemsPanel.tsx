"use client";
// Every diagnostic of the live compile, code that cannot be read and models this server cannot call;
// clicking one selects its node and brings it into view.
import { useReactFlow } from "@xyflow/react";
import { useMemo } from "react";
import { definitionName, type GraphDiagnostic, isDefinitionNode } from "@/lib/graph";
import { findNode } from "@/lib/studio/document-edits";
import { useStudio, useStudioStore } from "./StudioStoreContext";
import { useCompiled } from "./useCompiled";
import { useProviderWarnings } from "./useProviderWarnings";

export function ProblemsPanel() {
  const store = useStudioStore();
  const flow = useReactFlow();
  const compiled = useCompiled();
  const { graph } = compiled;
  // The compile's own diagnostics, then the server's: models it cannot call.
  const providerWarnings = useProviderWarnings();
  const diagnostics = useMemo(
    () =>
      providerWarnings.length === 0 ? compiled.diagnostics : [...compiled.diagnostics, ...providerWarnings],
    [compiled.diagnostics, providerWarnings],
  );
  const codeProblem = useStudio((state) => state.codeProblem);
  const count = diagnostics.length + (codeProblem ? 1 : 0);
  const reveal = (diagnostic: GraphDiagnostic) => {
    const nodeId = diagnostic.node_id;
    if (!nodeId) return;
    store.getState().select({ kind: "node", id: nodeId });
    void flow.fitView({ nodes: [{ id: nodeId }], duration: 200, maxZoom: 1.2 });
  };
  const owner = (diagnostic: GraphDiagnostic) => {
    const node = diagnostic.node_id ? findNode(graph, diagnostic.node_id) : undefined;
    return node && isDefinitionNode(node) ? `${node.type} ${definitionName(node) || "(unnamed)"}` : "bundle";
  };
  return (
    <section aria-label="Problems" className="flex min-h-0 flex-1 flex-col">
      <h2 className="px-3 py-1 text-xs font-semibold">
        Problems <span className="text-muted">({count})</span>
      </h2>
      {count === 0 ? (
        <p className="px-3 text-xs text-muted">No problems: the canvas compiles to a valid bundle.</p>
      ) : (
        <ul className="min-h-0 flex-1 overflow-y-auto px-1 text-xs">
          {codeProblem ? (
            <li data-testid="code-problem" className="flex flex-wrap gap-x-2 px-2 py-0.5">
              <span className="text-danger">error</span>
              <span className="min-w-0 break-words font-medium">code, line {codeProblem.line}</span>
              <span className="min-w-48 flex-1 break-words">
                The code cannot be read, so the canvas keeps its last good state: {codeProblem.message}
              </span>
            </li>
          ) : null}
          {diagnostics.map((diagnostic) => (
            <li key={`${diagnostic.path}|${diagnostic.code}|${diagnostic.message}`}>
              <button
                type="button"
                onClick={() => reveal(diagnostic)}
                className="flex w-full flex-wrap gap-x-2 rounded px-2 py-0.5 text-left hover:bg-surface-muted"
              >
                <span className={diagnostic.severity === "error" ? "text-danger" : "text-warning"}>
                  {diagnostic.severity}
                </span>
                <span className="min-w-0 break-words font-medium">{owner(diagnostic)}</span>
                {/* Beside them when the panel is wide, on its own line below when it is narrow. */}
                <span className="min-w-48 flex-1 break-words">{diagnostic.message}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
