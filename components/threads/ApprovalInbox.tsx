"use client";
// The project-wide approval inbox (docs/live.md "Approvals"): every tool call of the project's
// threads waiting for a human, oldest first, answered right here — approve (with edited arguments)
// or deny with a reason — with the same cards as the thread page and the playground
// (ApprovalsPanel); each names its thread (name and short id) and links to its live view. Polled
// like the thread list, and read again right after a decision; renders nothing while none waits.
import { useCallback, useEffect, useState } from "react";
import type { ApprovalView } from "@/lib/contracts/approval";
import { ApprovalsPanel, type DecideApproval } from "./ApprovalsPanel";

const REFRESH_MS = 5000;

export function ApprovalInbox({
  projectId,
  loadPending,
  decide,
}: {
  projectId: string;
  loadPending: (projectId: string) => Promise<ApprovalView[]>;
  decide: DecideApproval;
}) {
  const [approvals, setApprovals] = useState<ApprovalView[]>([]);
  const load = useCallback(async () => {
    try {
      return await loadPending(projectId);
    } catch {
      return null; // keep the last list; the thread list reports connection problems
    }
  }, [projectId, loadPending]);
  useEffect(() => {
    let current = true;
    const refresh = async () => {
      const pending = await load();
      if (current && pending) setApprovals(pending);
    };
    void refresh();
    const timer = setInterval(() => void refresh(), REFRESH_MS);
    return () => {
      current = false;
      clearInterval(timer);
    };
  }, [load]);

  const decideHere: DecideApproval = async (approvalId, decision) => {
    const decided = await decide(approvalId, decision);
    setApprovals((current) => current.filter((approval) => approval.id !== approvalId));
    const pending = await load();
    if (pending) setApprovals(pending);
    return decided;
  };

  const labels = new Map(
    approvals.map((approval) => [approval.thread_id, approval.thread_name ?? approval.agent_id]),
  );
  return (
    <div id="approvals" data-testid="approval-inbox">
      <ApprovalsPanel
        approvals={approvals}
        threadLabel={(threadId) => labels.get(threadId) ?? threadId.slice(0, 6)}
        threadHref={(threadId) => `/threads/${threadId}`}
        decide={decideHere}
        testId="approval-inbox-panel"
        className="max-h-[60vh] px-4"
      />
    </div>
  );
}
