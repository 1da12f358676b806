"use client";
// One eval run as the view shows it: read once (GET /api/eval-runs/:id), then, while it runs, followed
// on its event stream (`progress`, `result`, `run`) read with fetch like the live view. If the stream
// cannot be opened or drops, the run is read again every moment until it has ended, so the bar
// always reaches its end. When the run ends it is read once more for the server's final results.
import { useCallback, useEffect, useState } from "react";
import { createApiClient } from "@/lib/api/client";
import { withResult } from "@/lib/evals/describe";
import { type EvalRun, parseRunEvent } from "@/lib/evals/eval-shapes";
import { createSseStreamReader } from "@/lib/live/sse-stream";
import { describeApiError } from "./eval-ui";

const api = createApiClient();
const POLL_MS = 1_000;

async function followEvents(
  runId: string,
  signal: AbortSignal,
  apply: (update: (run: EvalRun) => EvalRun) => void,
) {
  const response = await fetch(`/api/eval-runs/${encodeURIComponent(runId)}/events`, {
    signal,
    headers: { accept: "text/event-stream" },
  });
  if (!response.ok || !response.body) throw new Error(`The event stream answered ${response.status}.`);
  let ended = false;
  const reader = createSseStreamReader((frame) => {
    const event = parseRunEvent(frame.event, frame.data);
    if (!event) return;
    if (event.kind === "progress")
      apply((run) => ({ ...run, progress: { done: event.done, total: event.total } }));
    else if (event.kind === "result")
      apply((run) => ({ ...run, results: withResult(run.results ?? [], event.result) }));
    else if (event.run.status !== "running") {
      ended = true;
      apply((run) => ({ ...run, ...event.run, results: event.run.results ?? run.results }));
    }
  });
  const decoder = new TextDecoder();
  const body = response.body.getReader();
  while (!ended) {
    const { value, done } = await body.read();
    if (done) break;
    reader.push(decoder.decode(value, { stream: true }));
  }
  await body.cancel().catch(() => undefined);
  return ended;
}

export function useEvalRun(runId: string | null): {
  run: EvalRun | null;
  error: string | null;
  setRun(run: EvalRun): void;
} {
  const [run, setRunState] = useState<EvalRun | null>(null);
  const [error, setError] = useState<string | null>(null);
  const setRun = useCallback((next: EvalRun) => setRunState(next), []);

  useEffect(() => {
    if (!runId) {
      setRunState(null);
      return;
    }
    const controller = new AbortController();
    let current = true;
    const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    const apply = (update: (run: EvalRun) => EvalRun) => {
      if (current)
        setRunState((previous) => (previous && previous.id === runId ? update(previous) : previous));
    };
    const read = async () => {
      const fresh = await api.evals.getRun(runId);
      if (current) setRunState(fresh);
      return fresh;
    };
    (async () => {
      try {
        setError(null);
        let fresh = await read();
        if (fresh.status !== "running") return;
        try {
          await followEvents(runId, controller.signal, apply);
        } catch {
          // The stream is a convenience: reading the run again below gets the same answer.
        }
        fresh = await read();
        while (current && fresh.status === "running") {
          await sleep(POLL_MS);
          if (!current) return;
          fresh = await read();
        }
      } catch (caught) {
        if (current && !controller.signal.aborted)
          setError(describeApiError(caught, "Could not read the run."));
      }
    })();
    return () => {
      current = false;
      controller.abort();
    };
  }, [runId]);

  return { run: run && run.id === runId ? run : null, error, setRun };
}
