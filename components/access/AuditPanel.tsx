"use client";
// The project's audit log: who saved, imported, ran, stopped, approved, and who changed members,
// keys and credentials — newest first, filtered by action, actor and time (GET …/audit).
import { useCallback, useEffect, useMemo, useState } from "react";
import {
  AUDIT_WINDOWS,
  type AuditFilter,
  type AuditWindow,
  actorLabel,
  auditFacets,
  describeAuditValue,
  filterAudit,
  NO_AUDIT_FILTER,
} from "@/lib/access/audit-filter";
import { createAccessClient } from "@/lib/api/access-client";
import type { AuditEntry } from "@/lib/api/access-schemas";
import { Button } from "../ui/Button";
import { describeAccessError, INPUT_CLASSES } from "./fields";
import { formatWhen } from "./format";
import { EmptyState, LoadFailed, LoadingRows } from "./PanelStates";
import { permission } from "./permission";
import { useProjectAccess } from "./useProjectAccess";

const access = createAccessClient();
const LIMIT = 500;

type Load =
  | { status: "loading" }
  | { status: "failed"; message: string }
  | { status: "ready"; entries: AuditEntry[] };

export function AuditPanel({ projectId }: { projectId: string }) {
  const reading = permission(useProjectAccess(projectId), "readAudit");
  const [load, setLoad] = useState<Load>({ status: "loading" });
  const [filter, setFilter] = useState<AuditFilter>(NO_AUDIT_FILTER);
  const refresh = useCallback(async () => {
    setLoad({ status: "loading" });
    try {
      setLoad({ status: "ready", entries: await access.audit.list(projectId, LIMIT) });
    } catch (caught) {
      setLoad({ status: "failed", message: describeAccessError(caught) });
    }
  }, [projectId]);
  useEffect(() => {
    if (reading.ok) void refresh();
  }, [refresh, reading.ok]);

  const entries = load.status === "ready" ? load.entries : [];
  const facets = useMemo(() => auditFacets(entries), [entries]);
  const shown = useMemo(() => filterAudit(entries, filter, Date.now()), [entries, filter]);
  const filtered = filter.action !== "" || filter.actor !== "" || filter.window !== "all";

  if (!reading.ok) return <EmptyState title="Only owners read the audit log">{reading.reason}</EmptyState>;
  return (
    <div className="flex flex-col gap-4">
      <form
        aria-label="Filter the audit log"
        className="flex flex-wrap items-end gap-3"
        onSubmit={(event) => event.preventDefault()}
      >
        <label className="flex flex-col gap-1 text-sm">
          <span>Action</span>
          <select
            className={INPUT_CLASSES}
            value={filter.action}
            onChange={(event) => setFilter({ ...filter, action: event.target.value })}
          >
            <option value="">Any action</option>
            {facets.actions.map((action) => (
              <option key={action} value={action}>
                {action}
              </option>
            ))}
          </select>
        </label>
        <label className="flex flex-col gap-1 text-sm">
          <span>Actor</span>
          <select
            className={INPUT_CLASSES}
            value={filter.actor}
            onChange={(event) => setFilter({ ...filter, actor: event.target.value })}
          >
            <option value="">Anyone</option>
            {facets.actors.map((actor) => (
              <option key={actor.key} value={actor.key}>
                {actor.label}
              </option>
            ))}
          </select>
        </label>
        <label className="flex flex-col gap-1 text-sm">
          <span>When</span>
          <select
            className={INPUT_CLASSES}
            value={filter.window}
            onChange={(event) => setFilter({ ...filter, window: event.target.value as AuditWindow })}
          >
            {Object.entries(AUDIT_WINDOWS).map(([key, window]) => (
              <option key={key} value={key}>
                {window.label}
              </option>
            ))}
          </select>
        </label>
        {filtered ? <Button onClick={() => setFilter(NO_AUDIT_FILTER)}>Clear filters</Button> : null}
        <Button onClick={() => void refresh()}>Refresh</Button>
        {load.status === "ready" ? (
          <span className="ml-auto text-sm text-muted" role="status">
            {filtered ? `${shown.length} of ${entries.length} entries` : `${entries.length} entries`}
            {entries.length >= LIMIT ? ` (the latest ${LIMIT})` : ""}
          </span>
        ) : null}
      </form>
      {load.status === "loading" ? <LoadingRows label="Loading the audit log…" /> : null}
      {load.status === "failed" ? (
        <LoadFailed what="the audit log" message={load.message} onRetry={() => void refresh()} />
      ) : null}
      {load.status === "ready" && entries.length === 0 ? (
        <EmptyState title="Nothing recorded yet">
          Saves, imports, runs, approvals and changes to members, keys and credentials appear here as they
          happen.
        </EmptyState>
      ) : null}
      {load.status === "ready" && entries.length > 0 && shown.length === 0 ? (
        <EmptyState title="No entries match these filters">
          Widen the time window or clear the filters.
        </EmptyState>
      ) : null}
      {shown.length > 0 ? (
        <table className="w-full text-sm" aria-label="Audit log">
          <thead className="text-left text-xs text-muted">
            <tr>
              <th className="py-1 pr-3 font-medium">When</th>
              <th className="py-1 pr-3 font-medium">Who</th>
              <th className="py-1 pr-3 font-medium">Action</th>
              <th className="py-1 pr-3 font-medium">Target</th>
              <th className="py-1 font-medium">Details</th>
            </tr>
          </thead>
          <tbody>
            {shown.map((entry, index) => (
              <tr key={entry.id ?? index} className="border-t border-border align-top">
                <td className="py-1.5 pr-3 whitespace-nowrap">{formatWhen(entry.at)}</td>
                <td className="py-1.5 pr-3">{actorLabel(entry)}</td>
                <td className="py-1.5 pr-3 font-mono text-xs">{entry.action}</td>
                <td className="max-w-48 truncate py-1.5 pr-3" title={describeAuditValue(entry.target)}>
                  {describeAuditValue(entry.target)}
                </td>
                <td className="max-w-96 py-1.5 break-words text-muted">
                  {describeAuditValue(entry.details)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </div>
  );
}
