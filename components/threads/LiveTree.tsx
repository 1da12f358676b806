"use client";
// The live tree of a root thread: every known thread with its status, agent, instance name, subagent
// markers from the parent's registry, rolled-up usage and time running. Selecting a row picks the
// thread the transcript shows. Keyboard: arrow keys move the selection.
import { type KeyboardEvent, useMemo } from "react";
import {
  type LiveState,
  type RegistryEntry,
  selectRegistry,
  selectSubtreeUsage,
  selectTimeRunning,
  selectTreeRows,
  type TreeRow,
} from "@/lib/live";
import { formatCost, formatDuration, formatTokens } from "./format";
import { StatusBadge } from "./StatusBadge";
import { useNowMicroseconds } from "./useLiveThread";

const ALL_EXPANDED = { defaultExpanded: true, toggled: new Set<string>() };

function registryEntryOf(state: LiveState, row: TreeRow): RegistryEntry | undefined {
  const parentId = row.thread.parent_id;
  if (!parentId) return undefined;
  return selectRegistry(state, parentId).find((entry) => entry.reference === row.id);
}

export function LiveTree({
  state,
  selectedId,
  onSelect,
}: {
  state: LiveState;
  selectedId: string;
  onSelect: (threadId: string) => void;
}) {
  const rows = useMemo(() => selectTreeRows(state, ALL_EXPANDED), [state]);
  const anyActive = rows.some((row) => row.thread.status === "queued" || row.thread.status === "running");
  const now = useNowMicroseconds(anyActive);

  function moveSelection(event: KeyboardEvent) {
    const index = rows.findIndex((row) => row.id === selectedId);
    const next =
      event.key === "ArrowDown" ? rows[index + 1] : event.key === "ArrowUp" ? rows[index - 1] : undefined;
    if (!next) return;
    event.preventDefault();
    onSelect(next.id);
    // Focus follows the selection so the keyboard keeps working from the new row.
    event.currentTarget.querySelector<HTMLElement>(`[data-thread-id="${next.id}"]`)?.focus();
  }

  if (rows.length === 0) return <p className="px-3 py-2 text-muted">Waiting for the thread…</p>;
  return (
    <div role="tree" aria-label="Threads" className="flex flex-col gap-0.5 p-1" onKeyDown={moveSelection}>
      {rows.map((row) => (
        <TreeItem
          key={row.id}
          row={row}
          entry={registryEntryOf(state, row)}
          usage={selectSubtreeUsage(state, row.id)}
          timeRunning={selectTimeRunning(state, row.id, now)}
          selected={row.id === selectedId}
          onSelect={onSelect}
        />
      ))}
    </div>
  );
}

function TreeItem({
  row,
  entry,
  usage,
  timeRunning,
  selected,
  onSelect,
}: {
  row: TreeRow;
  entry: RegistryEntry | undefined;
  usage: { input_tokens: number; output_tokens: number; cost_usd: number };
  timeRunning: number | null;
  selected: boolean;
  onSelect: (threadId: string) => void;
}) {
  const { thread } = row;
  const label = `${thread.name ?? thread.agent_id} (${thread.agent_id}), ${thread.status}`;
  // A status update (sessionStatus, setStatus) describes work in progress: an ended thread shows none.
  const ended = ["completed", "failed", "stopped", "terminated"].includes(thread.status);
  const statusText = ended
    ? null
    : entry?.status && entry.status !== thread.status
      ? entry.status
      : thread.status_text;
  return (
    <div
      role="treeitem"
      aria-selected={selected}
      aria-level={row.depth + 1}
      aria-label={label}
      data-thread-id={thread.id}
      data-status={thread.status}
      tabIndex={selected ? 0 : -1}
      onClick={() => onSelect(thread.id)}
      onKeyDown={(event) => {
        if (event.key === "Enter" || event.key === " ") {
          event.preventDefault();
          onSelect(thread.id);
        }
      }}
      style={{ paddingLeft: `${0.5 + row.depth * 1.25}rem` }}
      className={`cursor-pointer rounded-md py-1.5 pr-2 outline-none focus-visible:ring-2 focus-visible:ring-accent ${
        selected ? "bg-surface-muted" : "hover:bg-surface-muted/60"
      }`}
    >
      <div className="flex items-center gap-2">
        <StatusBadge status={thread.status} />
        <span className="truncate font-mono text-sm">{thread.agent_id}</span>
        {thread.name ? <span className="truncate text-sm text-muted">“{thread.name}”</span> : null}
        {entry ? (
          <span className="ml-auto flex gap-1 text-[10px] uppercase tracking-wide text-muted">
            <span className="rounded border border-border px-1">
              {entry.blocking ? "blocking" : "non-blocking"}
            </span>
            {entry.resumable ? <span className="rounded border border-border px-1">resumable</span> : null}
          </span>
        ) : null}
      </div>
      <div className="flex gap-3 text-xs text-muted">
        <span title="Tokens in / out, this thread and its descendants">
          {formatTokens(usage.input_tokens)} in · {formatTokens(usage.output_tokens)} out
        </span>
        <span title="Cost, this thread and its descendants">{formatCost(usage.cost_usd)}</span>
        {timeRunning !== null ? <span title="Time running">{formatDuration(timeRunning)}</span> : null}
        {statusText ? (
          <span className="truncate italic" title="Status reported by the subagent">
            {statusText}
          </span>
        ) : null}
      </div>
    </div>
  );
}
