"use client";
// The canvas node components, one per node kind, all built from the same card: a kind colour and
// icon, the name, and the fields that matter (lib/studio/card-fields.ts). Sizes come from
// lib/graph/card-geometry.ts, which the auto layout packs, so laid-out cards never overlap. They
// only render: every edit goes through the store.
import { Handle, type NodeProps, Position, type ReactFlowState, useStoreApi } from "@xyflow/react";
import { type CSSProperties, type ReactNode, startTransition, useEffect, useState } from "react";
import { CANVAS_FAR_ZOOM, cardSize, type GraphNode, sideRowCentre } from "@/lib/graph";
import { cardFields, describeSide, type SideSummary } from "@/lib/studio/card-fields";
import { describeNodeActivity, INACTIVE, type NodeActivity } from "@/lib/studio/run-activity";
import type { StudioFlowNode } from "./flow-elements";
import { NodeIcon } from "./node-icons";
import { RunOverlayBadge } from "./RunOverlayBadge";

type Kind = GraphNode["type"];

const KIND_LABEL: Record<Kind, string> = {
  agent: "Agent",
  prompt: "Prompt",
  tool: "Tool",
  model: "Model",
  note: "Note",
};

function kindStyle(kind: Kind): CSSProperties {
  return { "--kind": `var(--kind-${kind})` } as CSSProperties;
}

/**
 * Whether the card renders its text. A card that comes into view while the canvas is zoomed far out
 * (a culled 300-node canvas being panned) renders without it: the text would be hidden there anyway
 * (globals.css, .studio-canvas-far), and a card of a few elements mounts in a fraction of the time,
 * which is most of the costliest frames of a zoomed-out pan (benchmark 11). Once the view zooms back
 * in, the text comes as a transition (React renders it in slices between frames, so cards crossing
 * the threshold together never make one long task). A card mounted with its text keeps it, so
 * zooming out re-renders nothing.
 */
function useCardText(): boolean {
  const flowStore = useStoreApi();
  const [withText, setWithText] = useState(() => flowStore.getState().transform[2] >= CANVAS_FAR_ZOOM);
  useEffect(() => {
    if (withText) return;
    const upgrade = (state: ReactFlowState) => {
      if (state.transform[2] >= CANVAS_FAR_ZOOM) startTransition(() => setWithText(true));
    };
    upgrade(flowStore.getState());
    return flowStore.subscribe(upgrade);
  }, [withText, flowStore]);
  return withText;
}

function ActivityBadge({ activity }: { activity: NodeActivity }) {
  return (
    <span
      data-testid="node-activity"
      title={describeNodeActivity(activity)}
      className="flex shrink-0 items-center gap-1 rounded-full px-1.5 text-[12px] leading-[18px] font-semibold text-white"
      style={{ backgroundColor: "var(--status-running)" }}
    >
      <span aria-hidden className="size-1.5 animate-pulse rounded-full bg-white" />
      <span aria-hidden>
        {activity.running}
        {activity.queued > 0 ? ` +${activity.queued}` : ""}
      </span>
      <span className="sr-only">{describeNodeActivity(activity)}</span>
    </span>
  );
}

function NodeCard({
  node,
  errorCount,
  warningCount,
  selected,
  activity = INACTIVE,
  tag,
  tooltip,
  children,
  target = true,
  source = true,
  withText = true,
}: {
  node: GraphNode;
  errorCount: number;
  /** Warnings only (no error): the card's border and count take the warning colour, not red. */
  warningCount: number;
  selected: boolean;
  /** Threads running it now: the card glows in the running colour and counts them. */
  activity?: NodeActivity;
  tag?: string;
  tooltip: string;
  children: ReactNode;
  target?: boolean;
  source?: boolean;
  /** False: the header keeps its colour and tooltip but renders no icon, name or tag (useCardText). */
  withText?: boolean;
}) {
  const kind = node.type;
  const title = node.type === "note" ? "" : String(node.data.definition.name ?? "");
  const size = cardSize(node);
  const state =
    errorCount > 0
      ? "studio-card-error"
      : selected
        ? "studio-card-selected"
        : warningCount > 0
          ? "studio-card-warning"
          : "";
  const problemCount = errorCount > 0 ? errorCount : warningCount;
  const problemWord = errorCount > 0 ? "problem" : "warning";
  return (
    <div
      data-testid="studio-node"
      data-kind={kind}
      data-errors={errorCount}
      data-warnings={warningCount}
      data-active={activity.active}
      className={`studio-card ${state} ${activity.active ? "studio-node-active" : ""}`}
      style={{ ...kindStyle(kind), width: size.width, height: size.height }}
    >
      {target ? (
        <Handle
          type="target"
          position={Position.Left}
          className="studio-handle"
          title={`Connect into ${title || KIND_LABEL[kind].toLowerCase()}`}
        />
      ) : null}
      <div className="studio-card-header" title={tooltip}>
        {withText ? (
          <>
            <span className="studio-card-icon" role="img" aria-label={KIND_LABEL[kind]}>
              <NodeIcon kind={kind} className="size-3.5" />
            </span>
            <span
              data-testid="node-name"
              className={`min-w-0 flex-1 truncate font-semibold ${title ? "" : "italic text-muted"}`}
            >
              {title || "unnamed"}
            </span>
            {tag ? <span className="studio-card-tag">{tag}</span> : null}
          </>
        ) : null}
      </div>
      {activity.active || problemCount > 0 ? (
        // On the card's top edge, not in the header: a count never takes the name's room.
        <div className="studio-card-badges">
          {activity.active ? <ActivityBadge activity={activity} /> : null}
          {problemCount > 0 ? (
            <span
              role="status"
              data-tone={errorCount > 0 ? "error" : "warning"}
              aria-label={`${problemCount} ${problemWord}${problemCount > 1 ? "s" : ""}`}
              title={`${problemCount} ${problemWord}${problemCount > 1 ? "s" : ""}: see Problems`}
              className={`studio-card-count shrink-0 rounded-full px-1.5 text-[12px] leading-[18px] font-semibold ${
                errorCount > 0 ? "bg-danger text-white" : "studio-card-count-warning"
              }`}
            >
              {problemCount}
            </span>
          ) : null}
        </div>
      ) : null}
      <div className="studio-card-body">{children}</div>
      {source ? (
        <Handle
          type="source"
          position={Position.Right}
          className="studio-handle"
          title={`Connect ${title || KIND_LABEL[kind].toLowerCase()} to what it uses`}
        />
      ) : null}
    </div>
  );
}

function SideRow({ side, index, withText }: { side: SideSummary; index: 0 | 1; withText: boolean }) {
  const handle = (
    <Handle
      type="source"
      id={side.handle}
      position={Position.Right}
      className="studio-handle studio-handle-side"
      style={{ top: sideRowCentre(index) }}
      title={`Side ${side.letter}: drag to its prompt`}
    />
  );
  if (!withText) {
    return (
      <div data-testid={`side-${side.handle}`} className="studio-side-row" title={describeSide(side)}>
        {handle}
      </div>
    );
  }
  return (
    <div data-testid={`side-${side.handle}`} className="studio-side-row" title={describeSide(side)}>
      <span className="studio-side-letter">
        <span className="sr-only">Side </span>
        {side.letter}
      </span>
      {side.human ? (
        <span className="flex min-w-0 items-center gap-1 text-muted">
          <NodeIcon kind="human" className="size-3.5 shrink-0" />
          <span className="truncate">human</span>
        </span>
      ) : (
        <span className="min-w-0 truncate">
          {side.prompt || <span className="italic text-muted">no prompt</span>}
          {side.label ? <span className="text-muted"> · {side.label}</span> : null}
        </span>
      )}
      {handle}
    </div>
  );
}

export function AgentNode({ data, selected }: NodeProps<StudioFlowNode>) {
  const withText = useCardText();
  const node = data.graphNode;
  if (node.type !== "agent") return null;
  const fields = cardFields(node);
  return (
    <>
      <RunOverlayBadge agent={String(node.data.definition.name ?? "")} overlay={data.run} />
      <NodeCard
        node={node}
        tag={fields.tag}
        tooltip={fields.tooltip}
        errorCount={data.errorCount}
        warningCount={data.warningCount}
        selected={selected}
        activity={data.activity}
        source={false}
        withText={withText}
      >
        <SideRow side={fields.sides[0]!} index={0} withText={withText} />
        <SideRow side={fields.sides[1]!} index={1} withText={withText} />
      </NodeCard>
    </>
  );
}

function DetailRow({ children }: { children: ReactNode }) {
  return <div className="studio-card-detail truncate text-muted">{children}</div>;
}

export function PromptNode({ data, selected }: NodeProps<StudioFlowNode>) {
  const withText = useCardText();
  const node = data.graphNode;
  if (node.type !== "prompt") return null;
  const fields = cardFields(node);
  return (
    <NodeCard
      node={node}
      tooltip={fields.tooltip}
      errorCount={data.errorCount}
      warningCount={data.warningCount}
      selected={selected}
      activity={data.activity}
      withText={withText}
    >
      {withText ? (
        <div className="studio-card-detail flex items-center gap-1.5 text-muted">
          <NodeIcon kind="model" className="size-3.5 shrink-0" />
          <span className={`min-w-0 truncate ${fields.detail ? "" : "italic"}`}>
            {fields.detail || "no model"}
          </span>
          <span className="ml-auto shrink-0">{fields.meta}</span>
        </div>
      ) : null}
    </NodeCard>
  );
}

export function ToolNode({ data, selected }: NodeProps<StudioFlowNode>) {
  const withText = useCardText();
  const node = data.graphNode;
  if (node.type !== "tool") return null;
  const fields = cardFields(node);
  return (
    <NodeCard
      node={node}
      tag={fields.tag}
      tooltip={fields.tooltip}
      errorCount={data.errorCount}
      warningCount={data.warningCount}
      selected={selected}
      withText={withText}
    >
      {withText ? <DetailRow>{fields.detail}</DetailRow> : null}
    </NodeCard>
  );
}

export function ModelNode({ data, selected }: NodeProps<StudioFlowNode>) {
  const withText = useCardText();
  const node = data.graphNode;
  if (node.type !== "model") return null;
  const fields = cardFields(node);
  return (
    <NodeCard
      node={node}
      tooltip={fields.tooltip}
      errorCount={data.errorCount}
      warningCount={data.warningCount}
      selected={selected}
      withText={withText}
    >
      {withText ? <DetailRow>{fields.detail}</DetailRow> : null}
    </NodeCard>
  );
}

export function NoteNode({ data, selected }: NodeProps<StudioFlowNode>) {
  const node = data.graphNode;
  if (node.type !== "note") return null;
  const size = cardSize(node);
  return (
    <div
      data-testid="studio-node"
      data-kind="note"
      title={node.data.text}
      className={`studio-note ${selected ? "studio-card-selected" : ""}`}
      style={{ ...kindStyle("note"), width: size.width, height: size.height }}
    >
      {node.data.text || <span className="italic">Empty note</span>}
    </div>
  );
}

export const STUDIO_NODE_TYPES = {
  agent: AgentNode,
  prompt: PromptNode,
  tool: ToolNode,
  model: ModelNode,
  note: NoteNode,
};
