"use client";
// The right-hand panel: the editor for whatever is selected (a node, or a subagent edge); for several
// nodes, the align and distribute commands. While the playground is open it shows in the
// playground's panel instead (PlaygroundPanel).
import { memo, type ReactNode, useDeferredValue } from "react";
import { deriveEdges } from "@/lib/graph";
import { findNode } from "@/lib/studio/document-edits";
import { isSelectionEmpty, type StudioSelection, soleSelected } from "@/lib/studio/selection";
import { AgentInspector } from "./AgentInspector";
import { FieldScope } from "./fields";
import { ModelInspector } from "./ModelInspector";
import { NoteInspector } from "./NoteInspector";
import { PromptInspector } from "./PromptInspector";
import { useStudio, useStudioStore } from "./StudioStoreContext";
import { SubagentEdgeInspector } from "./SubagentEdgeInspector";
import { ARRANGE_COMMAND_IDS, type StudioCommandContext, studioCommand } from "./studio-commands";
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

/** Align and distribute buttons for a multi-selection: the same commands as the palette and menu. */
function ArrangeButtons({ context }: { context: StudioCommandContext }) {
  const commands = ARRANGE_COMMAND_IDS.map(studioCommand).filter(
    (command) => !command.available || command.available(context),
  );
  if (commands.length === 0) return null;
  return (
    <section aria-label="Arrange" className="flex flex-col gap-1">
      <h3 className="text-xs font-semibold">Arrange</h3>
      <div className="grid grid-cols-3 gap-1">
        {commands.map((command) => (
          <button
            key={command.id}
            type="button"
            onClick={() => void command.run(context)}
            className={`rounded border border-border px-1.5 py-1 text-xs hover:bg-surface-muted ${
              command.id.startsWith("distribute") ? "col-span-3 text-left" : ""
            }`}
          >
            {command.label}
          </button>
        ))}
      </div>
    </section>
  );
}

/**
 * The inspector follows the selection one render behind: picking up a card paints its selection at
 * once, and the form for it renders after that in an interruptible background render, so the press
 * is not one long task. Until it has, the previous form is disabled (nothing typed lands in it).
 */
function InspectorBody({ context }: { context: StudioCommandContext }) {
  const selection = useStudio((state) => state.selection);
  const shown = useDeferredValue(selection);
  const stale = shown !== selection;
  return (
    <fieldset disabled={stale} aria-busy={stale} className="contents">
      <InspectorContent context={context} selected={shown} />
    </fieldset>
  );
}

const InspectorContent = memo(function InspectorContent({
  context,
  selected,
}: {
  context: StudioCommandContext;
  selected: StudioSelection;
}) {
  const store = useStudioStore();
  const { graph } = useCompiled();
  const selection = soleSelected(selected);
  if (!selection && !isSelectionEmpty(selected)) {
    const nodes = selected.nodeIds.length;
    const edges = selected.edgeIds.length;
    return (
      <>
        <p className="text-xs text-muted">
          {nodes} node{nodes === 1 ? "" : "s"} and {edges} edge{edges === 1 ? "" : "s"} selected: copy,
          duplicate, delete or arrange them together, or select one to edit it.
        </p>
        <ArrangeButtons context={context} />
      </>
    );
  }
  if (!selection) return <p className="text-xs text-muted">Select a node or an edge to edit it.</p>;
  if (selection.kind === "edge") {
    const edge = deriveEdges(graph).find((candidate) => candidate.id === selection.id);
    if (edge?.kind === "subagent")
      return (
        <FieldScope store={store} itemId={edge.id}>
          <SubagentEdgeInspector key={edge.id} edge={edge} />
        </FieldScope>
      );
    if (edge?.kind === "subprompt" || edge?.kind === "tool" || edge?.kind === "handoff")
      return (
        <FieldScope store={store} itemId={edge.id}>
          <ToolEntryEdgeInspector key={edge.id} edge={edge} />
        </FieldScope>
      );
    return <p className="text-xs text-muted">This edge has no settings: edit the nodes it connects.</p>;
  }
  const node = findNode(graph, selection.id);
  if (!node) return <p className="text-xs text-muted">The selected node no longer exists.</p>;
  const NodeInspector = NODE_INSPECTORS[node.type];
  return (
    <FieldScope store={store} itemId={node.id}>
      <NodeInspector key={node.id} nodeId={node.id} />
    </FieldScope>
  );
});

/**
 * The inspector: beside the canvas (320 px), or filling the playground's panel (`fill`) with an
 * `action` in its header (the way back to the playground).
 */
export function Inspector({
  context,
  fill = false,
  action,
}: {
  context: StudioCommandContext;
  fill?: boolean;
  action?: ReactNode;
}) {
  return (
    <aside
      aria-label="Inspector"
      data-studio-region={fill ? undefined : "inspector"}
      // Long names and messages wrap inside the panel rather than running off its right edge.
      className={`flex flex-col gap-2 overflow-y-auto bg-surface p-3 wrap-anywhere ${
        fill ? "min-h-0 flex-1" : "w-80 shrink-0 border-l border-border"
      }`}
    >
      <div className="flex items-center gap-2">
        <h2 className="text-sm font-semibold">Inspector</h2>
        {action}
      </div>
      <InspectorBody context={context} />
    </aside>
  );
}
