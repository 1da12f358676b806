"use client";
// "Compare with…" on the thread page: pick another run (a root thread) of the same project and open
// the diff view of the two (/threads/diff?a=this&b=that). Each run says which it is — its name or
// short id, when it started, how many messages it has — and a fork's source is marked "original"
// (a fork of this run, "fork of this run"), so runs of one agent can be told apart.
import Link from "next/link";
import { useEffect, useState } from "react";
import type { ApiClient } from "@/lib/api/client";
import { DEFAULT_THREAD_LIST_CONTROLS } from "@/lib/contracts/thread-list-query";
import type { ThreadSummary } from "@/lib/contracts/thread-requests";
import { Dialog, DialogHeader } from "../ui/Dialog";
import { formatCreatedAt } from "./format";
import { StatusBadge } from "./StatusBadge";

export function diffHref(a: string, b: string): string {
  return `/threads/diff?a=${encodeURIComponent(a)}&b=${encodeURIComponent(b)}`;
}

export function CompareDialog({
  open,
  onClose,
  threadId,
  forkedFromId = null,
  projectId,
  listThreads,
  countMessages,
}: {
  open: boolean;
  onClose(): void;
  threadId: string;
  /** The run this one was forked from, marked "original" in the list. */
  forkedFromId?: string | null;
  projectId: string;
  listThreads: ApiClient["threads"]["list"];
  countMessages: ApiClient["threads"]["messageCount"];
}) {
  const [threads, setThreads] = useState<ThreadSummary[] | null>(null);
  const [messageCounts, setMessageCounts] = useState<ReadonlyMap<string, number>>(new Map());
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (!open) return;
    let cancelled = false;
    setThreads(null);
    setMessageCounts(new Map());
    setError(null);
    listThreads(projectId, DEFAULT_THREAD_LIST_CONTROLS, { limit: 50, offset: 0 })
      .then(async (list) => {
        const others = list.threads.filter((thread) => thread.id !== threadId);
        if (cancelled) return;
        setThreads(others);
        // The counts come after the list (one small request per run); a count that fails is left out.
        const counts = await Promise.all(others.map((thread) => countMessages(thread.id).catch(() => null)));
        if (cancelled) return;
        setMessageCounts(
          new Map(
            others.flatMap((thread, index) => {
              const count = counts[index];
              return count === null || count === undefined ? [] : [[thread.id, count] as const];
            }),
          ),
        );
      })
      .catch((caught: unknown) => {
        if (!cancelled) setError(caught instanceof Error ? caught.message : String(caught));
      });
    return () => {
      cancelled = true;
    };
  }, [open, projectId, threadId, listThreads, countMessages]);

  return (
    <Dialog open={open} label="Compare with another run" onClose={onClose} className="w-[40rem]">
      <DialogHeader title="Compare with another run" onClose={onClose} />
      <div className="p-4">
        {error ? (
          <p role="alert" className="text-danger">
            {error}
          </p>
        ) : threads === null ? (
          <p role="status" className="text-muted">
            Loading this project's runs…
          </p>
        ) : threads.length === 0 ? (
          <p>This project has no other run yet. Start one, or fork this one from a message.</p>
        ) : (
          <ul aria-label="Runs of this project" className="flex max-h-[60vh] flex-col gap-1 overflow-y-auto">
            {threads.map((thread) => (
              <li key={thread.id}>
                <RunChoice
                  thread={thread}
                  href={diffHref(threadId, thread.id)}
                  relation={
                    thread.id === forkedFromId
                      ? "original"
                      : thread.forked_from?.thread_id === threadId
                        ? "fork of this run"
                        : null
                  }
                  messageCount={messageCounts.get(thread.id) ?? null}
                />
              </li>
            ))}
          </ul>
        )}
      </div>
    </Dialog>
  );
}

function RunChoice({
  thread,
  href,
  relation,
  messageCount,
}: {
  thread: ThreadSummary;
  href: string;
  relation: "original" | "fork of this run" | null;
  messageCount: number | null;
}) {
  const shortId = thread.id.slice(0, 8);
  return (
    <Link
      href={href}
      data-testid="compare-run"
      className="flex items-center gap-2 rounded-md border border-border px-3 py-2 hover:bg-surface-muted"
    >
      <span className="min-w-0 flex-1">
        <span className="flex items-center gap-2">
          <span className="truncate font-medium">{thread.name ?? `Run ${shortId}`}</span>
          {relation ? (
            <span
              data-testid="compare-run-relation"
              className="shrink-0 rounded border border-accent/40 px-1.5 text-xs text-accent"
            >
              {relation}
            </span>
          ) : null}
        </span>
        <span className="block truncate text-xs text-muted" title={thread.title ?? undefined}>
          {thread.name ? (
            <>
              <span className="font-mono">{shortId}</span> ·{" "}
            </>
          ) : null}
          <span className="font-mono">{thread.agent_id}</span> · started{" "}
          <time dateTime={new Date(thread.created_at / 1000).toISOString()}>
            {formatCreatedAt(thread.created_at)}
          </time>
          {messageCount === null ? "" : ` · ${messageCount} message${messageCount === 1 ? "" : "s"}`}
          {thread.title ? ` · “${thread.title}”` : ""}
        </span>
      </span>
      <StatusBadge status={thread.status} />
    </Link>
  );
}
