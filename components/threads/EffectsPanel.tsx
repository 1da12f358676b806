"use client";
// The selected thread's scheduled effects (GET /api/threads/:id/effects): name, arguments, when due,
// status, attempts and the last error, with Cancel for those that have not started.
import { useState } from "react";
import type { EffectStatus, EffectView } from "@/lib/contracts/effect";
import { Gated } from "../access/Gated";
import { refusal, usePermission } from "../access/permission";
import { Button } from "../ui/Button";
import { formatCreatedAt, formatDue } from "./format";
import { formatJson } from "./inspect-format";
import { PanelToolbar } from "./PanelToolbar";
import { useInspectorData } from "./useInspectorData";

/** Effect statuses in the shared status colours (globals.css --status-*). */
const STATUS_COLOUR: Record<EffectStatus, string> = {
  scheduled: "var(--status-queued)",
  running: "var(--status-running)",
  done: "var(--status-completed)",
  failed: "var(--status-failed)",
  cancelled: "var(--status-terminated)",
};

export function EffectsPanel({
  loadEffects,
  cancelEffect,
  threadId,
  status,
}: {
  loadEffects: (threadId: string) => Promise<EffectView[]>;
  cancelEffect: (threadId: string, effectId: string) => Promise<void>;
  threadId: string;
  status: string;
}) {
  const { data, loading, error, refresh } = useInspectorData(loadEffects, threadId, status);
  const [cancelling, setCancelling] = useState<string | null>(null);
  const [cancelError, setCancelError] = useState<string | null>(null);
  const refused = refusal(usePermission("cancelEffect"));
  const effects = data ?? [];
  const pending = effects.filter((effect) => effect.status === "scheduled" || effect.status === "running");
  const now = Date.now();

  async function cancel(effect: EffectView) {
    setCancelling(effect.id);
    setCancelError(null);
    try {
      await cancelEffect(threadId, effect.id);
    } catch (caught) {
      setCancelError(
        `Could not cancel ${effect.name}: ${caught instanceof Error ? caught.message : String(caught)}`,
      );
    } finally {
      setCancelling(null);
      refresh();
    }
  }

  return (
    <section aria-label="Effects" className="flex min-h-0 flex-1 flex-col">
      <PanelToolbar
        summary={`${effects.length} effect${effects.length === 1 ? "" : "s"}${pending.length > 0 ? ` · ${pending.length} pending` : ""}`}
        loading={loading}
        error={error ?? cancelError}
        onRefresh={refresh}
      />
      <div className="min-h-0 flex-1 overflow-y-auto p-3">
        {effects.length > 0 ? (
          <table aria-label="Scheduled effects" className="w-full text-left text-sm">
            <thead className="text-xs text-muted">
              <tr>
                <th className="w-full py-1 pr-4 font-medium">Effect</th>
                <th className="whitespace-nowrap py-1 pr-4 font-medium">Due</th>
                <th className="whitespace-nowrap py-1 pr-4 font-medium">Status</th>
                <th className="whitespace-nowrap py-1 pr-4 text-right font-medium">Attempts</th>
                <th className="w-px py-1 font-medium">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {effects.map((effect) => (
                <tr key={effect.id} data-testid="effect-row" className="border-t border-border align-top">
                  <td className="max-w-0 py-1.5 pr-4">
                    <div className="font-mono">{effect.name}</div>
                    <div className="truncate font-mono text-xs text-muted" title={formatJson(effect.args)}>
                      {JSON.stringify(effect.args)}
                    </div>
                    {effect.error ? (
                      <div className="break-words text-xs text-danger" title={effect.error}>
                        {effect.error}
                      </div>
                    ) : null}
                  </td>
                  <td className="whitespace-nowrap py-1.5 pr-4" title={formatCreatedAt(effect.run_at)}>
                    {formatDue(effect.run_at, now)}
                  </td>
                  <td className="whitespace-nowrap py-1.5 pr-4">
                    <span className="inline-flex items-center gap-1 rounded-full border border-border px-1.5 text-xs">
                      <span
                        aria-hidden
                        className={`size-2 rounded-full ${effect.status === "running" ? "animate-pulse" : ""}`}
                        style={{ backgroundColor: STATUS_COLOUR[effect.status] }}
                      />
                      {effect.status}
                    </span>
                  </td>
                  <td className="py-1.5 pr-4 text-right tabular-nums">{effect.attempts}</td>
                  <td className="whitespace-nowrap py-1.5 text-right">
                    {effect.status === "scheduled" ? (
                      <Gated reason={refused}>
                        <Button
                          size="compact"
                          tone="danger"
                          disabled={cancelling !== null || refused !== null}
                          onClick={() => void cancel(effect)}
                          aria-label={`Cancel effect ${effect.name} due ${formatDue(effect.run_at, now)}`}
                        >
                          {cancelling === effect.id ? "Cancelling…" : "Cancel"}
                        </Button>
                      </Gated>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : null}
        {!loading && effects.length === 0 ? (
          <p className="mt-2 text-muted">
            No scheduled effects. Tools and hooks schedule them with <code>state.scheduleEffect</code>.
          </p>
        ) : null}
      </div>
    </section>
  );
}
