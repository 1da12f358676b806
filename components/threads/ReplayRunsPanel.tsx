"use client";
// "Replay recent runs" on a project's page (issue 21 "Replay"; docs/live.md "Replay"): the regression
// check — replay the latest finished runs against the current definitions and see, run by run,
// whether each still matches its recording or where it first diverged. Replays start on the server
// (`POST /api/projects/:id/replays`); their progress is read per replay until all have finished.
// While the project has no finished run, Replay is offered disabled with the reason.
import Link from "next/link";
import { useEffect, useId, useState } from "react";
import { createApiClient } from "@/lib/api/client";
import type { ManyReplays, ReplayStatus } from "@/lib/contracts/replay";
import type { ThreadStatus } from "@/lib/contracts/thread";
import { Button } from "../ui/Button";
import { diffHref } from "./CompareDialog";

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

type Row = ManyReplays["replays"][number] & { status: ReplayStatus | null };

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
  const [rows, setRows] = useState<Row[] | null>(null);
  const [skipped, setSkipped] = useState<ManyReplays["skipped"]>([]);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const pending = rows?.filter((row) => row.status?.state !== "finished").map((row) => row.threadId) ?? [];
  const pendingKey = pending.join(",");
  const nothingToReplay = hasFinishedRuns === false;

  // biome-ignore lint/correctness/useExhaustiveDependencies: pendingKey stands for the unfinished replays.
  useEffect(() => {
    if (pending.length === 0) return;
    let cancelled = false;
    const timer = setTimeout(
      async () => {
        try {
          const statuses = await Promise.all(pending.map((id) => api.threads.replayStatus(id)));
          if (cancelled) return;
          const byId = new Map(pending.map((id, index) => [id, statuses[index] ?? null]));
          setRows((current) =>
            current
              ? current.map((row) =>
                  byId.has(row.threadId) ? { ...row, status: byId.get(row.threadId)! } : row,
                )
              : current,
          );
        } catch (caught) {
          if (!cancelled) setError(caught instanceof Error ? caught.message : String(caught));
        }
      },
      rows?.every((row) => row.status === null) ? 300 : POLL_MS,
    );
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [pendingKey]);

  async function start(event: React.FormEvent) {
    event.preventDefault();
    if (limit === null) return;
    setBusy(true);
    setError(null);
    try {
      const started = await api.threads.replayMany(projectId, { limit, fromVersion: "latest" });
      setRows(started.replays.map((replay) => ({ ...replay, status: null })));
      setSkipped(started.skipped);
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : String(caught));
    } finally {
      setBusy(false);
    }
  }

  const finished = rows?.filter((row) => row.status?.state === "finished") ?? [];
  const diverged = finished.filter((row) => (row.status?.divergences.length ?? 0) > 0);
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
        <Button
          type="submit"
          tone="primary"
          disabled={busy || pending.length > 0 || limit === null || nothingToReplay}
          aria-describedby={nothingToReplay ? nothingToReplayId : undefined}
        >
          {busy ? "Starting…" : pending.length > 0 ? "Replaying…" : "Replay"}
        </Button>
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
              ? "No finished runs to replay yet."
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
              <li key={skip.thread_id} className="px-4 py-2 text-sm text-muted">
                Skipped <span className="font-mono">{skip.thread_id.slice(0, 8)}</span>: {skip.reason}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </section>
  );
}
