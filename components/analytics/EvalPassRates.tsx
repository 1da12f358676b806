// The dashboard's eval pass rate over versions (docs/observability.md "Dashboard"): per suite, the
// pass rate of the latest finished run of each version as a chart, and every run finished in the
// range in a table with a link to the run. An empty state points to the evals page.
import Link from "next/link";
import type { EvalPassRates as PassRates } from "@/lib/contracts/analytics";
import { formatRate } from "@/lib/evals/describe";
import type { PassRatePoint } from "@/lib/evals/run-history";
import { PassRateChart } from "../evals/PassRateChart";

const when = new Intl.DateTimeFormat("en-US", {
  month: "short",
  day: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  timeZone: "UTC",
});

/** The latest run of each version, in version order (the chart's points). */
function latestPerVersion(runs: PassRates[number]["runs"]): PassRatePoint[] {
  const latest = new Map<number, PassRatePoint>();
  for (const run of runs)
    latest.set(run.version, { version: run.version, passRate: run.pass_rate, runId: run.run_id });
  return [...latest.values()].sort((a, b) => a.version - b.version);
}

export function EvalPassRates({ projectId, suites }: { projectId: string; suites: PassRates }) {
  const project = encodeURIComponent(projectId);
  return (
    <section
      aria-label="Eval pass rate by version"
      className="rounded-lg border border-border bg-surface"
      data-testid="analytics-evals"
    >
      <h2 className="border-b border-border px-4 py-2 font-medium">Eval pass rate by version</h2>
      {suites.length === 0 ? (
        <p className="px-4 py-3 text-sm text-muted" data-testid="analytics-evals-empty">
          No eval run finished in this range. Suites and their runs are on the{" "}
          <Link className="text-accent underline" href={`/projects/${project}/evals`}>
            evals page
          </Link>
          .
        </p>
      ) : (
        <div className="flex flex-col divide-y divide-border px-4">
          {suites.map((suite) => {
            const suiteHref = `/projects/${project}/evals/${encodeURIComponent(suite.suite_id)}`;
            return (
              <div key={suite.suite_id} className="flex min-w-0 flex-col gap-2 py-3">
                <h3 className="text-sm font-medium">
                  <Link className="text-accent underline" href={suiteHref}>
                    {suite.suite}
                  </Link>
                </h3>
                {/* The chart beside its runs from lg up (a suite per row), so a wide card is not half empty. */}
                <div className="flex min-w-0 flex-col gap-4 lg:flex-row lg:items-start">
                  <div className="shrink-0">
                    <PassRateChart points={latestPerVersion(suite.runs)} />
                  </div>
                  <table className="w-full min-w-0 text-sm tabular-nums lg:max-w-2xl">
                    <caption className="sr-only">Finished runs of {suite.suite}</caption>
                    <thead>
                      <tr className="text-left text-xs text-muted">
                        <th scope="col" className="py-1 pr-3 font-medium">
                          Finished (UTC)
                        </th>
                        <th scope="col" className="py-1 pr-3 font-medium">
                          Version
                        </th>
                        <th scope="col" className="py-1 pr-3 text-right font-medium">
                          Passed
                        </th>
                        <th scope="col" className="py-1 text-right font-medium">
                          Pass rate
                        </th>
                      </tr>
                    </thead>
                    <tbody className="divide-y divide-border">
                      {[...suite.runs].reverse().map((run) => (
                        <tr key={run.run_id}>
                          <th scope="row" className="py-1 pr-3 text-left font-normal">
                            <Link
                              className="text-accent underline"
                              href={`${suiteHref}?run=${encodeURIComponent(run.run_id)}`}
                            >
                              {when.format(Date.parse(run.finished_at))}
                            </Link>
                          </th>
                          <td className="py-1 pr-3">v{run.version}</td>
                          <td className="py-1 pr-3 text-right">
                            {run.passed} / {run.cases}
                          </td>
                          <td className="py-1 text-right">{formatRate(run.pass_rate)}</td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </div>
              </div>
            );
          })}
        </div>
      )}
    </section>
  );
}
