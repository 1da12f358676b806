"use client";
// Tool calls waiting for a human (docs/live.md "Approvals"): the tool, the thread that asked, its
// arguments as editable JSON, and Approve / Deny with a reason — the one component every place that
// shows a pending approval uses: the thread page and the studio's playground (the list from the live
// state's `approval` events, so a decision made elsewhere removes the card there too) and the
// project page's inbox (polled; its thread names link to the thread). The cards lay out by the
// width of their panel (a container query), so the playground's narrow column stacks them.
import Link from "next/link";
import { useId, useState } from "react";
import type { ApprovalView } from "@/lib/contracts/approval";
import { Gated } from "../access/Gated";
import { refusal, usePermission } from "../access/permission";
import { Button } from "../ui/Button";

export type DecideApproval = (
  approvalId: string,
  decision: { decision: "approve" | "deny"; args?: unknown; reason?: string },
) => Promise<unknown>;

/** Where a card's thread name leads: a thread of the tree on this page, or another page. */
export type ShowThread =
  | { onShowThread: (threadId: string) => void }
  | { threadHref: (threadId: string) => string };

export function ApprovalsPanel({
  approvals,
  threadLabel,
  decide,
  testId = "approvals-panel",
  className = "max-h-[45vh] px-4",
  ...show
}: {
  approvals: readonly ApprovalView[];
  /** The display label of a thread of the tree (its name, else its agent). */
  threadLabel: (threadId: string) => string;
  decide: DecideApproval;
  testId?: string;
  /** Height and padding of the panel where it is placed. */
  className?: string;
} & ShowThread) {
  const headingId = useId();
  if (approvals.length === 0) return null;
  return (
    <section
      aria-labelledby={headingId}
      data-testid={testId}
      className={`@container shrink-0 overflow-y-auto border-b border-border bg-surface-muted/60 py-2 ${className}`}
    >
      <h2 id={headingId} className="mb-2 flex items-center gap-2 text-sm font-medium">
        <span
          aria-hidden
          className="size-2 rounded-full"
          style={{ backgroundColor: "var(--status-waiting_approval)" }}
        />
        Waiting for approval ({approvals.length})
      </h2>
      <ul className="flex flex-col gap-2">
        {approvals.map((approval) => (
          <li key={approval.id}>
            <ApprovalCard
              approval={approval}
              threadLabel={threadLabel(approval.thread_id)}
              show={show}
              decide={decide}
            />
          </li>
        ))}
      </ul>
    </section>
  );
}

function ApprovalCard({
  approval,
  threadLabel,
  show,
  decide,
}: {
  approval: ApprovalView;
  threadLabel: string;
  show: ShowThread;
  decide: DecideApproval;
}) {
  const asked = JSON.stringify(approval.args ?? {}, null, 2);
  const [argsText, setArgsText] = useState(asked);
  const [reason, setReason] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // A viewer reads the call and its arguments, but Approve and Deny are a runner's (the role table).
  const refused = refusal(usePermission("approve"));
  const argsId = `approval-args-${approval.id}`;
  const reasonId = `approval-reason-${approval.id}`;

  async function submit(kind: "approve" | "deny") {
    setError(null);
    let args: unknown;
    if (kind === "approve" && argsText.trim() !== asked.trim()) {
      try {
        args = JSON.parse(argsText);
      } catch {
        setError("The arguments are not valid JSON.");
        return;
      }
    }
    setBusy(true);
    try {
      await decide(approval.id, {
        decision: kind,
        ...(args !== undefined ? { args } : {}),
        ...(kind === "deny" && reason.trim() ? { reason: reason.trim() } : {}),
      });
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : String(caught));
      setBusy(false);
    }
  }

  return (
    <article
      data-testid="approval-card"
      aria-label={`Approval for ${approval.tool_name} asked by ${threadLabel}`}
      className="rounded-md border border-border bg-surface p-3"
    >
      <header className="mb-2 flex flex-wrap items-baseline gap-x-2 gap-y-1 text-sm">
        <span className="font-mono font-medium">{approval.tool_name}</span>
        <span className="text-muted">asked by</span>
        {"threadHref" in show ? (
          <Link
            href={show.threadHref(approval.thread_id)}
            className="max-w-[20rem] truncate font-medium text-accent underline underline-offset-2"
            title={`Open thread ${threadLabel}`}
          >
            {threadLabel}
          </Link>
        ) : (
          <button
            type="button"
            onClick={() => show.onShowThread(approval.thread_id)}
            className="max-w-[20rem] truncate font-medium text-accent underline-offset-2 hover:underline"
            title={`Show thread ${threadLabel}`}
          >
            {threadLabel}
          </button>
        )}
        <span className="font-mono text-xs text-muted" title={approval.thread_id}>
          #{approval.thread_id.slice(0, 6)}
        </span>
        <time
          className="ml-auto text-xs text-muted"
          dateTime={new Date(approval.requested_at / 1000).toISOString()}
        >
          {new Date(approval.requested_at / 1000).toLocaleTimeString()}
        </time>
      </header>
      <div className="flex flex-col gap-2 @2xl:flex-row @2xl:items-stretch">
        <div className="flex min-w-0 flex-1 flex-col">
          <label htmlFor={argsId} className="mb-1 text-xs text-muted">
            Arguments (JSON; edit them to run the call with yours)
          </label>
          <textarea
            id={argsId}
            value={argsText}
            onChange={(event) => setArgsText(event.target.value)}
            readOnly={refused !== null}
            spellCheck={false}
            rows={Math.min(8, Math.max(3, argsText.split("\n").length))}
            className="w-full flex-1 resize-y rounded-md border border-border bg-background p-2 font-mono text-xs"
          />
        </div>
        <div className="flex flex-col justify-end gap-2 @2xl:w-72">
          <div className="flex flex-col">
            <label htmlFor={reasonId} className="mb-1 text-xs text-muted">
              Reason (the model reads it when you deny)
            </label>
            <input
              id={reasonId}
              value={reason}
              onChange={(event) => setReason(event.target.value)}
              readOnly={refused !== null}
              className="h-8 rounded-md border border-border bg-background px-2 text-sm"
            />
          </div>
          <div className="flex justify-end gap-2">
            <Gated reason={refused}>
              <Button
                tone="primary"
                disabled={busy || refused !== null}
                onClick={() => void submit("approve")}
              >
                Approve
              </Button>
            </Gated>
            <Gated reason={refused}>
              <Button tone="danger" disabled={busy || refused !== null} onClick={() => void submit("deny")}>
                Deny
              </Button>
            </Gated>
          </div>
        </div>
      </div>
      {error ? (
        <p role="alert" className="mt-2 text-sm text-danger">
          {error}
        </p>
      ) : null}
    </article>
  );
}
