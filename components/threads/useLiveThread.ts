"use client";
// One EventSource per root thread, folded into the shared live reducer (lib/live). The stream replays
// from the start on first load; after a drop the browser reconnects by itself and sends Last-Event-ID,
// and the reducer ignores anything it has already applied, so nothing is missing or doubled.
// Frames are folded once per animation frame, not once per event: at 100 events/s (or the burst of a
// replay) React renders at most once per frame (docs/benchmarks.md, "UI").
import { useEffect, useReducer, useState } from "react";
import { applySseFrame, initialLiveState, type LiveState, type SseFrame } from "@/lib/live";

const EVENT_NAMES = ["thread", "message", "message_chunk", "registry", "telemetry"] as const;

export type ConnectionState = "connecting" | "open" | "reconnecting";

/** A hidden tab gets no animation frames: frames are still folded at least this often. */
const MAX_BATCH_DELAY_MS = 250;

type Action = { type: "frames"; frames: readonly SseFrame[] } | { type: "reset"; rootId: string };

function liveReducer(state: LiveState, action: Action): LiveState {
  if (action.type === "reset") return initialLiveState(action.rootId);
  let next = state;
  for (const frame of action.frames) next = applySseFrame(next, frame);
  return next;
}

export function useLiveThread(rootId: string): { state: LiveState; connection: ConnectionState } {
  const [state, dispatch] = useReducer(liveReducer, rootId, initialLiveState);
  const [connection, setConnection] = useState<ConnectionState>("connecting");

  useEffect(() => {
    dispatch({ type: "reset", rootId });
    setConnection("connecting");
    const source = new EventSource(`/api/threads/${encodeURIComponent(rootId)}/events`);
    let pending: SseFrame[] = [];
    let frameRequest = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const flush = () => {
      cancelAnimationFrame(frameRequest);
      clearTimeout(timer);
      frameRequest = 0;
      timer = undefined;
      const frames = pending;
      pending = [];
      if (frames.length > 0) dispatch({ type: "frames", frames });
    };
    const onFrame = (event: MessageEvent<string>) => {
      pending.push({ event: event.type, data: event.data, id: event.lastEventId });
      if (timer !== undefined) return;
      frameRequest = requestAnimationFrame(flush);
      timer = setTimeout(flush, MAX_BATCH_DELAY_MS);
    };
    for (const name of EVENT_NAMES) source.addEventListener(name, onFrame);
    source.onopen = () => setConnection("open");
    source.onerror = () => setConnection("reconnecting");
    return () => {
      source.close();
      cancelAnimationFrame(frameRequest);
      clearTimeout(timer);
    };
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
