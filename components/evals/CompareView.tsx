"use client";
// Two runs of a suite compared (GET /api/eval-runs/compare): a matrix of cases × runs with fixed /
// regressed / same at a glance, score deltas, and for a case whose result changed a link to the
// side-by-side diff of its two conversations (/threads/diff), where they parted. Both summaries sit
// side by side, and the pass rate over versions is drawn from the suite's runs.
import Link from "next/link";
import { useEffect, useState } from "react";
import { createApiClient } from "@/lib/api/client";
import { formatDelta, formatScore } from "@/lib/evals/describe";
import type { CaseChange, EvalRun, RunComparison } from "@/lib/evals/eval-shapes";
import { passRateByVersion, rememberRun, runEntry } from "@/lib/evals/run-history";
import { diffHref } from "../threads/CompareDialog";
import { describeApiError, ErrorNote, PassMark } from "./eval-ui";
import { PassRateChart } from "./PassRateChart";
import { SummaryFigures } from "./RunResults";

const api = createApiClient();

const CHANGE_LOOK: Record<CaseChange, { text: string; className: string; colour: string }> = {
  fixed: { text: "fixed", className: "font-medium", colour: "completed" },
  regressed: { text: "regressed", className: "font-medium text-danger", colour: "failed" },
  same: { text: "same", className: "text-muted", colour: "idle" },
};

function firstThread(run: EvalRun | null, caseId: string): string | null {
  const results = (run?.results ?? []).filter((result) => result.case_id === caseId && result.thread_id);
  results.sort((x, y) => x.repetition - y.repetition);
  return results[0]?.thread_id ?? null;
}

const runLabel = (run: EvalRun | null, side: "A" | "B") =>
  `Run ${side}${run && typeof run.version === "number" ? ` · v${run.version}` : ""}`;

export function CompareView({ projectId, a, b }: { projectId: string; a: string; b: string }) {
  const [comparison, setComparison] = useState<RunComparison | null>(null);
  const [runs, setRuns] = useState<{ a: EvalRun | null; b: EvalRun | null }>({ a: null, b: null });
  const [error, setError] = useState<string | null>(null);
  const [changedOnly, setChangedOnly] = useState(false);

  useEffect(() => {
    let current = true;
    setComparison(null);
    setError(null);
    Promise.all([
      api.evals.compare(a, b),
      api.evals.getRun(a).catch(() => null),
      api.evals.getRun(b).catch(() => null),
    ])
      .then(([compared, runA, runB]) => {
        if (!current) return;
        setComparison(compared);
        setRuns({ a: runA, b: runB });
      })
      .catch((caught) => {
        if (current) setError(describeApiError(caught, "Could not compare the runs."));
      });
    return () => {
      current = false;
    };
  }, [a, b]);

  // The suite's runs (the server's list, with these two as they are now): the chart's points.
  const suiteId = runs.a?.suite_id ?? runs.b?.suite_id ?? null;
  const [points, setPoints] = useState<ReturnType<typeof passRateByVersion>>([]);
  useEffect(() => {
    if (!suiteId) return;
    let current = true;
    const shown = [runs.a, runs.b].flatMap((run) => (run ? [runEntry(run)] : []));
    api.evals
      .runs(projectId, suiteId)
      .catch(() => [])
      .then((listed) => {
        if (!current) return;
        const history = [...listed.map(runEntry), ...shown].reduce(
          (all, entry) => rememberRun(all, entry),
          [] as ReturnType<typeof rememberRun>,
        );
        setPoints(passRateByVersion(history));
      });
    return () => {
      current = false;
    };
  }, [projectId, suiteId, runs]);

  if (error) {
    return (
      <div className="flex flex-col gap-3">
        <ErrorNote>{error}</ErrorNote>
        <Link href={`/projects/${encodeURIComponent(projectId)}/evals`} className="text-accent underline">
          Back to the suites
        </Link>
      </div>
    );
  }
  if (!comparison) {
    return (
      <p role="status" className="text-sm text-muted" data-testid="compare-loading">
        Comparing the runs…
      </p>
    );
  }
  const counts = { fixed: 0, regressed: 0, same: 0 };
  for (const row of comparison.cases) counts[row.change] += 1;
  const rows = changedOnly ? comparison.cases.filter((row) => row.change !== "same") : comparison.cases;
  const suiteHref = suiteId
    ? `/projects/${encodeURIComponent(projectId)}/evals/${encodeURIComponent(suiteId)}`
    : `/projects/${encodeURIComponent(projectId)}/evals`;

  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-wrap items-center gap-3">
        <h1 className="text-xl font-semibold">Compare runs</h1>
        <p role="status" className="text-sm" data-testid="compare-counts">
          <span className={CHANGE_LOOK.regressed.className}>{counts.regressed} regressed</span> ·{" "}
          <span className={CHANGE_LOOK.fixed.className}>{counts.fixed} fixed</span> ·{" "}
          <span className="text-muted">{counts.same} same</span>
        </p>
        <Link href={suiteHref} className="ml-auto text-accent underline">
          Back to the suite
        </Link>
      </div>

      <div className="grid gap-4 lg:grid-cols-2">
        {(["a", "b"] as const).map((side) => {
          const summary = comparison.summary[side];
          const run = runs[side];
          return (
            <section
              key={side}
              aria-label={runLabel(run, side === "a" ? "A" : "B")}
              className="flex flex-col gap-2"
            >
              <h2 className="text-sm font-medium">
                {runLabel(run, side === "a" ? "A" : "B")}{" "}
                <Link
                  href={`${suiteHref}?run=${encodeURIComponent(side === "a" ? a : b)}`}
                  className="font-mono text-xs text-accent underline"
                >
                  {(side === "a" ? a : b).slice(0, 8)}
                </Link>
              </h2>
              {summary ? (
                <SummaryFigures narrow summary={summary} label={`Summary of run ${side.toUpperCase()}`} />
              ) : (
                <p className="text-sm text-muted">No summary yet.</p>
              )}
            </section>
          );
        })}
      </div>

      <section aria-label="Cases × runs" className="rounded-lg border border-border bg-surface">
        <div className="flex items-center gap-3 border-b border-border px-4 py-2">
          <h2 className="flex-1 font-medium">Cases × runs</h2>
          <label className="flex items-center gap-1.5 text-sm">
            <input
              type="checkbox"
              checked={changedOnly}
              onChange={(event) => setChangedOnly(event.target.checked)}
            />
            Changed cases only
          </label>
        </div>
        {rows.length === 0 ? (
          <p className="px-4 py-3 text-sm text-muted">
            {changedOnly ? "No case changed between the two runs." : "The runs have no cases in common."}
          </p>
        ) : (
          <table className="w-full text-sm" aria-label="Comparison matrix">
            <thead className="text-left text-xs text-muted">
              <tr className="border-b border-border">
                <th scope="col" className="px-4 py-2 font-medium">
                  Case
                </th>
                <th scope="col" className="px-2 py-2 font-medium">
                  {runLabel(runs.a, "A")}
                </th>
                <th scope="col" className="px-2 py-2 font-medium">
                  {runLabel(runs.b, "B")}
                </th>
                <th scope="col" className="px-2 py-2 font-medium">
                  Change
                </th>
                <th scope="col" className="px-2 py-2 text-right font-medium">
                  Score A → B
                </th>
                <th scope="col" className="px-2 py-2 text-right font-medium">
                  Δ
                </th>
                <th scope="col" className="px-4 py-2 font-medium">
                  Conversations
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-border">
              {rows.map((row) => {
                const look = CHANGE_LOOK[row.change];
                const threadA = row.a_thread_id ?? firstThread(runs.a, row.case_id);
                const threadB = row.b_thread_id ?? firstThread(runs.b, row.case_id);
                return (
                  <tr key={row.case_id} data-testid="compare-row" data-change={row.change}>
                    <th scope="row" className="px-4 py-2 text-left font-medium">
                      {row.name}
                    </th>
                    <td className="px-2 py-2">
                      <PassMark passed={row.a?.passed} />
                    </td>
                    <td className="px-2 py-2">
                      <PassMark passed={row.b?.passed} />
                    </td>
                    <td className="px-2 py-2">
                      <span className={`inline-flex items-center gap-1.5 ${look.className}`}>
                        <span
                          aria-hidden="true"
                          className="size-2 rounded-full"
                          style={{ backgroundColor: `var(--status-${look.colour})` }}
                        />
                        {look.text}
                      </span>
                    </td>
                    <td className="px-2 py-2 text-right tabular-nums">
                      {formatScore(row.a?.score)} → {formatScore(row.b?.score)}
                    </td>
                    <td className="px-2 py-2 text-right tabular-nums">
                      {formatDelta(row.a?.score, row.b?.score)}
                    </td>
                    <td className="px-4 py-2">
                      {threadA && threadB ? (
                        <Link
                          href={diffHref(threadA, threadB)}
                          className={
                            row.change === "same"
                              ? "text-muted underline"
                              : "font-medium text-accent underline"
                          }
                          aria-label={`Compare the conversations of ${row.name} side by side`}
                        >
                          {row.change === "same" ? "Diff" : "See where they parted"}
                        </Link>
                      ) : (
                        <span className="text-muted">—</span>
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        )}
      </section>

      <section
        aria-label="Pass rate over versions"
        className="rounded-lg border border-border bg-surface px-4 py-3"
      >
        <h2 className="mb-2 font-medium">Pass rate over versions</h2>
        <PassRateChart points={points} />
      </section>
    </div>
  );
}
