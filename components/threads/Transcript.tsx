"use client";
// The selected thread's messages in order, then any text still streaming in (message_chunk), both
// as markdown.
import { useEffect, useRef } from "react";
import { type LiveMessage, type LiveState, selectStreamingMessages, selectTranscript } from "@/lib/live";
import type { AgentInfo } from "./agent-info";
import { StreamingMarkdown } from "./ChatMarkdown";
import { MessageRow, type SideLabels } from "./MessageRow";

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
  const streaming = selectStreamingMessages(state, threadId);
  const end = useRef<HTMLDivElement>(null);
  const count = messages.length + streaming.reduce((total, stream) => total + stream.text.length, 0);

  useEffect(() => {
    if (count > 0) end.current?.scrollIntoView({ block: "nearest" });
  }, [count]);

  return (
    <section aria-label="Transcript" className="flex min-h-0 flex-1 flex-col overflow-y-auto p-3">
      {messages.length === 0 && streaming.length === 0 ? (
        <p className="text-muted">No messages yet.</p>
      ) : null}
      <ol aria-label="Messages" className="flex flex-col gap-2">
        {messages.map((message) => (
          <MessageRow
            key={message.id}
            message={message}
            threadId={threadId}
            sideLabels={sideLabels}
            agents={agents}
            {...(onFork ? { onFork } : {})}
          />
        ))}
      </ol>
      {streaming.map((stream) => (
        <div
          key={stream.messageId}
          role="status"
          aria-label="Streaming reply"
          className="mt-2 rounded-md border border-border border-dashed px-3 py-2"
        >
          <div className="mb-1 text-xs text-muted">Assistant · typing…</div>
          <StreamingMarkdown text={stream.text} />
        </div>
      ))}
      <div ref={end} />
    </section>
  );
}
