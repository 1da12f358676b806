"use client";
// Every diagnostic of the live compile, code that cannot be read and models this server cannot call;
// clicking one selects its node and brings it into view.
// Long names are cut with an ellipsis (in full on hover) and long messages wrap, so each row keeps its
// severity · owner · message layout in a narrow panel.
import { useReactFlow } from "@xyflow/react";
import { useMemo } from "react";
import { definitionName, type GraphDiagnostic, isDefinitionNode } from "@/lib/graph";
import { findNode } from "@/lib/studio/document-edits";
import type { CodeProblem } from "@/lib/studio/studio-store";
import { useStudio, useStudioStore } from "./StudioStoreContext";
import { useCompiled } from "./useCompiled";
import { useProviderWarnings } from "./useProviderWarnings";

export interface StudioProblems {
  diagnostics: GraphDiagnostic[];
  codeProblem: CodeProblem | null;
  count: number;
}

/** What Problems lists, and how many: the collapsed panel's bar shows the same count. */
export function useStudioProblems(): StudioProblems {
  const compiled = useCompiled();
  // The compile's own diagnostics, then the server's: models it cannot call.
  const providerWarnings = useProviderWarnings();
  const diagnostics = useMemo(
    () =>
      providerWarnings.length === 0 ? compiled.diagnostics : [...compiled.diagnostics, ...providerWarnings],
    [compiled.diagnostics, providerWarnings],
  );
  const codeProblem = useStudio((state) => state.codeProblem);
  return {
    diagnostics,
    codeProblem,
    count: diagnostics.length + (codeProblem ? 1 : 0),
  };
}

const ROW = "flex w-full flex-wrap gap-x-2 rounded px-2 py-0.5 text-left";
const OWNER = "min-w-0 max-w-[60%] truncate font-medium";
const MESSAGE = "min-w-48 flex-1 wrap-anywhere";

export function ProblemsPanel() {
  const store = useStudioStore();
  const flow = useReactFlow();
  const { graph } = useCompiled();
  const { diagnostics, codeProblem, count } = useStudioProblems();
  const revealNode = (nodeId: string) => {
    store.getState().select({ kind: "node", id: nodeId });
    void flow.fitView({ nodes: [{ id: nodeId }], duration: 200, maxZoom: 1.2 });
  };
  const nodeOwner = (nodeId: string | undefined) => {
    const node = nodeId ? findNode(graph, nodeId) : undefined;
    return node && isDefinitionNode(node) ? `${node.type} ${definitionName(node) || "(unnamed)"}` : "bundle";
  };
  return (
    <section aria-label="Problems" className="flex min-h-0 min-w-0 flex-1 flex-col">
      <h2 className="px-3 py-1 text-xs font-semibold">
        Problems <span className="text-muted">({count})</span>
      </h2>
      {count === 0 ? (
        <p className="px-3 text-xs text-muted">No problems: the canvas compiles to a valid bundle.</p>
      ) : (
        <ul className="min-h-0 flex-1 overflow-y-auto px-1 text-xs">
          {codeProblem ? (
            <li data-testid="code-problem" className={ROW}>
              <span className="shrink-0 text-danger">error</span>
              <span className={OWNER}>code, line {codeProblem.line}</span>
              <span className={MESSAGE}>
                The code cannot be read, so the canvas keeps its last good state: {codeProblem.message}
              </span>
            </li>
          ) : null}
          {diagnostics.map((diagnostic) => {
            const owner = nodeOwner(diagnostic.node_id);
            return (
              <li key={`${diagnostic.path}|${diagnostic.code}|${diagnostic.message}`}>
                <button
                  type="button"
                  onClick={() => {
                    if (diagnostic.node_id) revealNode(diagnostic.node_id);
                  }}
                  className={`${ROW} hover:bg-surface-muted`}
                >
                  <span
                    className={`shrink-0 ${diagnostic.severity === "error" ? "text-danger" : "text-warning"}`}
                  >
                    {diagnostic.severity}
                  </span>
                  <span className={OWNER} title={owner}>
                    {owner}
                  </span>
                  {/* Beside them when the panel is wide, on its own line below when it is narrow. */}
                  <span className={MESSAGE}>{diagnostic.message}</span>
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
