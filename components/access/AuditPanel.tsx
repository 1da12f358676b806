"use client";
// The project's audit log: who saved, imported, ran, stopped, approved, and who changed members,
// keys and credentials — newest first. The server filters (GET …/audit with action, actor, from, to):
// the page asks again when a filter changes and pages back with the `next_before` cursor ("Load
// older entries"), so a filter reaches every entry, not only the ones already loaded.
import { useCallback, useEffect, useRef, useState } from "react";
import {
  AUDIT_ACTIONS,
  AUDIT_FAMILIES,
  AUDIT_WINDOWS,
  type AuditFilter,
  type AuditWindow,
  actorLabel,
  auditQuery,
  describeAuditValue,
  isFiltered,
  NO_AUDIT_FILTER,
  rangeProblem,
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
const PAGE = 100;

type Load =
  | { status: "loading" }
  | { status: "failed"; message: string }
  | {
      status: "ready";
      entries: AuditEntry[];
      nextBefore: string | null;
      loadingMore: boolean;
      moreError: string | null;
    };

interface ActorChoice {
  id: string;
  label: string;
}

/** The people and keys an entry can name: the project's members and its keys (owners read both). */
function useActorChoices(projectId: string, enabled: boolean): ActorChoice[] {
  const [choices, setChoices] = useState<ActorChoice[]>([]);
  useEffect(() => {
    if (!enabled) return;
    let live = true;
    Promise.all([
      access.members.list(projectId).catch(() => []),
      access.keys.list(projectId).catch(() => []),
    ]).then(([members, keys]) => {
      if (!live) return;
      setChoices([
        ...members
          .map((member) => ({ id: member.userId, label: member.name || member.email || member.userId }))
          .sort((a, b) => a.label.localeCompare(b.label)),
        ...keys
          .map((key) => ({ id: key.id, label: `key ${key.name}` }))
          .sort((a, b) => a.label.localeCompare(b.label)),
      ]);
    });
    return () => {
      live = false;
    };
  }, [projectId, enabled]);
  return choices;
}

export function AuditPanel({ projectId }: { projectId: string }) {
  const reading = permission(useProjectAccess(projectId), "readAudit");
  const [load, setLoad] = useState<Load>({ status: "loading" });
  const [filter, setFilter] = useState<AuditFilter>(NO_AUDIT_FILTER);
  const actors = useActorChoices(projectId, reading.ok);
  const problem = rangeProblem(filter);
  // Answers to an older filter are dropped: only the latest request may set the list.
  const generation = useRef(0);

  const refresh = useCallback(async () => {
    if (rangeProblem(filter)) return;
    const asked = ++generation.current;
    setLoad({ status: "loading" });
    try {
      const page = await access.audit.list(projectId, auditQuery(filter, { now: Date.now(), limit: PAGE }));
      if (asked === generation.current)
        setLoad({ status: "ready", ...page, loadingMore: false, moreError: null });
    } catch (caught) {
      if (asked === generation.current) setLoad({ status: "failed", message: describeAccessError(caught) });
    }
  }, [projectId, filter]);
  useEffect(() => {
    if (reading.ok) void refresh();
  }, [refresh, reading.ok]);

  async function loadOlder() {
    if (load.status !== "ready" || !load.nextBefore) return;
    const asked = generation.current;
    const shown = load;
    setLoad({ ...shown, loadingMore: true, moreError: null });
    try {
      const page = await access.audit.list(
        projectId,
        auditQuery(filter, { now: Date.now(), limit: PAGE, before: shown.nextBefore }),
      );
      if (asked === generation.current)
        setLoad({
          status: "ready",
          entries: [...shown.entries, ...page.entries],
          nextBefore: page.nextBefore,
          loadingMore: false,
          moreError: null,
        });
    } catch (caught) {
      if (asked === generation.current)
        setLoad({ ...shown, loadingMore: false, moreError: describeAccessError(caught) });
    }
  }

  if (!reading.ok) return <EmptyState title="Only owners read the audit log">{reading.reason}</EmptyState>;
  const filtered = isFiltered(filter);
  const entries = load.status === "ready" ? load.entries : [];
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
            <optgroup label="Families">
              {AUDIT_FAMILIES.map((family) => (
                <option key={family} value={family}>
                  {family}.* (every {family} action)
                </option>
              ))}
            </optgroup>
            <optgroup label="Actions">
              {AUDIT_ACTIONS.map((action) => (
                <option key={action} value={action}>
                  {action}
                </option>
              ))}
            </optgroup>
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
            {actors.map((actor) => (
              <option key={actor.id} value={actor.id}>
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
        {filter.window === "custom" ? (
          <>
            <label className="flex flex-col gap-1 text-sm">
              <span>From</span>
              <input
                type="datetime-local"
                className={INPUT_CLASSES}
                value={filter.from}
                aria-invalid={problem ? true : undefined}
                onChange={(event) => setFilter({ ...filter, from: event.target.value })}
              />
            </label>
            <label className="flex flex-col gap-1 text-sm">
              <span>To</span>
              <input
                type="datetime-local"
                className={INPUT_CLASSES}
                value={filter.to}
                aria-invalid={problem ? true : undefined}
                onChange={(event) => setFilter({ ...filter, to: event.target.value })}
              />
            </label>
          </>
        ) : null}
        {filtered ? <Button onClick={() => setFilter(NO_AUDIT_FILTER)}>Clear filters</Button> : null}
        <Button onClick={() => void refresh()}>Refresh</Button>
        {load.status === "ready" ? (
          <span className="ml-auto text-sm text-muted" role="status">
            {entries.length} {entries.length === 1 ? "entry" : "entries"}
            {filtered ? " match" : ""}
            {load.nextBefore ? " so far" : ""}
          </span>
        ) : null}
      </form>
      {problem ? (
        <p role="alert" className="text-sm text-danger">
          {problem} Change one of them to see entries.
        </p>
      ) : null}
      {load.status === "loading" ? <LoadingRows label="Loading the audit log…" /> : null}
      {load.status === "failed" ? (
        <LoadFailed what="the audit log" message={load.message} onRetry={() => void refresh()} />
      ) : null}
      {load.status === "ready" && entries.length === 0 && !filtered ? (
        <EmptyState title="Nothing recorded yet">
          Saves, imports, runs, approvals and changes to members, keys and credentials appear here as they
          happen.
        </EmptyState>
      ) : null}
      {load.status === "ready" && entries.length === 0 && filtered ? (
        <EmptyState title="No entries match these filters">
          Widen the time window or clear the filters.
        </EmptyState>
      ) : null}
      {load.status === "ready" && entries.length > 0 ? (
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
            {entries.map((entry, index) => (
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
      {load.status === "ready" && load.moreError ? (
        <LoadFailed what="older entries" message={load.moreError} onRetry={() => void loadOlder()} />
      ) : null}
      {load.status === "ready" && load.nextBefore ? (
        <Button className="self-start" disabled={load.loadingMore} onClick={() => void loadOlder()}>
          {load.loadingMore ? "Loading older entries…" : "Load older entries"}
        </Button>
      ) : null}
    </div>
  );
}
