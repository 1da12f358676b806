"use client";
// What every inspector needs for one node: its definition, field errors from the live compile and
// setters that record one undo step per field being typed in.
import type { Graph } from "@/lib/graph";
import { fieldMessages } from "@/lib/studio/diagnostic-targets";
import {
  type AgentSideKey,
  type Definition,
  findNode,
  setDefinitionField,
  setSideField,
} from "@/lib/studio/document-edits";
import { useStudioStore } from "./StudioStoreContext";
import { useCompiled } from "./useCompiled";

/** Empty text and `false`-by-default flags are left out of the definition rather than stored. */
export const orUndefined = <Value>(value: Value): Value | undefined =>
  value === "" || value === false ? undefined : value;

export function useNodeEditor(nodeId: string) {
  const store = useStudioStore();
  const { graph, diagnostics } = useCompiled();
  const node = findNode(graph, nodeId);
  const definition: Definition = node && node.type !== "note" ? node.data.definition : {};
  const edit = (change: (document: Graph) => Graph, key: string) =>
    store.getState().edit(change, `${nodeId}:${key}`);
  return {
    graph,
    definition,
    errorsAt: (path: string) => fieldMessages(diagnostics, nodeId, path),
    edit,
    setField: (field: string, value: unknown) =>
      edit((document) => setDefinitionField(document, nodeId, field, value), field),
    setSideField: (side: AgentSideKey, field: string, value: unknown) =>
      edit((document) => setSideField(document, nodeId, side, field, value), `${side}.${field}`),
  };
}

export type NodeEditor = ReturnType<typeof useNodeEditor>;

export function text(value: unknown): string {
  return typeof value === "string" ? value : "";
}

export function whole(value: unknown): number | undefined {
  return typeof value === "number" ? value : undefined;
}

/** Names of the definitions of one kind, for reference pickers ("" = none). */
export function nameOptions(graph: Graph, kind: "prompt" | "model", none: string) {
  const names = graph.nodes.flatMap((node) => (node.type === kind ? [text(node.data.definition.name)] : []));
  return [{ value: "", label: none }, ...names.filter(Boolean).map((name) => ({ value: name, label: name }))];
}
