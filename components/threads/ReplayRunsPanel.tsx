"use client";
// "Replay recent runs" on a project's page (issue 21 "Replay"; docs/live.md "Replay"): the regression
// check — replay the latest finished runs against the current definitions and see, run by run,
// whether each still matches its recording or where it first diverged. Replays start on the server
// (`POST /api/projects/:id/replays`) as one batch; the panel shows the project's latest batch as the
// server has it (`GET /api/projects/:id/replays`: each replay's own progress), read again every
// moment until every replay has finished — so the count moves, ends, and a reload shows the same.
// While the project has no finished run, Replay is offered disabled with the reason.
import Link from "next/link";
import { useEffect, useId, useState } from "react";
import { createApiClient } from "@/lib/api/client";
import type { ReplayBatch, ReplayStatus, SkippedRun } from "@/lib/contracts/replay";
import type { ThreadStatus } from "@/lib/contracts/thread";
import { Gated } from "../access/Gated";
import { refusal, usePermission } from "../access/permission";
import { Button } from "../ui/Button";
import { useHydrated } from "../ui/useHydrated";
import { diffHref } from "./CompareDialog";
import { formatCreatedAt } from "./format";

const POLL_MS = 1_500;

/** The most runs one request replays (`POST /api/projects/:id/replays`). */
const MAX_REPLAYS = 50;

/** The field's text as a number of runs, or null when it is not a whole number from 1 to MAX_REPLAYS. */
function parseLimit(text: string): number | null {
  if (!/^\s*\d+\s*$/.test(text)) return null;
  const value = Number(text);
  return value >= 1 && value <= MAX_REPLAYS ? value : null;
}

const api = createApiClient();

/** The statuses of a root run the server replays (`replayMany`: the run is over, or waits for input). */
const FINISHED_STATUSES: ThreadStatus[] = ["idle", "completed", "failed", "stopped"];
const FINISHED_CHECK_MS = 5000;

/**
 * Whether the project has a finished root run to replay: null until known. Checked again every few
 * seconds while there is none, so a run that finishes while the page is open enables Replay.
 */
function useHasFinishedRuns(projectId: string): boolean | null {
  const [hasFinished, setHasFinished] = useState<boolean | null>(null);
  useEffect(() => {
    if (hasFinished) return;
    let current = true;
    const check = async () => {
      try {
        const page = await api.threads.list(
          projectId,
          { statuses: FINISHED_STATUSES, agentId: "", rootsOnly: true, search: "" },
          { limit: 1, offset: 0 },
        );
        if (current) setHasFinished(page.total > 0);
      } catch {
        // Unknown: Replay stays available and the server says what it found.
      }
    };
    void check();
    const timer = setInterval(() => void check(), FINISHED_CHECK_MS);
    return () => {
      current = false;
      clearInterval(timer);
    };
  }, [projectId, hasFinished]);
  return hasFinished;
}

/**
 * The project's latest replay batch as the server has it: undefined until read, null when there is
 * none. Read again every POLL_MS while it runs (`refresh` reads it at once, after a start).
 */
function useLatestBatch(projectId: string): {
  batch: ReplayBatch | null | undefined;
  error: string | null;
  refresh: () => void;
} {
  const [batch, setBatch] = useState<ReplayBatch | null | undefined>(undefined);
  const [error, setError] = useState<string | null>(null);
  const [reads, setReads] = useState(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `reads` counts the reads asked for.
  useEffect(() => {
    let current = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const read = async () => {
      try {
        const next = await api.threads.latestReplayBatch(projectId);
        if (!current) return;
        setBatch(next);
        setError(null);
        if (next?.state === "running") timer = setTimeout(() => void read(), POLL_MS);
      } catch (caught) {
        if (!current) return;
        setError(caught instanceof Error ? caught.message : String(caught));
        timer = setTimeout(() => void read(), POLL_MS);
      }
    };
    void read();
    return () => {
      current = false;
      if (timer) clearTimeout(timer);
    };
  }, [projectId, reads]);
  return { batch, error, refresh: () => setReads((count) => count + 1) };
}

function verdict(status: ReplayStatus | null): { text: string; tone: "muted" | "ok" | "warn" } {
  if (!status || status.state === "running") return { text: "Replaying…", tone: "muted" };
  const first = status.divergences[0];
  if (!first) return { text: "Matches the recording", tone: "ok" };
  const where = first.path ? ` at ${first.path}` : "";
  return {
    text: `Diverged: ${first.agent_id}, side ${first.side.toUpperCase()} call ${first.call_index + 1}${where}${
      status.divergences.length > 1 ? ` (+${status.divergences.length - 1} more)` : ""
    }`,
    tone: "warn",
  };
}

/**
 * A skipped run named as the run list names it: "the run of orchestrator at <time>" (with its name
 * when it has one); a batch stored before runs were named so has only the id.
 */
function skippedRunLabel(skip: SkippedRun): string {
  if (!skip.agent_id) return `the run ${skip.thread_id.slice(0, 8)}`;
  const named = skip.name ? `“${skip.name}” ` : "";
  const when = skip.created_at === undefined ? "" : ` at ${formatCreatedAt(skip.created_at)}`;
  return `the run ${named}of ${skip.agent_id}${when}`;
}

export function ReplayRunsPanel({
  projectId,
  currentVersion,
}: {
  projectId: string;
  currentVersion: number;
}) {
  const limitId = useId();
  const limitErrorId = useId();
  const nothingToReplayId = useId();
  const hasFinishedRuns = useHasFinishedRuns(projectId);
  // The field's text as typed: a number out of range is said beside it, never silently changed.
  const [limitText, setLimitText] = useState("20");
  const limit = parseLimit(limitText);
  const latest = useLatestBatch(projectId);
  const [busy, setBusy] = useState(false);
  // Until hydrated the form has no submit handler: a click would reload the page and start nothing.
  const hydrated = useHydrated();
  const [startError, setStartError] = useState<string | null>(null);
  const batch = latest.batch ?? null;
  const rows = batch?.replays ?? null;
  const skipped = batch?.skipped ?? [];
  const running = batch?.state === "running";
  const nothingToReplay = hasFinishedRuns === false && !batch;
  const error = startError ?? latest.error;

  // Starting a batch is a runner's (the role table); a viewer reads past batches and sees why not.
  const refused = refusal(usePermission("replayBatch", projectId));

  async function start(event: React.FormEvent) {
    event.preventDefault();
    if (limit === null) return;
    setBusy(true);
    setStartError(null);
    try {
      await api.threads.replayMany(projectId, { limit, fromVersion: "latest" });
      latest.refresh();
    } catch (caught) {
      setStartError(caught instanceof Error ? caught.message : String(caught));
    } finally {
      setBusy(false);
    }
  }

  const finished = rows?.filter((row) => row.status.state === "finished") ?? [];
  const diverged = finished.filter((row) => row.status.divergences.length > 0);
  return (
    <section aria-label="Replay runs" className="rounded-lg border border-border bg-surface">
      <h2 className="border-b border-border px-4 py-2 font-medium">Replay runs</h2>
      <form onSubmit={(event) => void start(event)} className="flex flex-wrap items-center gap-2 px-4 py-3">
        <p className="min-w-64 flex-1 text-sm text-muted">
          Re-run recent runs against version {currentVersion} with their recorded model answers, and see which
          ones your edits change.
        </p>
        <label htmlFor={limitId} className="text-sm">
          Latest
        </label>
        <input
          id={limitId}
          type="number"
          min={1}
          max={MAX_REPLAYS}
          step={1}
          value={limitText}
          onChange={(event) => setLimitText(event.target.value)}
          aria-invalid={limit === null || undefined}
          aria-describedby={limit === null ? limitErrorId : undefined}
          className={`h-8 w-16 rounded-md border bg-surface px-2 text-sm ${limit === null ? "border-danger" : "border-border"}`}
        />
        <span className="text-sm">finished runs</span>
        <Gated reason={refused}>
          <Button
            type="submit"
            tone="primary"
            disabled={!hydrated || busy || running || limit === null || nothingToReplay || refused !== null}
            aria-describedby={nothingToReplay ? nothingToReplayId : undefined}
          >
            {busy ? "Starting…" : running ? "Replaying…" : "Replay"}
          </Button>
        </Gated>
      </form>
      {nothingToReplay ? (
        <p
          id={nothingToReplayId}
          data-testid="replay-unavailable"
          className="-mt-2 px-4 pb-3 text-sm text-muted"
        >
          Nothing to replay yet: no run of this project has finished. Runs show up here once one has.
        </p>
      ) : null}
      {limit === null ? (
        <p id={limitErrorId} className="-mt-2 px-4 pb-3 text-right text-xs text-danger">
          Enter a whole number from 1 to {MAX_REPLAYS}.
        </p>
      ) : null}
      {error ? (
        <p
          role="alert"
          className="mx-4 mb-3 rounded-md border border-danger/40 bg-danger/5 px-3 py-2 text-danger"
        >
          {error}
        </p>
      ) : null}
      {rows ? (
        <div className="border-t border-border">
          <p role="status" className="px-4 py-2 text-sm" data-testid="replay-runs-summary">
            {rows.length === 0
              ? skipped.length > 0
                ? "No run could be replayed"
                : "No finished runs to replay yet."
              : finished.length < rows.length
                ? `Replaying ${rows.length} run${rows.length === 1 ? "" : "s"}: ${finished.length} finished`
                : `${rows.length - diverged.length} of ${rows.length} match their recording; ${diverged.length} diverged`}
            {skipped.length > 0 ? ` · ${skipped.length} skipped` : ""}
          </p>
          <ul aria-label="Replays" className="divide-y divide-border">
            {rows.map((row) => {
              const shown = verdict(row.status);
              return (
                <li
                  key={row.threadId}
                  className="flex flex-wrap items-center gap-x-3 gap-y-1 px-4 py-2 text-sm"
                  data-testid="replay-run"
                >
                  <span className="font-mono">{row.source.agent_id}</span>
                  {row.source.name ? (
                    <span className="min-w-0 truncate text-muted" title={row.source.name}>
                      “{row.source.name}”
                    </span>
                  ) : null}
                  <span className="shrink-0 font-mono text-xs text-muted" title={row.source.id}>
                    {row.source.id.slice(0, 8)}
                  </span>
                  <span
                    className={`min-w-0 flex-1 truncate ${shown.tone === "warn" ? "text-warning" : shown.tone === "ok" ? "text-text" : "text-muted"}`}
                    title={shown.text}
                  >
                    {shown.text}
                  </span>
                  <Link href={`/threads/${row.threadId}`} className="shrink-0 underline">
                    Open replay
                  </Link>
                  <Link href={diffHref(row.source.id, row.threadId)} className="shrink-0 underline">
                    Compare
                  </Link>
                </li>
              );
            })}
            {skipped.map((skip) => (
              <li key={skip.thread_id} className="px-4 py-2 text-sm text-muted" data-testid="replay-skipped">
                Skipped: {skippedRunLabel(skip)} — {skip.reason}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </section>
  );
}
