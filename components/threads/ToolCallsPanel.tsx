"use client";
// The selected thread's tool runs from GET /api/threads/:id/logs: name, status, duration, args and result.
import type { ApiClient } from "@/lib/api/client";
import { formatJson, formatMilliseconds } from "./inspect-format";
import { PanelToolbar } from "./PanelToolbar";
import { useInspectorData } from "./useInspectorData";

export function ToolCallsPanel({
  loadLogs,
  threadId,
  status,
}: {
  loadLogs: ApiClient["threads"]["logs"];
  threadId: string;
  status: string;
}) {
  const { data, loading, error, refresh } = useInspectorData(loadLogs, threadId, status);
  const calls = data?.tool_calls ?? [];

  return (
    <section aria-label="Tool calls" className="flex min-h-0 flex-1 flex-col">
      <PanelToolbar
        summary={`${calls.length} tool call${calls.length === 1 ? "" : "s"}`}
        loading={loading}
        error={error}
        onRefresh={refresh}
      />
      <ol aria-label="Tool call list" className="flex min-h-0 flex-1 flex-col gap-2 overflow-y-auto p-3">
        {calls.map((call) => (
          <li
            key={call.id}
            data-testid="tool-call"
            data-tool-name={call.name}
            className="rounded-md border border-border px-3 py-1.5 text-sm"
          >
            <div className="flex flex-wrap items-center gap-3">
              <span className="font-mono font-medium">{call.name}</span>
              <span className="rounded-full border border-border px-1.5 text-xs">{call.status}</span>
              <span className="ml-auto text-muted" data-testid="tool-duration" title="Duration">
                {call.duration_ms === null ? "running…" : `${Math.round(call.duration_ms)} ms`}
              </span>
            </div>
            <details className="mt-1">
              <summary className="cursor-pointer text-xs text-muted">Arguments</summary>
              <pre className="whitespace-pre-wrap break-words text-xs">{formatJson(call.args)}</pre>
            </details>
            <div className="mt-1">
              <div className="text-xs text-muted">
                Result{call.duration_ms === null ? "" : ` · ${formatMilliseconds(call.duration_ms)}`}
              </div>
              <pre className="whitespace-pre-wrap break-words text-xs">
                {call.result === null ? "—" : formatJson(call.result)}
              </pre>
            </div>
          </li>
        ))}
      </ol>
    </section>
  );
}
