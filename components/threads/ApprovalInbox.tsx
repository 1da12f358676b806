"use client";
// The project-wide approval inbox (docs/live.md "Approvals"): every tool call of the project's
// threads waiting for a human, oldest first, each linking to its thread's live view, where it is
// approved or denied. Polled like the thread list; renders nothing while none waits. Each row says
// what tells two calls of one tool apart, as the thread page's cards do: the thread (name and short
// id), the arguments on one line (all of them in the tooltip) and when it was asked.
import Link from "next/link";
import { useEffect, useState } from "react";
import type { ApprovalView } from "@/lib/contracts/approval";
import { buttonClasses } from "../ui/Button";
import { summarizeToolArgs } from "./tool-args-summary";

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
          <InboxRow key={approval.id} approval={approval} />
        ))}
      </ul>
    </section>
  );
}

function InboxRow({ approval }: { approval: ApprovalView }) {
  const threadLabel = approval.thread_name ?? approval.agent_id;
  const shortId = approval.thread_id.slice(0, 6);
  const args = summarizeToolArgs(approval.args);
  const asked = new Date(approval.requested_at / 1000);
  return (
    <li data-testid="approval-inbox-row" className="flex min-w-0 items-center gap-2">
      <span className="shrink-0 font-mono">{approval.tool_name}</span>
      <span className="shrink-0 text-muted">asked by</span>
      <span className="min-w-0 max-w-48 shrink truncate" title={threadLabel}>
        {threadLabel}
      </span>
      <span className="shrink-0 font-mono text-xs text-muted" title={approval.thread_id}>
        #{shortId}
      </span>
      <span
        data-testid="approval-inbox-args"
        className="min-w-0 flex-1 truncate rounded bg-surface px-1.5 py-0.5 font-mono text-xs text-muted"
        title={args.full}
      >
        {args.line}
      </span>
      <time
        className="shrink-0 text-xs text-muted"
        dateTime={asked.toISOString()}
        title={asked.toLocaleString()}
      >
        {asked.toLocaleTimeString()}
      </time>
      <Link
        href={`/threads/${approval.thread_id}`}
        className={`shrink-0 ${buttonClasses("secondary", "compact")}`}
        aria-label={`Review ${approval.tool_name} asked by ${threadLabel} #${shortId}`}
      >
        Review
      </Link>
    </li>
  );
}
