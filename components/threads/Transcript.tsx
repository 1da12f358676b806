"use client";
// The selected thread's messages in order, then any text still streaming in (message_chunk).
import { useEffect, useRef } from "react";
import { type LiveState, selectStreamingMessages, selectTranscript } from "@/lib/live";
import { MessageRow, type SideLabels } from "./MessageRow";

export function Transcript({
  state,
  threadId,
  sideLabels,
}: {
  state: LiveState;
  threadId: string;
  sideLabels: SideLabels | null;
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
          <MessageRow key={message.id} message={message} threadId={threadId} sideLabels={sideLabels} />
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
          <p className="whitespace-pre-wrap break-words">{stream.text}</p>
        </div>
      ))}
      <div ref={end} />
    </section>
  );
}
