// One transcript message: who said it (role and side), its text as markdown, tool calls and results
// folded away, a marker for silent messages and for handoffs, and attachments (download links, a
// preview for images).
import { memo } from "react";
import { threadFileUrl } from "@/lib/api/client";
import type { LiveMessage } from "@/lib/live";
import type { AgentInfo } from "./agent-info";
import { ChatMarkdown } from "./ChatMarkdown";
import { handoffTargetOf, parseToolCalls } from "./format";
import { formatBytes } from "./inspect-format";
import { type ReportSegment, splitSubagentReports } from "./subagent-report";

export type SideLabels = { a: string; b: string };

/** What a tool call without a result shows: by the thread's status (Transcript's pendingCallState). */
export type PendingCallState = "running…" | "awaiting approval" | "no result";

export function speakerOf(message: LiveMessage, sideLabels: SideLabels | null): string {
  if (message.role === "tool") return `Tool result${message.name ? ` · ${message.name}` : ""}`;
  if (message.role === "system") return "System";
  // In a dual_ai thread each side sees the other as "user", so the side says who spoke, not the role.
  if (message.side && sideLabels) return sideLabels[message.side];
  return message.role === "user" ? "User" : "Assistant";
}

/** "Billing (billing)" when the agent has a title, else its name. */
export function agentLabel(agentId: string, agents: Readonly<Record<string, AgentInfo>>): string {
  const title = agents[agentId]?.title;
  return title && title !== agentId ? `${title} (${agentId})` : agentId;
}

function Attachments({ message, threadId }: { message: LiveMessage; threadId: string }) {
  return (
    <ul aria-label="Attachments" className="mt-2 flex flex-wrap gap-2 text-sm">
      {message.attachments.map((attachment) => {
        const url = threadFileUrl(threadId, attachment.path);
        return (
          <li key={attachment.id} className="rounded-md border border-border bg-surface px-2 py-1">
            {attachment.mimeType?.startsWith("image/") ? (
              <a href={url} target="_blank" rel="noopener noreferrer" className="mb-1 block">
                {/* biome-ignore lint/performance/noImgElement: a thread file behind the API (and its token), not a static asset next/image could optimise. */}
                <img src={url} alt={attachment.name} loading="lazy" className="max-h-40 max-w-60 rounded" />
              </a>
            ) : null}
            <a className="text-accent underline" href={url} download={attachment.name}>
              {attachment.name}
            </a>
            {attachment.size !== undefined ? (
              <span className="ml-1 text-xs text-muted">{formatBytes(attachment.size)}</span>
            ) : null}
          </li>
        );
      })}
    </ul>
  );
}

const NO_LABELS: Readonly<Record<string, string>> = {};

/** A child's report shown as a handoff back from that child: who reported, how it ended, what it said. */
function ReportHandoff({
  report,
  childLabels,
}: {
  report: Extract<ReportSegment, { kind: "report" }>;
  childLabels: Readonly<Record<string, string>>;
}) {
  const from = childLabels[report.reference] ?? `subagent ${report.reference.slice(0, 8)}`;
  return (
    <div
      data-testid="subagent-report"
      data-reference={report.reference}
      className={`my-1 rounded-md border-l-4 px-3 py-1.5 ${
        report.outcome === "failure" ? "border-danger/60 bg-danger/5" : "border-accent/50 bg-accent/5"
      }`}
    >
      <p className="text-xs font-medium">
        {report.outcome === "failure" ? "Failure reported by " : "Handed back by "}
        <span title={report.reference}>{from}</span>
      </p>
      {report.body ? <ChatMarkdown text={report.body} /> : null}
    </div>
  );
}

/** Memoised: live messages are immutable objects, so a transcript re-renders only new or changed rows. */
export const MessageRow = memo(function MessageRow({
  message,
  threadId,
  sideLabels,
  agents,
  unansweredCalls = "",
  pendingState = "no result",
  onFork,
  childLabels = NO_LABELS,
}: {
  message: LiveMessage;
  threadId: string;
  sideLabels: SideLabels | null;
  /** The thread's children by reference ("ada (writer)"), for the reports they hand back (a stable object). */
  childLabels?: Readonly<Record<string, string>>;
  /** The project's agents (a stable object), for the titles a handoff marker shows. */
  agents: Readonly<Record<string, AgentInfo>>;
  /** Ids of this message's tool calls that have no result yet, comma-joined ("" for none). */
  unansweredCalls?: string;
  /** What those calls show, from the thread's status. */
  pendingState?: PendingCallState;
  /** "Fork from here" (and "Edit and fork" on a user message); a stable callback, or none. */
  onFork?: (message: LiveMessage, mode: "fork" | "edit") => void;
}) {
  const handoffTarget = handoffTargetOf(message);
  if (handoffTarget) {
    return (
      <li
        data-testid="message"
        data-message-id={message.id}
        data-role={message.role}
        data-handoff-to={handoffTarget}
        aria-label="Handoff"
        className="rounded-md border border-accent/40 border-l-4 bg-accent/5 px-3 py-2"
      >
        <p className="font-medium">
          Handed off to <span className="text-accent">{agentLabel(handoffTarget, agents)}</span>
        </p>
        <details className="text-xs text-muted">
          <summary className="cursor-pointer py-1">Tool result · {message.name ?? handoffTarget}</summary>
          <pre className="mt-1 whitespace-pre-wrap break-words">{message.content}</pre>
        </details>
      </li>
    );
  }
  const toolCalls = parseToolCalls(message.tool_calls);
  const unanswered = new Set(unansweredCalls ? unansweredCalls.split(",") : []);
  const speaker = speakerOf(message, sideLabels);
  const isToolResult = message.role === "tool";
  const segments = message.content ? splitSubagentReports(message.content) : [];
  return (
    <li
      data-testid="message"
      data-message-id={message.id}
      data-role={message.role}
      aria-label={`${speaker}${message.silent ? " (silent)" : ""}`}
      className={`group rounded-md border px-3 py-2 ${
        message.role === "user" ? "border-accent/30 bg-accent/5" : "border-border bg-surface"
      } ${message.silent ? "border-dashed" : ""}`}
    >
      <div className="mb-1 flex items-center gap-2 text-xs text-muted">
        <span className="font-medium">{speaker}</span>
        {message.silent ? <span className="rounded border border-border px-1">silent</span> : null}
        {message.tool_status === "error" ? <span className="text-danger">error</span> : null}
        {message.subagent_id ? (
          <span className="font-mono">from {message.subagent_id.slice(0, 8)}</span>
        ) : null}
        {onFork ? (
          <span className="ml-auto flex gap-1 opacity-0 transition-opacity group-hover:opacity-100 group-focus-within:opacity-100">
            {message.role === "user" ? (
              <button
                type="button"
                onClick={() => onFork(message, "edit")}
                className="min-h-6 rounded border border-border bg-surface px-1.5 py-0.5 text-text hover:bg-surface-muted"
              >
                Edit and fork
              </button>
            ) : null}
            <button
              type="button"
              onClick={() => onFork(message, "fork")}
              className="min-h-6 rounded border border-border bg-surface px-1.5 py-0.5 text-text hover:bg-surface-muted"
            >
              Fork from here
            </button>
          </span>
        ) : null}
      </div>
      {segments.some((segment) => segment.kind === "report") ? (
        segments.map((segment, index) =>
          segment.kind === "text" ? (
            // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one immutable message, in order.
            <ChatMarkdown key={index} text={segment.text} />
          ) : (
            // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one immutable message, in order.
            <ReportHandoff key={index} report={segment} childLabels={childLabels} />
          ),
        )
      ) : isToolResult ? (
        <details>
          <summary className="cursor-pointer py-1 text-sm">Result</summary>
          <pre className="mt-1 whitespace-pre-wrap break-words text-sm">{message.content}</pre>
        </details>
      ) : message.content ? (
        <ChatMarkdown text={message.content} />
      ) : null}
      {toolCalls.map((call) => (
        <details key={call.id} className="mt-1">
          <summary className="cursor-pointer py-1 font-mono text-sm">
            Tool call · {call.name}
            {unanswered.has(call.id) ? (
              <span
                data-testid="tool-call-pending"
                className={`ml-2 inline-flex items-center gap-1 rounded-full border border-border px-1.5 font-sans text-xs ${
                  pendingState === "no result" ? "text-muted" : "text-text"
                }`}
              >
                {pendingState === "running…" ? (
                  <span
                    aria-hidden
                    className="size-1.5 animate-pulse rounded-full"
                    style={{ background: "var(--status-running)" }}
                  />
                ) : null}
                {pendingState}
              </span>
            ) : null}
          </summary>
          <pre className="mt-1 whitespace-pre-wrap break-words text-xs text-muted">{call.args}</pre>
        </details>
      ))}
      {message.attachments.length > 0 ? <Attachments message={message} threadId={threadId} /> : null}
    </li>
  );
});
