"use client";
// The right-hand panel: the editor for whatever is selected (a node, or a subagent edge).
import { deriveEdges } from "@/lib/graph";
import { findNode } from "@/lib/studio/document-edits";
import { isSelectionEmpty, soleSelected } from "@/lib/studio/selection";
import { AgentInspector } from "./AgentInspector";
import { ModelInspector } from "./ModelInspector";
import { NoteInspector } from "./NoteInspector";
import { PromptInspector } from "./PromptInspector";
import { useStudio } from "./StudioStoreContext";
import { SubagentEdgeInspector } from "./SubagentEdgeInspector";
import { ToolEntryEdgeInspector } from "./ToolEntryEdgeInspector";
import { ToolInspector } from "./ToolInspector";
import { useCompiled } from "./useCompiled";

const NODE_INSPECTORS = {
  agent: AgentInspector,
  prompt: PromptInspector,
  tool: ToolInspector,
  model: ModelInspector,
  note: NoteInspector,
};

function InspectorBody() {
  const selected = useStudio((state) => state.selection);
  const { graph } = useCompiled();
  const selection = soleSelected(selected);
  if (!selection && !isSelectionEmpty(selected)) {
    const nodes = selected.nodeIds.length;
    const edges = selected.edgeIds.length;
    return (
      <p className="text-xs text-muted">
        {nodes} node{nodes === 1 ? "" : "s"} and {edges} edge{edges === 1 ? "" : "s"} selected: copy,
        duplicate or delete them together, or select one to edit it.
      </p>
    );
  }
  if (!selection) return <p className="text-xs text-muted">Select a node or an edge to edit it.</p>;
  if (selection.kind === "edge") {
    const edge = deriveEdges(graph).find((candidate) => candidate.id === selection.id);
    if (edge?.kind === "subagent") return <SubagentEdgeInspector key={edge.id} edge={edge} />;
    if (edge?.kind === "subprompt" || edge?.kind === "tool" || edge?.kind === "handoff")
      return <ToolEntryEdgeInspector key={edge.id} edge={edge} />;
    return <p className="text-xs text-muted">This edge has no settings: edit the nodes it connects.</p>;
  }
  const node = findNode(graph, selection.id);
  if (!node) return <p className="text-xs text-muted">The selected node no longer exists.</p>;
  const NodeInspector = NODE_INSPECTORS[node.type];
  return <NodeInspector key={node.id} nodeId={node.id} />;
}

export function Inspector() {
  return (
    <aside
      aria-label="Inspector"
      className="flex w-80 shrink-0 flex-col gap-2 overflow-y-auto border-l border-border bg-surface p-3"
    >
      <h2 className="text-sm font-semibold">Inspector</h2>
      <InspectorBody />
    </aside>
  );
}
