"use client";
// The banner on a replay's thread page (issue 21 "Replay"; docs/live.md "Replay"): what it replays,
// how far it is (inputs posted, calls answered from the recording and by a model) and every thread
// that diverged, with where its request first differed and a word diff of what changed there. It reads `GET /api/threads/:id/replay`
// (renders nothing for a thread that is not a replay) while the replay runs, and again whenever a
// `divergence` event arrives on the live stream.
import Link from "next/link";
import { useEffect, useState } from "react";
import type { Divergence, ReplayStatus } from "@/lib/contracts/replay";
import { Button } from "../ui/Button";
import { diffHref } from "./CompareDialog";
import { DivergenceDiff } from "./DivergenceDiff";

const POLL_MS = 1_500;

const REASONS: Record<Divergence["reason"], string> = {
  request_changed: "its request changed",
  model_changed: "it asks another model",
  no_recording: "the original made no such call",
};

export function ReplayBanner({
  rootId,
  liveDivergences,
  loadStatus,
  threadLabel,
  onShowThread,
}: {
  rootId: string;
  /** Divergences the live stream has delivered so far (a new one triggers a refresh). */
  liveDivergences: number;
  loadStatus(threadId: string): Promise<ReplayStatus | null>;
  threadLabel(threadId: string): string;
  onShowThread(threadId: string): void;
}) {
  const [status, setStatus] = useState<ReplayStatus | null>(null);
  const [error, setError] = useState<string | null>(null);
  const running = status?.state === "running";

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new divergence event is a reason to read again.
  useEffect(() => {
    let cancelled = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const read = async () => {
      try {
        const next = await loadStatus(rootId);
        if (cancelled) return;
        setStatus(next);
        setError(null);
        if (next?.state === "running") timer = setTimeout(() => void read(), POLL_MS);
      } catch (caught) {
        if (!cancelled) setError(caught instanceof Error ? caught.message : String(caught));
      }
    };
    void read();
    return () => {
      cancelled = true;
      if (timer) clearTimeout(timer);
    };
  }, [rootId, loadStatus, liveDivergences]);

  if (error && !status)
    return (
      <p
        role="alert"
        className="mx-4 mt-2 rounded-md border border-danger/40 bg-danger/5 px-3 py-1.5 text-sm text-danger"
      >
        Could not read this replay's progress: {error}
      </p>
    );
  if (!status) return null;
  const { calls, divergences } = status;
  return (
    <section
      aria-label="Replay"
      data-testid="replay-banner"
      className="mx-4 mt-2 flex flex-col gap-1.5 rounded-md border border-accent/30 bg-accent/5 px-3 py-2 text-sm"
    >
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <span>
          <span className="font-medium">Replay</span> of{" "}
          <Link href={`/threads/${status.replay_of}`} className="font-mono text-accent underline">
            {status.replay_of.slice(0, 8)}
          </Link>{" "}
          against {status.from_version === "latest" ? "the latest definitions" : "the version it ran with"}
        </span>
        <span role="status" className="text-muted">
          {running
            ? `Replaying: input ${status.inputs_posted} of ${status.inputs_total} posted`
            : `Finished: ${status.inputs_total} input${status.inputs_total === 1 ? "" : "s"} replayed`}
          {" · "}
          {calls.replayed} model call{calls.replayed === 1 ? "" : "s"} from the recording, {calls.live} by a
          model
        </span>
        <Link href={diffHref(status.replay_of, rootId)} className="ml-auto font-medium text-accent underline">
          Compare with original
        </Link>
      </div>
      {divergences.length === 0 ? (
        <p data-testid="replay-no-divergence" className="text-muted">
          {running ? "No divergence so far." : "No divergence: every request matched the recording."}
        </p>
      ) : (
        <div>
          <p className="font-medium text-warning" data-testid="replay-divergence-count">
            Diverged in {divergences.length} thread{divergences.length === 1 ? "" : "s"}
          </p>
          <ul aria-label="Divergences" className="mt-1 flex flex-col gap-1">
            {divergences.map((divergence) => (
              <li
                key={divergence.thread_id}
                data-testid="replay-divergence"
                className="flex flex-wrap items-baseline gap-x-2 gap-y-0.5 rounded border border-border bg-surface px-2 py-1"
              >
                <span className="font-medium">{threadLabel(divergence.thread_id)}</span>
                <span className="text-muted">
                  model call {divergence.call_index + 1} of side {divergence.side.toUpperCase()}:{" "}
                  {REASONS[divergence.reason]}
                  {divergence.path ? (
                    <>
                      {" "}
                      at <code className="font-mono">{divergence.path}</code>
                    </>
                  ) : null}
                </span>
                <Button size="compact" className="ml-auto" onClick={() => onShowThread(divergence.thread_id)}>
                  Show thread
                </Button>
                {divergence.reason !== "no_recording" ? (
                  <div className="min-w-0 basis-full">
                    <DivergenceDiff
                      recorded={divergence.recorded}
                      replayed={divergence.replayed}
                      label={`What changed in the request of ${threadLabel(divergence.thread_id)}`}
                    />
                  </div>
                ) : null}
              </li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}
