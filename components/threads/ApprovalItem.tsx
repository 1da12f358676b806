// An approval in the transcript (issue 41): the request a `requiresApproval` tool call made, shown
// right after the message that called it, and its answer — waiting, approved, approved with edited
// arguments, denied (with the reason), or cancelled. Deciding happens in the approvals panel above.
import type { ApprovalView } from "@/lib/contracts/approval";

/** One approval's state in words, with the reason or the edited arguments when there are any. */
export function approvalOutcome(approval: ApprovalView): {
  text: string;
  tone: "waiting" | "ok" | "problem";
} {
  if (approval.state === "pending") return { text: "Waiting for a decision", tone: "waiting" };
  if (approval.state === "approved")
    return approval.decided_args !== undefined && approval.decided_args !== null
      ? { text: "Approved with edited arguments", tone: "ok" }
      : { text: "Approved", tone: "ok" };
  if (approval.state === "denied")
    return { text: approval.reason ? `Denied: ${approval.reason}` : "Denied", tone: "problem" };
  return { text: "Cancelled: the thread was terminated", tone: "problem" };
}

const pretty = (value: unknown) => JSON.stringify(value, null, 2) ?? "";

export function ApprovalItem({ approval }: { approval: ApprovalView }) {
  const outcome = approvalOutcome(approval);
  const edited = approval.state === "approved" && outcome.text.startsWith("Approved with");
  return (
    <li
      data-testid="approval-item"
      data-state={approval.state}
      aria-label={`Approval of ${approval.tool_name}: ${outcome.text}`}
      className={`rounded-md border border-l-4 px-3 py-2 text-sm ${
        outcome.tone === "problem"
          ? "border-danger/50 bg-danger/5"
          : outcome.tone === "ok"
            ? "border-accent/50 bg-surface"
            : "border-warning/60 bg-warning/10"
      }`}
    >
      <p className="text-xs text-muted">
        <span className="font-medium text-text">Approval</span> · {approval.tool_name}
      </p>
      <p className={`font-medium ${outcome.tone === "problem" ? "text-danger" : "text-text"}`}>
        {outcome.text}
      </p>
      <details className="mt-1">
        <summary className="cursor-pointer py-1 text-xs">
          {edited ? "Arguments: asked, then run" : "Arguments"}
        </summary>
        <pre className="mt-1 whitespace-pre-wrap break-words text-xs text-muted">{pretty(approval.args)}</pre>
        {edited ? (
          <pre className="mt-1 whitespace-pre-wrap break-words text-xs">{pretty(approval.decided_args)}</pre>
        ) : null}
      </details>
    </li>
  );
}
