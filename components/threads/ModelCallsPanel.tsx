"use client";
// The selected thread's model calls from GET /api/threads/:id/logs, one row each; a row expands to the
// full request and response. Reloads on Refresh and whenever the thread's status changes.
import { useState } from "react";
import type { ApiClient } from "@/lib/api/client";
import { formatCost, formatTokens } from "./format";
import { formatMilliseconds, formatSide } from "./inspect-format";
import type { SideLabels } from "./MessageRow";
import { ModelCallDetail } from "./ModelCallDetail";
import { PanelToolbar } from "./PanelToolbar";
import { useInspectorData } from "./useInspectorData";

export function ModelCallsPanel({
  loadLogs,
  threadId,
  status,
  sideLabels,
}: {
  loadLogs: ApiClient["threads"]["logs"];
  threadId: string;
  status: string;
  sideLabels: SideLabels | null;
}) {
  const { data, loading, error, refresh } = useInspectorData(loadLogs, threadId, status);
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const calls = data?.model_calls ?? [];

  function toggle(id: string) {
    setOpen((previous) => {
      const next = new Set(previous);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  }

  return (
    <section aria-label="Model calls" className="flex min-h-0 flex-1 flex-col">
      <PanelToolbar
        summary={`${calls.length} model call${calls.length === 1 ? "" : "s"}`}
        loading={loading}
        error={error}
        onRefresh={refresh}
      />
      <div
        aria-hidden
        className="grid grid-cols-[6rem_1fr_1fr_6rem_5rem_5rem] gap-3 px-6 pt-2 text-xs text-muted"
      >
        <span>Side</span>
        <span>Model</span>
        <span>Answered by</span>
        <span>Tokens in / out</span>
        <span>Cost</span>
        <span>Latency</span>
      </div>
      <ol aria-label="Model call list" className="flex min-h-0 flex-1 flex-col gap-2 overflow-y-auto p-3">
        {calls.map((call) => {
          const expanded = open.has(call.id);
          return (
            <li key={call.id} data-testid="model-call" className="rounded-md border border-border">
              <button
                type="button"
                aria-expanded={expanded}
                onClick={() => toggle(call.id)}
                className="grid w-full grid-cols-[6rem_1fr_1fr_6rem_5rem_5rem] items-center gap-3 px-3 py-1.5 text-left text-sm hover:bg-surface-muted"
              >
                <span className="truncate" title="Side">
                  {formatSide(call.side, sideLabels)}
                </span>
                <span className="truncate font-mono" title="Model">
                  {call.model_name}
                </span>
                <span className="truncate text-muted" title="Answered by">
                  {call.answered_by ?? "—"}
                  {call.provider_model_id ? ` (${call.provider_model_id})` : ""}
                </span>
                <span title="Tokens in / out">
                  {formatTokens(call.input_tokens)} / {formatTokens(call.output_tokens)}
                </span>
                <span title="Cost">{formatCost(call.cost_usd)}</span>
                <span title="Latency">{formatMilliseconds(call.latency_ms)}</span>
              </button>
              {call.error ? <p className="px-3 pb-1.5 text-sm text-danger">{call.error}</p> : null}
              {expanded ? <ModelCallDetail call={call} /> : null}
            </li>
          );
        })}
      </ol>
    </section>
  );
}
