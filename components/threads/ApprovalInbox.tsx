"use client";
// The project-wide approval inbox (docs/live.md "Approvals"): every tool call of the project's
// threads waiting for a human, oldest first, each linking to its thread's live view, where it is
// approved or denied. Polled like the thread list; renders nothing while none waits.
import Link from "next/link";
import { useEffect, useState } from "react";
import type { ApprovalView } from "@/lib/contracts/approval";

const REFRESH_MS = 5000;

export function ApprovalInbox({
  projectId,
  loadPending,
}: {
  projectId: string;
  loadPending: (projectId: string) => Promise<ApprovalView[]>;
}) {
  const [approvals, setApprovals] = useState<ApprovalView[]>([]);
  useEffect(() => {
    let current = true;
    const load = async () => {
      try {
        const pending = await loadPending(projectId);
        if (current) setApprovals(pending);
      } catch {
        // keep the last list; the thread list reports connection problems
      }
    };
    void load();
    const timer = setInterval(() => void load(), REFRESH_MS);
    return () => {
      current = false;
      clearInterval(timer);
    };
  }, [projectId, loadPending]);

  if (approvals.length === 0) return null;
  return (
    <section
      aria-labelledby="approval-inbox-heading"
      data-testid="approval-inbox"
      className="border-b border-border bg-surface-muted/60 px-4 py-2"
    >
      <h3 id="approval-inbox-heading" className="mb-1 flex items-center gap-2 text-sm font-medium">
        <span
          aria-hidden
          className="size-2 rounded-full"
          style={{ backgroundColor: "var(--status-waiting_approval)" }}
        />
        Waiting for approval ({approvals.length})
      </h3>
      <ul className="flex flex-col gap-1 text-sm">
        {approvals.map((approval) => (
          <li key={approval.id} className="flex min-w-0 items-baseline gap-2">
            <span className="font-mono">{approval.tool_name}</span>
            <span className="text-muted">asked by</span>
            <span className="min-w-0 truncate" title={approval.thread_name ?? approval.agent_id}>
              {approval.thread_name ?? approval.agent_id}
            </span>
            <Link
              href={`/threads/${approval.thread_id}`}
              className="ml-auto shrink-0 text-accent underline-offset-2 hover:underline"
              aria-label={`Review ${approval.tool_name} asked by ${approval.thread_name ?? approval.agent_id}`}
            >
              Review
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
