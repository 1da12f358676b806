"use client";
// A suite's runs (the server's list, newest first, kept current as a run streams): pick two to
// compare, open one, and the pass rate over versions as a small chart.
import Link from "next/link";
import { useCallback, useEffect, useId, useState } from "react";
import { createApiClient } from "@/lib/api/client";
import { formatRate } from "@/lib/evals/describe";
import type { EvalRun } from "@/lib/evals/eval-shapes";
import { passRateByVersion, type RememberedRun, rememberRun, runEntry } from "@/lib/evals/run-history";
import { buttonClasses } from "../ui/Button";
import { PassRateChart } from "./PassRateChart";
import { RunStatusBadge } from "./RunStatusBadge";

const api = createApiClient();

type RunLike = Pick<EvalRun, "id" | "status"> & Partial<Pick<EvalRun, "version" | "summary" | "created_at">>;

export function useRunHistory(
  projectId: string,
  suiteId: string,
): {
  runs: RememberedRun[];
  /** Null until the list has loaded; the reason when it could not. */
  loadError: string | null;
  remember(run: RunLike): void;
} {
  const [runs, setRuns] = useState<RememberedRun[]>([]);
  const [loadError, setLoadError] = useState<string | null>(null);
  useEffect(() => {
    let current = true;
    api.evals
      .runs(projectId, suiteId)
      .then((listed) => {
        if (!current) return;
        setLoadError(null);
        // Runs seen while the list loaded (one just started) stay; the server's entries win.
        setRuns((seen) => listed.map(runEntry).reduce((history, entry) => rememberRun(history, entry), seen));
      })
      .catch(() => {
        if (current) setLoadError("Could not load the suite's runs.");
      });
    return () => {
      current = false;
    };
  }, [projectId, suiteId]);
  const remember = useCallback((run: RunLike) => {
    setRuns((previous) =>
      rememberRun(previous, {
        ...runEntry({ version: null, summary: null, created_at: undefined, ...run }),
        started_at:
          previous.find((entry) => entry.id === run.id)?.started_at ??
          (typeof run.created_at === "number" ? Math.floor(run.created_at / 1000) : Date.now()),
      }),
    );
  }, []);
  return { runs, loadError, remember };
}

export function compareHref(projectId: string, a: string, b: string): string {
  return `/projects/${encodeURIComponent(projectId)}/evals/compare?a=${encodeURIComponent(a)}&b=${encodeURIComponent(b)}`;
}

export function RunHistory({
  projectId,
  suiteId,
  history,
  loadError,
  shownRunId,
}: {
  projectId: string;
  suiteId: string;
  history: RememberedRun[];
  loadError: string | null;
  shownRunId: string | null;
}) {
  const id = useId();
  const [a, setA] = useState<string | null>(null);
  const [b, setB] = useState<string | null>(null);
  // By default the two newest runs: the older as A (before), the newer as B (after).
  const pickB = b ?? history[0]?.id ?? null;
  const pickA = a ?? history.find((run) => run.id !== pickB)?.id ?? null;
  const points = passRateByVersion(history);
  const suitePath = `/projects/${encodeURIComponent(projectId)}/evals/${encodeURIComponent(suiteId)}`;
  return (
    <section aria-labelledby={`${id}-runs`} className="rounded-lg border border-border bg-surface">
      <h2 id={`${id}-runs`} className="border-b border-border px-4 py-2 font-medium">
        Runs
      </h2>
      {loadError && history.length === 0 ? (
        <p role="alert" className="px-4 py-3 text-sm text-danger">
          {loadError} Reload the page to try again.
        </p>
      ) : history.length === 0 ? (
        <p className="px-4 py-3 text-sm text-muted" data-testid="runs-empty">
          No runs yet. Run the suite, change the agent in the studio, save, and run it again: then compare the
          two runs here to see which cases the change fixed or broke.
        </p>
      ) : (
        <div className="flex flex-wrap items-start gap-6 px-4 py-3">
          <table className="min-w-[28rem] flex-1 text-sm" aria-label="Runs of the suite">
            <thead className="text-left text-xs text-muted">
              <tr>
                <th scope="col" className="py-1 pr-2 font-medium">
                  A
                </th>
                <th scope="col" className="py-1 pr-2 font-medium">
                  B
                </th>
                <th scope="col" className="py-1 pr-2 font-medium">
                  Run
                </th>
                <th scope="col" className="py-1 pr-2 font-medium">
                  Version
                </th>
                <th scope="col" className="py-1 pr-2 font-medium">
                  Status
                </th>
                <th scope="col" className="py-1 pr-2 text-right font-medium">
                  Pass rate
                </th>
              </tr>
            </thead>
            <tbody>
              {history.map((run) => (
                <tr key={run.id} data-testid="history-run" aria-current={run.id === shownRunId || undefined}>
                  <td className="py-1 pr-2">
                    <input
                      type="radio"
                      name={`${id}-a`}
                      aria-label={`Compare run ${run.id.slice(0, 8)} as A`}
                      checked={pickA === run.id}
                      onChange={() => setA(run.id)}
                    />
                  </td>
                  <td className="py-1 pr-2">
                    <input
                      type="radio"
                      name={`${id}-b`}
                      aria-label={`Compare run ${run.id.slice(0, 8)} as B`}
                      checked={pickB === run.id}
                      onChange={() => setB(run.id)}
                    />
                  </td>
                  <td className="py-1 pr-2">
                    <Link
                      href={`${suitePath}?run=${encodeURIComponent(run.id)}`}
                      className={`font-mono underline ${run.id === shownRunId ? "font-semibold" : "text-accent"}`}
                    >
                      {run.id.slice(0, 8)}
                    </Link>
                  </td>
                  <td className="py-1 pr-2">{run.version === null ? "—" : `v${run.version}`}</td>
                  <td className="py-1 pr-2">
                    {run.status === "running" ||
                    run.status === "done" ||
                    run.status === "failed" ||
                    run.status === "cancelled" ? (
                      <RunStatusBadge status={run.status} />
                    ) : (
                      run.status
                    )}
                  </td>
                  <td className="py-1 pr-2 text-right tabular-nums">{formatRate(run.pass_rate)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <div className="flex flex-col gap-3">
            <PassRateChart points={points} />
            {pickA && pickB && pickA !== pickB ? (
              <Link href={compareHref(projectId, pickA, pickB)} className={buttonClasses("primary")}>
                Compare A with B
              </Link>
            ) : (
              <p className="text-sm text-muted">Pick two different runs as A and B to compare them.</p>
            )}
          </div>
        </div>
      )}
    </section>
  );
}
