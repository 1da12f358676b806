"use client";
// A project's threads (status, agent, first message, start time, link to the live view), filtered
// by status, agent, roots only and a text search (kept in the page URL, so a reload keeps them),
// paged, and the form that starts a new run of an ai_human agent, then opens it.
import Link from "next/link";
import { useRouter } from "next/navigation";
import { type FormEvent, useCallback, useEffect, useId, useState } from "react";
import { ApiError, createApiClient } from "@/lib/api/client";
import {
  controlsFromSearchParams,
  controlsToSearchParams,
  DEFAULT_THREAD_LIST_CONTROLS,
  type ThreadListControls,
} from "@/lib/contracts/thread-list-query";
import type { ThreadList, ThreadSummary } from "@/lib/contracts/thread-requests";
import { statusDetail } from "@/lib/live";
import { Gated } from "../access/Gated";
import { permission } from "../access/permission";
import { useProjectAccess } from "../access/useProjectAccess";
import { Button } from "../ui/Button";
import { useHydrated } from "../ui/useHydrated";
import { ApprovalInbox } from "./ApprovalInbox";
import { formatCreatedAt } from "./format";
import { StatusBadge } from "./StatusBadge";
import { ThreadFilters } from "./ThreadFilters";

const api = createApiClient();
const REFRESH_MS = 5000;
const PAGE_SIZE = 50;

function describeError(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  return error instanceof Error ? error.message : String(error);
}

/** Writes the controls into the page URL without a navigation (a reload reads them back). */
function replaceUrlQuery(controls: ThreadListControls) {
  const url = new URL(window.location.href);
  const query = controlsToSearchParams(controls).toString();
  window.history.replaceState(
    window.history.state,
    "",
    `${url.pathname}${query ? `?${query}` : ""}${url.hash}`,
  );
}

export function ThreadsPanel({
  projectId,
  chatAgents,
  agents,
  initialQuery,
}: {
  projectId: string;
  chatAgents: string[];
  /** Every agent of the project (the filter's choices). */
  agents: string[];
  /** The page's query string, read by the server, so the first render already has the filters. */
  initialQuery: string;
}) {
  const router = useRouter();
  const [controls, setControls] = useState(() => controlsFromSearchParams(new URLSearchParams(initialQuery)));
  const [offset, setOffset] = useState(0);
  const [list, setList] = useState<ThreadList | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [runError, setRunError] = useState<string | null>(null);
  const [agentId, setAgentId] = useState(chatAgents[0] ?? "");
  const [message, setMessage] = useState("");
  const [starting, setStarting] = useState(false);
  // Until hydrated the form has no submit handler: a click would reload the page, losing the message.
  const hydrated = useHydrated();
  // Only an ai_human agent can be started from here; without one every Run control is disabled and
  // the hint below the form (which the controls point at) says what to do instead.
  const canRun = chatAgents.length > 0;
  // A viewer sees the form with Run disabled and the reason (the role table, lib/access/roles.ts).
  const mayRun = permission(useProjectAccess(projectId), "run");
  const cannotRunHintId = useId();

  const changeControls = useCallback((next: ThreadListControls) => {
    setControls(next);
    setOffset(0);
    replaceUrlQuery(next);
  }, []);

  // Answers that arrive after the filters changed again are dropped (`current`), so the list never
  // shows the results of an older filter.
  useEffect(() => {
    let current = true;
    const load = async () => {
      try {
        const page = await api.threads.list(projectId, controls, { limit: PAGE_SIZE, offset });
        if (!current) return;
        setList(page);
        setLoadError(null);
      } catch (error) {
        if (current) setLoadError(describeError(error));
      }
    };
    void load();
    const timer = setInterval(() => void load(), REFRESH_MS);
    return () => {
      current = false;
      clearInterval(timer);
    };
  }, [projectId, controls, offset]);

  const threads = list?.threads ?? null;
  const filtered =
    controls.statuses.length > 0 ||
    controls.agentId !== "" ||
    controls.search.trim() !== "" ||
    !controls.rootsOnly;

  async function startRun(event: FormEvent) {
    event.preventDefault();
    if (!agentId) {
      setRunError("Pick an agent to run.");
      return;
    }
    setStarting(true);
    setRunError(null);
    try {
      const created = await api.threads.create({ projectId, agentId, message: message.trim() || undefined });
      router.push(`/threads/${created.threadId}`);
    } catch (error) {
      setRunError(describeError(error));
      setStarting(false);
    }
  }

  return (
    <section aria-label="Threads" className="rounded-lg border border-border bg-surface">
      <h2 className="border-b border-border px-4 py-2 font-medium">
        Threads <span className="text-muted">({list?.total ?? 0})</span>
      </h2>
      <form
        onSubmit={startRun}
        aria-label="Run an agent"
        className="flex flex-wrap gap-2 border-b border-border px-4 py-3"
      >
        <label htmlFor="run-agent" className="sr-only">
          Agent
        </label>
        <select
          id="run-agent"
          value={agentId}
          onChange={(event) => setAgentId(event.target.value)}
          disabled={!canRun}
          aria-describedby={canRun ? undefined : cannotRunHintId}
          className="h-8 rounded-md border border-border bg-surface px-2 font-mono text-sm disabled:cursor-not-allowed disabled:opacity-60"
        >
          {canRun ? null : <option value="">No ai_human agents</option>}
          {chatAgents.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </select>
        <label htmlFor="run-message" className="sr-only">
          First message
        </label>
        <input
          id="run-message"
          value={message}
          onChange={(event) => setMessage(event.target.value)}
          placeholder="First message (optional)"
          disabled={!canRun}
          aria-describedby={canRun ? undefined : cannotRunHintId}
          className="h-8 min-w-48 flex-1 rounded-md border border-border bg-surface px-2.5 outline-none focus:border-accent disabled:cursor-not-allowed disabled:opacity-60"
        />
        <Gated reason={mayRun.ok ? null : mayRun.reason}>
          <Button
            type="submit"
            tone="primary"
            disabled={!hydrated || starting || !canRun || !mayRun.ok}
            aria-describedby={canRun ? undefined : cannotRunHintId}
          >
            {starting ? "Starting…" : "Run"}
          </Button>
        </Gated>
        {canRun ? null : (
          <p id={cannotRunHintId} data-testid="run-unavailable" className="w-full text-sm text-muted">
            This project has no ai_human agent (one that chats with a person) to run. Add an ai_human agent in
            the{" "}
            <Link href={`/projects/${projectId}/studio`} className="text-accent underline">
              studio
            </Link>
            , then run it here.
          </p>
        )}
      </form>
      {runError ? (
        <p
          role="alert"
          className="mx-4 mt-2 rounded-md border border-danger/40 bg-danger/5 px-3 py-2 text-danger"
        >
          {runError}
        </p>
      ) : null}
      <ApprovalInbox
        projectId={projectId}
        loadPending={api.approvals.pendingOfProject}
        decide={api.approvals.decide}
      />
      <ThreadFilters controls={controls} agents={agents} onChange={changeControls} />
      {loadError ? (
        <p role="alert" className="px-4 py-3 text-danger">
          Could not load threads: {loadError}
        </p>
      ) : threads === null ? (
        <p className="px-4 py-3 text-muted">Loading threads…</p>
      ) : threads.length === 0 ? (
        filtered ? (
          <p className="px-4 py-3 text-muted">
            No threads match these filters.{" "}
            <button
              type="button"
              className="underline"
              onClick={() => changeControls(DEFAULT_THREAD_LIST_CONTROLS)}
            >
              Clear filters
            </button>
          </p>
        ) : (
          <p className="px-4 py-3 text-muted">
            {canRun
              ? "No runs yet. Pick an agent above and press “Run”."
              : "No runs yet: add an ai_human agent in the studio first (see above)."}
          </p>
        )
      ) : (
        <>
          <ul
            aria-label={controls.rootsOnly ? "Root threads" : "All threads"}
            className="divide-y divide-border"
          >
            {threads.map((thread) => (
              <ThreadRow key={thread.id} thread={thread} />
            ))}
          </ul>
          <ThreadsPager
            total={list?.total ?? 0}
            offset={offset}
            shown={threads.length}
            onOffset={setOffset}
          />
        </>
      )}
    </section>
  );
}

/**
 * One thread: its status (and why), then its main text — agent, name, first message and short id —
 * as the one link to its live view, then when it started.
 */
function ThreadRow({ thread }: { thread: ThreadSummary }) {
  const detail = statusDetail(thread);
  return (
    <li data-testid="thread-row" className="flex items-center gap-3 px-4 py-1">
      <StatusBadge status={thread.status} />
      {detail ? (
        <span
          data-testid="thread-status-detail"
          className={`max-w-64 shrink-0 truncate text-xs ${detail.tone === "problem" ? "text-danger" : "text-muted"}`}
          title={detail.text}
        >
          {detail.text}
        </span>
      ) : null}
      <Link
        href={`/threads/${thread.id}`}
        title={thread.title ?? undefined}
        className="group flex min-h-8 min-w-0 flex-1 items-center gap-3 rounded-md px-1 hover:bg-surface-muted"
      >
        <span className="shrink-0 font-mono text-sm group-hover:underline">{thread.agent_id}</span>
        {thread.parent_id ? (
          <span className="shrink-0 text-xs text-muted">subagent, depth {thread.depth}</span>
        ) : null}
        <span className="min-w-0 flex-1 truncate text-sm text-muted">
          {thread.name ? `“${thread.name}” ` : ""}
          {thread.title ?? ""}
        </span>
        <span className="shrink-0 font-mono text-xs text-muted">{thread.id.slice(0, 8)}</span>
      </Link>
      <span className="shrink-0 text-xs text-muted">{formatCreatedAt(thread.created_at)}</span>
    </li>
  );
}

function ThreadsPager({
  total,
  offset,
  shown,
  onOffset,
}: {
  total: number;
  offset: number;
  shown: number;
  onOffset: (offset: number) => void;
}) {
  if (total <= PAGE_SIZE && offset === 0) return null;
  return (
    <nav
      aria-label="Thread pages"
      className="flex items-center gap-2 border-t border-border px-4 py-2 text-sm"
    >
      <span className="text-muted">
        {offset + 1}–{offset + shown} of {total}
      </span>
      <Button
        className="ml-auto"
        disabled={offset === 0}
        onClick={() => onOffset(Math.max(0, offset - PAGE_SIZE))}
      >
        Previous
      </Button>
      <Button disabled={offset + shown >= total} onClick={() => onOffset(offset + PAGE_SIZE)}>
        Next
      </Button>
    </nav>
  );
}
