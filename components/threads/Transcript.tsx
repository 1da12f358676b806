"use client";
// The selected thread's messages in order, then any text still streaming in (message_chunk), both
// as markdown. A tool call without its result yet says so: running (or awaiting approval) while the
// thread works, "no result" once it stopped without one. A subagent report reads as a handoff from
// that child, and an approval the thread asked for follows the call that asked, with its answer.
// While the thread's model call waits on its provider (rate limited, unavailable), a status line
// says so and counts down to the next attempt.
import { Fragment, useEffect, useMemo, useRef, useState } from "react";
import type { ApprovalView } from "@/lib/contracts/approval";
import {
  getEntry,
  type LiveMessage,
  type LiveState,
  mapValues,
  selectRegistry,
  selectStreamingMessages,
  selectTelemetry,
  selectTranscript,
} from "@/lib/live";
import type { ModelWait } from "@/lib/live/state";
import { ApprovalItem } from "./ApprovalItem";
import type { AgentInfo } from "./agent-info";
import { StreamingMarkdown } from "./ChatMarkdown";
import { parseToolCalls } from "./format";
import { MessageRow, type PendingCallState, type SideLabels } from "./MessageRow";
import { modelWaitText } from "./model-wait-text";

/**
 * The ids of each message's tool calls that no tool message answers (yet), comma-joined per message
 * id (a string, so the memoised rows compare it by value). Only messages with such calls are listed.
 */
export function unansweredToolCalls(messages: readonly LiveMessage[]): ReadonlyMap<string, string> {
  const answered = new Set<string>();
  for (const message of messages) {
    if (message.role === "tool" && message.tool_call_id) answered.add(message.tool_call_id);
  }
  const unanswered = new Map<string, string>();
  for (const message of messages) {
    if (message.role !== "assistant" || !message.tool_calls) continue;
    const open = parseToolCalls(message.tool_calls).filter((call) => !answered.has(call.id));
    if (open.length > 0) unanswered.set(message.id, open.map((call) => call.id).join(","));
  }
  return unanswered;
}

/** The thread's approvals by the tool call that asked for them. */
function approvalsByCall(state: LiveState, threadId: string): ReadonlyMap<string, ApprovalView> {
  const byCall = new Map<string, ApprovalView>();
  for (const approval of mapValues(state.approvals)) {
    if (approval.thread_id === threadId) byCall.set(approval.tool_call_id, approval);
  }
  return byCall;
}

/** The thread's children by reference: their name and agent ("ada (writer)"), or the agent alone. */
function childLabelsOf(state: LiveState, threadId: string): Readonly<Record<string, string>> {
  const labels: Record<string, string> = {};
  for (const entry of selectRegistry(state, threadId)) {
    const name = entry.threadName ?? entry.name;
    labels[entry.reference] = name && name !== entry.agent ? `${name} (${entry.agent})` : entry.agent;
  }
  return labels;
}

/** The wait announced by a `model_wait` event, counting down each second. */
function ModelWaitNotice({ wait }: { wait: ModelWait }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  return (
    <p
      role="status"
      aria-label="Waiting on the model provider"
      className="mt-2 rounded-md border border-warning bg-warning/10 px-3 py-2 text-sm"
    >
      {modelWaitText(wait, now)}
    </p>
  );
}

function pendingCallState(status: string | undefined): PendingCallState {
  if (status === "waiting_approval") return "awaiting approval";
  if (status === "queued" || status === "running") return "running…";
  return "no result";
}

export function Transcript({
  state,
  threadId,
  sideLabels,
  agents,
  onFork,
}: {
  state: LiveState;
  threadId: string;
  sideLabels: SideLabels | null;
  agents: Readonly<Record<string, AgentInfo>>;
  /** Offers "Fork from here" on each message (a stable callback). */
  onFork?: (message: LiveMessage, mode: "fork" | "edit") => void;
}) {
  const messages = selectTranscript(state, threadId);
  // Keyed on the messages array, which changes only when a message arrives (not on each chunk).
  const unanswered = useMemo(() => unansweredToolCalls(messages), [messages]);
  const pendingState = pendingCallState(getEntry(state.threads, threadId)?.status);
  const streaming = selectStreamingMessages(state, threadId);
  // Keyed on the approvals map, which changes only when an approval does.
  // biome-ignore lint/correctness/useExhaustiveDependencies: state.approvals stands for the approvals.
  const approvals = useMemo(() => approvalsByCall(state, threadId), [state.approvals, threadId]);
  const registry = getEntry(state.registries, threadId);
  // Keyed on the registry, which changes only when a child of this thread does.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the registry object stands for its entries.
  const childLabels = useMemo(() => childLabelsOf(state, threadId), [registry, threadId]);
  const status = getEntry(state.threads, threadId)?.status;
  const modelWait = selectTelemetry(state, threadId).modelWait;
  // Shown while the thread still runs and no reply streams yet (the next attempt's text replaces it).
  const waiting =
    modelWait !== null && (status === "running" || status === "queued") && streaming.length === 0
      ? modelWait
      : null;
  const end = useRef<HTMLDivElement>(null);
  const count = messages.length + streaming.reduce((total, stream) => total + stream.text.length, 0);

  useEffect(() => {
    if (count > 0) end.current?.scrollIntoView({ block: "nearest" });
  }, [count]);

  return (
    <section
      aria-label="Transcript"
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region takes focus so that a keyboard scrolls it (WCAG 2.1.1).
      tabIndex={0}
      className="flex min-h-0 flex-1 flex-col overflow-y-auto p-3 focus-visible:outline-2 focus-visible:outline-accent"
    >
      {messages.length === 0 && streaming.length === 0 ? (
        <p className="text-muted">No messages yet.</p>
      ) : null}
      <ol aria-label="Messages" className="flex flex-col gap-2">
        {messages.map((message) => (
          <Fragment key={message.id}>
            <MessageRow
              message={message}
              threadId={threadId}
              sideLabels={sideLabels}
              agents={agents}
              unansweredCalls={unanswered.get(message.id) ?? ""}
              pendingState={pendingState}
              childLabels={childLabels}
              {...(onFork ? { onFork } : {})}
            />
            {message.tool_calls
              ? parseToolCalls(message.tool_calls).map((call) => {
                  const approval = approvals.get(call.id);
                  return approval ? <ApprovalItem key={approval.id} approval={approval} /> : null;
                })
              : null}
          </Fragment>
        ))}
      </ol>
      {streaming.map((stream) => (
        <div
          key={stream.messageId}
          role="status"
          aria-label="Streaming reply"
          className="mt-2 rounded-md border border-border border-dashed px-3 py-2"
        >
          <div className="mb-1 text-xs text-muted">
            {stream.side && sideLabels ? sideLabels[stream.side] : "Assistant"} · typing…
          </div>
          <StreamingMarkdown text={stream.text} />
        </div>
      ))}
      {waiting ? <ModelWaitNotice key={`${waiting.at}`} wait={waiting} /> : null}
      <div ref={end} />
    </section>
  );
}
