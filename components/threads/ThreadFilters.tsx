"use client";
// The threads list's filter bar: text search, status chips, agent and "roots only". It only edits
// the controls; the list (ThreadsPanel) fetches with them and writes them into the URL.
import { useEffect, useState } from "react";
import { MAX_THREAD_SEARCH_LENGTH, type ThreadListControls } from "@/lib/contracts/thread-list-query";
import { THREAD_STATUSES, type ThreadStatus } from "@/lib/live/events";
import { threadStatusLabel } from "./status-label";

const SEARCH_DEBOUNCE_MS = 250;

export function ThreadFilters({
  controls,
  agents,
  onChange,
}: {
  controls: ThreadListControls;
  agents: string[];
  onChange: (next: ThreadListControls) => void;
}) {
  // The search box keeps its own text and reports it after a pause, so typing does not refetch per key.
  const [search, setSearch] = useState(controls.search);
  useEffect(() => setSearch(controls.search), [controls.search]);
  useEffect(() => {
    if (search === controls.search) return;
    const timer = setTimeout(() => onChange({ ...controls, search }), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [search, controls, onChange]);

  function toggleStatus(status: ThreadStatus) {
    const statuses = controls.statuses.includes(status)
      ? controls.statuses.filter((candidate) => candidate !== status)
      : THREAD_STATUSES.filter((candidate) => candidate === status || controls.statuses.includes(candidate));
    onChange({ ...controls, statuses });
  }

  const agentChoices =
    controls.agentId && !agents.includes(controls.agentId) ? [...agents, controls.agentId] : agents;

  return (
    <search aria-label="Filter threads" className="flex flex-col gap-2 border-b border-border px-4 py-3">
      <div className="flex flex-wrap items-center gap-2">
        <input
          type="search"
          aria-label="Search threads"
          value={search}
          maxLength={MAX_THREAD_SEARCH_LENGTH}
          onChange={(event) => setSearch(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === "Enter") onChange({ ...controls, search });
          }}
          placeholder="Search id, agent or first message"
          className="h-8 min-w-56 flex-1 rounded-md border border-border bg-surface px-2.5 outline-none focus:border-accent"
        />
        <select
          aria-label="Filter by agent"
          value={controls.agentId}
          onChange={(event) => onChange({ ...controls, agentId: event.target.value })}
          className="h-8 rounded-md border border-border bg-surface px-2 font-mono text-sm"
        >
          <option value="">All agents</option>
          {agentChoices.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </select>
        <label className="flex items-center gap-1.5 text-sm">
          <input
            type="checkbox"
            checked={controls.rootsOnly}
            onChange={(event) => onChange({ ...controls, rootsOnly: event.target.checked })}
          />
          Roots only
        </label>
      </div>
      <fieldset className="flex flex-wrap items-center gap-1.5">
        <legend className="sr-only">Status</legend>
        <span aria-hidden className="mr-1 text-xs text-muted">
          Status
        </span>
        {THREAD_STATUSES.map((status) => {
          const checked = controls.statuses.includes(status);
          return (
            <label
              key={status}
              className={`relative flex cursor-pointer items-center gap-1 rounded-full border px-2 py-0.5 text-xs has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-accent ${
                checked ? "border-accent bg-surface-muted" : "border-border"
              }`}
            >
              <input
                type="checkbox"
                className="absolute inset-0 cursor-pointer appearance-none rounded-full opacity-0"
                checked={checked}
                onChange={() => toggleStatus(status)}
              />
              <span
                aria-hidden
                className="size-2 rounded-full"
                style={{ backgroundColor: `var(--status-${status})` }}
              />
              {threadStatusLabel(status)}
            </label>
          );
        })}
        {controls.statuses.length > 0 ? (
          <button
            type="button"
            className="ml-1 text-xs text-muted underline"
            onClick={() => onChange({ ...controls, statuses: [] })}
          >
            Any status
          </button>
        ) : null}
      </fieldset>
    </search>
  );
}
