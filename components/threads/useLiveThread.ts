"use client";
// One event stream per root thread, folded into the shared live reducer (lib/live). The stream replays
// from the start on first load; after a drop it reconnects with Last-Event-ID (the last persisted id it
// read), and the reducer ignores anything it has already applied, so nothing is missing or doubled.
// It is read with fetch, not EventSource: no DOM event object per frame, which kept the browser's
// major GC pauses over 50 ms at 100 events/s (docs/benchmarks.md, "UI").
// Frames are folded once per animation frame, not once per event, and outside React in slices of a
// few milliseconds (frame-folder.ts): at 100 events/s (or the burst of a replay) React renders at most
// once per frame, and no burst becomes one long task.
import { useEffect, useState } from "react";
import { createSseStreamReader, initialLiveState, type LiveState, type SseFrame } from "@/lib/live";
import { createFrameFolder } from "./frame-folder";

export type ConnectionState = "connecting" | "open" | "reconnecting";

/** Waits between reconnection attempts: doubling from the first to the last. */
const RETRY_FIRST_MS = 500;
const RETRY_MAX_MS = 5_000;

/** Reads the stream until it ends or fails, handing every complete frame to `onFrame`. */
async function readStream(
  url: string,
  lastEventId: string | null,
  signal: AbortSignal,
  onOpen: () => void,
  onFrame: (frame: SseFrame) => void,
): Promise<void> {
  const response = await fetch(url, {
    headers: { accept: "text/event-stream", ...(lastEventId ? { "last-event-id": lastEventId } : {}) },
    cache: "no-store",
    signal,
  });
  if (!response.ok || !response.body) throw new Error(`event stream answered ${response.status}`);
  onOpen();
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  const frames = createSseStreamReader(onFrame);
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    frames.push(value);
  }
}

export function useLiveThread(rootId: string): { state: LiveState; connection: ConnectionState } {
  const [state, setState] = useState(() => initialLiveState(rootId));
  const [connection, setConnection] = useState<ConnectionState>("connecting");

  useEffect(() => {
    const initial = initialLiveState(rootId);
    setState(initial);
    setConnection("connecting");
    const url = `/api/threads/${encodeURIComponent(rootId)}/events`;
    const controller = new AbortController();
    let lastEventId: string | null = null;
    const folder = createFrameFolder(initial, setState);
    const onFrame = (frame: SseFrame) => {
      if (frame.id) lastEventId = frame.id;
      folder.push(frame);
    };
    void (async () => {
      let wait = RETRY_FIRST_MS;
      while (!controller.signal.aborted) {
        try {
          await readStream(
            url,
            lastEventId,
            controller.signal,
            () => {
              setConnection("open");
              wait = RETRY_FIRST_MS;
            },
            onFrame,
          );
        } catch {
          // dropped or refused: retry below
        }
        if (controller.signal.aborted) return;
        setConnection("reconnecting");
        await new Promise((resolve) => setTimeout(resolve, wait));
        wait = Math.min(RETRY_MAX_MS, wait * 2);
      }
    })();
    return () => {
      controller.abort();
      folder.dispose();
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
