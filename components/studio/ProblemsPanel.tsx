"use client";
// Every diagnostic of the live compile, code that cannot be read, inspector text that is not applied
// and models this server cannot call; clicking one selects its node (or edge) and brings it into view.
// Long names are cut with an ellipsis (in full on hover) and long messages wrap, so each row keeps its
// severity · owner · message layout in a narrow panel. A diagnostic with a certain fix
// (lib/studio/diagnostic-fixes) has a button that applies it as one undo step.
import { useReactFlow } from "@xyflow/react";
import { useMemo } from "react";
import { definitionName, type GraphDiagnostic, isDefinitionNode } from "@/lib/graph";
import { diagnosticFix } from "@/lib/studio/diagnostic-fixes";
import { findNode } from "@/lib/studio/document-edits";
import type { CodeProblem } from "@/lib/studio/studio-store";
import { type UnappliedField, unappliedFieldsOn } from "@/lib/studio/unapplied-fields";
import { useStudio, useStudioStore } from "./StudioStoreContext";
import { useCompiled } from "./useCompiled";
import { useProviderWarnings } from "./useProviderWarnings";

export interface StudioProblems {
  diagnostics: GraphDiagnostic[];
  codeProblem: CodeProblem | null;
  unappliedFields: readonly UnappliedField[];
  count: number;
}

/** Inspector text that does not parse, of the nodes and edges still on the canvas (a deleted node drops its own). */
export function useUnappliedFields(): readonly UnappliedField[] {
  const { graph, edges } = useCompiled();
  const stored = useStudio((state) => state.unappliedFields);
  return useMemo(() => {
    if (stored.length === 0) return stored;
    const itemIds = new Set([...graph.nodes.map((node) => node.id), ...edges.map((edge) => edge.id)]);
    return unappliedFieldsOn(stored, itemIds);
  }, [stored, graph, edges]);
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
  const unappliedFields = useUnappliedFields();
  return {
    diagnostics,
    codeProblem,
    unappliedFields,
    count: diagnostics.length + (codeProblem ? 1 : 0) + unappliedFields.length,
  };
}

const ROW = "flex w-full flex-wrap gap-x-2 rounded px-2 py-0.5 text-left";
const OWNER = "min-w-0 max-w-[60%] truncate font-medium";
const MESSAGE = "min-w-48 flex-1 wrap-anywhere";

export function ProblemsPanel() {
  const store = useStudioStore();
  const flow = useReactFlow();
  const { graph, edges } = useCompiled();
  const { diagnostics, codeProblem, unappliedFields, count } = useStudioProblems();
  const revealNode = (nodeId: string) => {
    store.getState().select({ kind: "node", id: nodeId });
    void flow.fitView({ nodes: [{ id: nodeId }], duration: 200, maxZoom: 1.2 });
  };
  const revealItem = (itemId: string) => {
    const edge = edges.find((candidate) => candidate.id === itemId);
    if (!edge) {
      revealNode(itemId);
      return;
    }
    store.getState().select({ kind: "edge", id: itemId });
    void flow.fitView({ nodes: [{ id: edge.source }, { id: edge.target }], duration: 200, maxZoom: 1.2 });
  };
  const nodeOwner = (nodeId: string | undefined) => {
    const node = nodeId ? findNode(graph, nodeId) : undefined;
    return node && isDefinitionNode(node) ? `${node.type} ${definitionName(node) || "(unnamed)"}` : "bundle";
  };
  const itemOwner = (itemId: string) => {
    const edge = edges.find((candidate) => candidate.id === itemId);
    return edge ? `edge ${nodeOwner(edge.source)} → ${nodeOwner(edge.target)}` : nodeOwner(itemId);
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
          {unappliedFields.map((field) => {
            const owner = `${itemOwner(field.itemId)} · ${field.label}`;
            return (
              <li key={field.key} data-testid="unapplied-field">
                <button
                  type="button"
                  onClick={() => revealItem(field.itemId)}
                  className={`${ROW} hover:bg-surface-muted`}
                >
                  <span className="shrink-0 text-danger">error</span>
                  <span className={OWNER} title={owner}>
                    {owner}
                  </span>
                  <span className={MESSAGE}>Not applied, so Save does not store it: {field.message}</span>
                </button>
              </li>
            );
          })}
          {diagnostics.map((diagnostic) => {
            const owner = nodeOwner(diagnostic.node_id);
            const fix = diagnosticFix(graph, diagnostic);
            return (
              <li
                key={`${diagnostic.path}|${diagnostic.code}|${diagnostic.message}`}
                data-severity={diagnostic.severity}
                className="flex flex-col items-start"
              >
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
                {fix ? (
                  <button
                    type="button"
                    className="mb-1 ml-2 rounded border border-border bg-surface px-2 py-0.5 font-medium hover:bg-surface-muted"
                    onClick={() => {
                      store.getState().edit(fix.apply);
                      store.getState().setStatus({ tone: "info", text: fix.done });
                    }}
                  >
                    {fix.label}
                  </button>
                ) : null}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
