"use client";
// A suite's runs (those this browser started or saw; the contract lists only a suite's last run),
// newest first: pick two to compare, open one, and the pass rate over versions as a small chart.
import Link from "next/link";
import { useCallback, useEffect, useId, useState } from "react";
import { formatRate } from "@/lib/evals/describe";
import type { EvalRun } from "@/lib/evals/eval-shapes";
import {
  passRateByVersion,
  type RememberedRun,
  readRunHistory,
  rememberRun,
  runHistoryKey,
} from "@/lib/evals/run-history";
import { buttonClasses } from "../ui/Button";
import { PassRateChart } from "./PassRateChart";
import { RunStatusBadge } from "./RunStatusBadge";

type RunLike = Pick<EvalRun, "id" | "status"> & Partial<Pick<EvalRun, "version" | "summary">>;

export function useRunHistory(suiteId: string): {
  runs: RememberedRun[];
  remember(run: RunLike): void;
} {
  const [runs, setRuns] = useState<RememberedRun[]>([]);
  useEffect(() => {
    setRuns(readRunHistory(window.localStorage.getItem(runHistoryKey(suiteId))));
  }, [suiteId]);
  const remember = useCallback(
    (run: RunLike) => {
      setRuns((previous) => {
        const next = rememberRun(readRunHistory(window.localStorage.getItem(runHistoryKey(suiteId))), {
          id: run.id,
          version: typeof run.version === "number" ? run.version : null,
          status: run.status,
          pass_rate: run.summary ? run.summary.pass_rate : null,
          started_at: previous.find((entry) => entry.id === run.id)?.started_at ?? Date.now(),
        });
        try {
          window.localStorage.setItem(runHistoryKey(suiteId), JSON.stringify(next));
        } catch {
          // Storage full or off: the list lasts as long as the page.
        }
        return next;
      });
    },
    [suiteId],
  );
  return { runs, remember };
}

export function compareHref(projectId: string, a: string, b: string): string {
  return `/projects/${encodeURIComponent(projectId)}/evals/compare?a=${encodeURIComponent(a)}&b=${encodeURIComponent(b)}`;
}

export function RunHistory({
  projectId,
  suiteId,
  history,
  shownRunId,
}: {
  projectId: string;
  suiteId: string;
  history: RememberedRun[];
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
      {history.length === 0 ? (
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
