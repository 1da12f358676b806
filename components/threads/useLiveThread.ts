"use client";
// One EventSource per root thread, folded into the shared live reducer (lib/live). The stream replays
// from the start on first load; after a drop the browser reconnects by itself and sends Last-Event-ID,
// and the reducer ignores anything it has already applied, so nothing is missing or doubled.
import { useEffect, useReducer, useState } from "react";
import { applySseFrame, initialLiveState, type LiveState, type SseFrame } from "@/lib/live";

const EVENT_NAMES = ["thread", "message", "message_chunk", "registry", "telemetry"] as const;

export type ConnectionState = "connecting" | "open" | "reconnecting";

type Action = { type: "frame"; frame: SseFrame } | { type: "reset"; rootId: string };

function liveReducer(state: LiveState, action: Action): LiveState {
  return action.type === "reset" ? initialLiveState(action.rootId) : applySseFrame(state, action.frame);
}

export function useLiveThread(rootId: string): { state: LiveState; connection: ConnectionState } {
  const [state, dispatch] = useReducer(liveReducer, rootId, initialLiveState);
  const [connection, setConnection] = useState<ConnectionState>("connecting");

  useEffect(() => {
    dispatch({ type: "reset", rootId });
    setConnection("connecting");
    const source = new EventSource(`/api/threads/${encodeURIComponent(rootId)}/events`);
    const onFrame = (event: MessageEvent<string>) =>
      dispatch({ type: "frame", frame: { event: event.type, data: event.data, id: event.lastEventId } });
    for (const name of EVENT_NAMES) source.addEventListener(name, onFrame);
    source.onopen = () => setConnection("open");
    source.onerror = () => setConnection("reconnecting");
    return () => source.close();
  }, [rootId]);

  return { state, connection };
}

/** The current time in microseconds, refreshed every second while `active` (for "time running"). */
export function useNowMicroseconds(active: boolean): number {
  const [now, setNow] = useState(() => Date.now() * 1000);
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => setNow(Date.now() * 1000), 1000);
    return () => clearInterval(timer);
  }, [active]);
  return now;
}
