"use client";
// "Compare with…" on the thread page: pick another run (a root thread) of the same project and open
// the diff view of the two (/threads/diff?a=this&b=that).
import Link from "next/link";
import { useEffect, useState } from "react";
import type { ApiClient } from "@/lib/api/client";
import type { ThreadSummary } from "@/lib/api/schemas";
import { DEFAULT_THREAD_LIST_CONTROLS } from "@/lib/contracts/thread-list-query";
import { Dialog, DialogHeader } from "../ui/Dialog";
import { StatusBadge } from "./StatusBadge";

export function diffHref(a: string, b: string): string {
  return `/threads/diff?a=${encodeURIComponent(a)}&b=${encodeURIComponent(b)}`;
}

export function CompareDialog({
  open,
  onClose,
  threadId,
  projectId,
  listThreads,
}: {
  open: boolean;
  onClose(): void;
  threadId: string;
  projectId: string;
  listThreads: ApiClient["threads"]["list"];
}) {
  const [threads, setThreads] = useState<ThreadSummary[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (!open) return;
    let cancelled = false;
    setThreads(null);
    setError(null);
    listThreads(projectId, DEFAULT_THREAD_LIST_CONTROLS, { limit: 50, offset: 0 })
      .then((list) => {
        if (!cancelled) setThreads(list.threads.filter((thread) => thread.id !== threadId));
      })
      .catch((caught: unknown) => {
        if (!cancelled) setError(caught instanceof Error ? caught.message : String(caught));
      });
    return () => {
      cancelled = true;
    };
  }, [open, projectId, threadId, listThreads]);

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
                <Link
                  href={diffHref(threadId, thread.id)}
                  className="flex items-center gap-2 rounded-md border border-border px-3 py-2 hover:bg-surface-muted"
                >
                  <span className="min-w-0 flex-1">
                    <span className="block truncate font-medium">{thread.name ?? thread.agent_id}</span>
                    <span className="block truncate text-xs text-muted">
                      <span className="font-mono">{thread.id.slice(0, 8)}</span>
                      {thread.title ? ` · ${thread.title}` : ""}
                    </span>
                  </span>
                  <StatusBadge status={thread.status} />
                </Link>
              </li>
            ))}
          </ul>
        )}
      </div>
    </Dialog>
  );
}
