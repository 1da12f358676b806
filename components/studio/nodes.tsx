"use client";
// The canvas node components, one per node kind, all built from the same card. They only render:
// every edit goes through the store.
import { Handle, type NodeProps, Position } from "@xyflow/react";
import type { ReactNode } from "react";
import { describeNodeActivity, INACTIVE, type NodeActivity } from "@/lib/studio/run-activity";
import type { StudioFlowNode } from "./flow-elements";
import { RunOverlayBadge } from "./RunOverlayBadge";

type Definition = Record<string, unknown>;

function text(value: unknown): string {
  return typeof value === "string" ? value : "";
}

function NodeCard({
  kind,
  title,
  errorCount,
  selected,
  activity = INACTIVE,
  children,
  target = true,
  source = true,
}: {
  kind: string;
  title: string;
  errorCount: number;
  selected: boolean;
  /** Threads running it now: the card glows in the running colour and counts them. */
  activity?: NodeActivity;
  children?: ReactNode;
  target?: boolean;
  source?: boolean;
}) {
  const border = errorCount > 0 ? "border-danger" : selected ? "border-accent" : "border-border";
  return (
    <div
      data-testid="studio-node"
      data-kind={kind}
      data-errors={errorCount}
      data-active={activity.active}
      className={`relative min-w-44 max-w-64 rounded-md border-2 bg-surface text-xs shadow-sm ${border} ${
        activity.active ? "studio-node-active" : ""
      }`}
    >
      {target ? <Handle type="target" position={Position.Left} /> : null}
      <div className="flex items-center gap-2 border-b border-border px-2 py-1">
        <span className="text-[10px] uppercase tracking-wide text-muted">{kind}</span>
        <span className="truncate font-medium">{title || "(unnamed)"}</span>
        {activity.active ? (
          <span
            data-testid="node-activity"
            title={describeNodeActivity(activity)}
            className="ml-auto flex shrink-0 items-center gap-1 rounded-full px-1.5 text-[10px] font-semibold text-white"
            style={{ backgroundColor: "var(--status-running)" }}
          >
            <span aria-hidden className="size-1.5 animate-pulse rounded-full bg-white" />
            <span aria-hidden>
              {activity.running}
              {activity.queued > 0 ? ` +${activity.queued}` : ""}
            </span>
            <span className="sr-only">{describeNodeActivity(activity)}</span>
          </span>
        ) : null}
        {errorCount > 0 ? (
          <span
            role="status"
            aria-label={`${errorCount} problem${errorCount > 1 ? "s" : ""}`}
            className={`${activity.active ? "" : "ml-auto "}rounded-full bg-danger px-1.5 text-[10px] font-semibold text-white`}
          >
            {errorCount}
          </span>
        ) : null}
      </div>
      {children ? <div className="flex flex-col gap-1 px-2 py-1.5">{children}</div> : null}
      {source ? <Handle type="source" position={Position.Right} /> : null}
    </div>
  );
}

function SideRow({
  side,
  definition,
  humanSide,
}: {
  side: "sideA" | "sideB";
  definition: Definition;
  humanSide: boolean;
}) {
  const config = definition[side] as Definition | undefined;
  const letter = side === "sideA" ? "A" : "B";
  const prompt = text(config?.prompt);
  return (
    <div className="relative flex items-center gap-1 rounded border border-border bg-surface-muted px-1.5 py-1 pr-3">
      <span className="font-semibold">Side {letter}</span>
      <span className="truncate text-muted">
        {humanSide && !config ? "human" : prompt || "no prompt"}
        {config?.label ? ` · ${text(config.label)}` : ""}
      </span>
      <Handle type="source" id={side} position={Position.Right} aria-label={`Side ${letter} prompt handle`} />
    </div>
  );
}

export function AgentNode({ data, selected }: NodeProps<StudioFlowNode>) {
  const node = data.graphNode;
  if (node.type !== "agent") return null;
  const definition = node.data.definition;
  const type = text(definition.type) || "ai_human";
  return (
    <>
      <RunOverlayBadge agent={text(definition.name)} overlay={data.run} />
      <NodeCard
        kind="agent"
        title={text(definition.name)}
        errorCount={data.errorCount}
        selected={selected}
        activity={data.activity}
        source={false}
      >
        <span className="text-muted">{type}</span>
        <SideRow side="sideA" definition={definition} humanSide={false} />
        <SideRow side="sideB" definition={definition} humanSide={type === "ai_human"} />
      </NodeCard>
    </>
  );
}

export function PromptNode({ data, selected }: NodeProps<StudioFlowNode>) {
  const node = data.graphNode;
  if (node.type !== "prompt") return null;
  const definition = node.data.definition;
  const tools = Array.isArray(definition.tools) ? definition.tools.length : 0;
  return (
    <NodeCard
      kind="prompt"
      title={text(definition.name)}
      errorCount={data.errorCount}
      selected={selected}
      activity={data.activity}
    >
      <span className="text-muted">
        model: {text(definition.model) || "none"} · {tools} tool{tools === 1 ? "" : "s"}
      </span>
    </NodeCard>
  );
}

export function ToolNode({ data, selected }: NodeProps<StudioFlowNode>) {
  const node = data.graphNode;
  if (node.type !== "tool") return null;
  const definition = node.data.definition;
  const detail =
    definition.kind === "builtin"
      ? text(definition.builtin)
      : `${text(definition.method)} ${text(definition.url)}`;
  return (
    <NodeCard kind="tool" title={text(definition.name)} errorCount={data.errorCount} selected={selected}>
      <span className="truncate text-muted">
        {text(definition.kind)} · {detail}
      </span>
    </NodeCard>
  );
}

export function ModelNode({ data, selected }: NodeProps<StudioFlowNode>) {
  const node = data.graphNode;
  if (node.type !== "model") return null;
  const definition = node.data.definition;
  return (
    <NodeCard kind="model" title={text(definition.name)} errorCount={data.errorCount} selected={selected}>
      <span className="truncate text-muted">
        {text(definition.provider)} · {text(definition.model)}
      </span>
    </NodeCard>
  );
}

export function NoteNode({ data, selected }: NodeProps<StudioFlowNode>) {
  const node = data.graphNode;
  if (node.type !== "note") return null;
  return (
    <div
      data-testid="studio-node"
      data-kind="note"
      className={`max-w-64 whitespace-pre-wrap rounded-md border bg-yellow-50 px-2 py-1.5 text-xs text-neutral-800 ${selected ? "border-accent" : "border-yellow-300"}`}
    >
      {node.data.text || "Empty note"}
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
