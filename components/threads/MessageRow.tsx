// One transcript message: who said it (role and side), its text, tool calls and results folded
// away, a marker for silent messages and download links for attachments.
import { memo } from "react";
import type { LiveMessage } from "@/lib/live";
import { parseToolCalls } from "./format";

export type SideLabels = { a: string; b: string };

export function speakerOf(message: LiveMessage, sideLabels: SideLabels | null): string {
  if (message.role === "tool") return `Tool result${message.name ? ` · ${message.name}` : ""}`;
  if (message.role === "system") return "System";
  // In a dual_ai thread each side sees the other as "user", so the side says who spoke, not the role.
  if (message.side && sideLabels) return sideLabels[message.side];
  return message.role === "user" ? "User" : "Assistant";
}

function fileUrl(threadId: string, path: string): string {
  const segments = path.replace(/^\/+/, "").split("/").map(encodeURIComponent).join("/");
  return `/api/threads/${encodeURIComponent(threadId)}/fs/${segments}`;
}

/** Memoised: live messages are immutable objects, so a transcript re-renders only new or changed rows. */
export const MessageRow = memo(function MessageRow({
  message,
  threadId,
  sideLabels,
}: {
  message: LiveMessage;
  threadId: string;
  sideLabels: SideLabels | null;
}) {
  const toolCalls = parseToolCalls(message.tool_calls);
  const speaker = speakerOf(message, sideLabels);
  const isToolResult = message.role === "tool";
  return (
    <li
      data-testid="message"
      data-message-id={message.id}
      data-role={message.role}
      aria-label={`${speaker}${message.silent ? " (silent)" : ""}`}
      className={`rounded-md border px-3 py-2 ${
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
      </div>
      {isToolResult ? (
        <details>
          <summary className="cursor-pointer text-sm">Result</summary>
          <pre className="mt-1 whitespace-pre-wrap break-words text-sm">{message.content}</pre>
        </details>
      ) : message.content ? (
        <p className="whitespace-pre-wrap break-words">{message.content}</p>
      ) : null}
      {toolCalls.map((call) => (
        <details key={call.id} className="mt-1">
          <summary className="cursor-pointer font-mono text-sm">Tool call · {call.name}</summary>
          <pre className="mt-1 whitespace-pre-wrap break-words text-xs text-muted">{call.args}</pre>
        </details>
      ))}
      {message.attachments.length > 0 ? (
        <ul aria-label="Attachments" className="mt-1 flex flex-wrap gap-2 text-sm">
          {message.attachments.map((attachment) => (
            <li key={attachment.id}>
              <a className="underline" href={fileUrl(threadId, attachment.path)} download={attachment.name}>
                {attachment.name}
              </a>
            </li>
          ))}
        </ul>
      ) : null}
    </li>
  );
});
