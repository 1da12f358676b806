"use client";
// The runtime's load in the studio's status line (issue 19, "backpressure you can see"): threads
// running and waiting, model calls in flight, polled from GET /api/health every few seconds while
// the tab is visible, and every second while the playground follows a run. The followed run's own
// stream says at once when its threads start or stop: each change polls again, and between polls the
// line counts at least the run's threads at work, so it never says "idle" beside a running tree, nor
// "running" long after it stopped. Says nothing when the server does not report its load.
import { useEffect, useState } from "react";
import { createApiClient } from "@/lib/api/client";
import type { RuntimeLoad } from "@/lib/contracts/runtime-load";
import { runtimeLoadText } from "@/lib/studio/runtime-load-text";
import { usePlayground } from "./PlaygroundContext";

const POLL_MS = 4000;
const POLL_DURING_RUN_MS = 1000;

export function RuntimeLoadIndicator() {
  const [load, setLoad] = useState<RuntimeLoad | null>(null);
  const followedRun = usePlayground((state) => (state.open ? (state.run?.rootId ?? null) : null));
  // Threads of the followed run at work now, as its event stream tells (0 without a run).
  const runAtWork = usePlayground((state) =>
    state.open && state.live ? state.live.statusCounts.running + state.live.statusCounts.queued : 0,
  );
  // biome-ignore lint/correctness/useExhaustiveDependencies: a change of the run's threads at work polls at once.
  useEffect(() => {
    const interval = followedRun ? POLL_DURING_RUN_MS : POLL_MS;
    const api = createApiClient();
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = async () => {
      if (document.visibilityState === "visible") {
        try {
          const next = await api.runtime.load();
          if (!stopped) setLoad(next);
        } catch {
          // The status line is a hint: a failed poll keeps the last figures until the next one.
        }
      }
      if (!stopped) timer = setTimeout(poll, interval);
    };
    void poll();
    return () => {
      stopped = true;
      if (timer !== undefined) clearTimeout(timer);
    };
  }, [followedRun, runAtWork]);
  if (!load) return null;
  const text = runtimeLoadText(
    runAtWork > load.threads.running ? { ...load, threads: { ...load.threads, running: runAtWork } } : load,
  );
  return (
    <p
      data-testid="runtime-load"
      title={text.full}
      className={`shrink-0 whitespace-nowrap ${text.backlogged ? "text-warning" : "text-muted"}`}
    >
      {text.short}
    </p>
  );
}
