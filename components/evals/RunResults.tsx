// A run's summary (pass rate, pass^k, mean score, tokens, cost, latency) and its results per case:
// passed in how many repetitions, the score, each assertion's reason in words, turns, tokens, cost,
// latency, and a link to each repetition's thread (an ordinary root thread: live view, replay, diff).
import Link from "next/link";
import {
  formatCost,
  formatCount,
  formatMs,
  formatScore,
  outcomesByCase,
  summaryFigures,
} from "@/lib/evals/describe";
import type { EvalCase, EvalRun, RunSummary } from "@/lib/evals/eval-shapes";
import { PassMark } from "./eval-ui";

export function SummaryFigures({
  summary,
  label,
  narrow = false,
}: {
  summary: RunSummary;
  label: string;
  /** Three figures a row at every width (two summaries side by side). */
  narrow?: boolean;
}) {
  return (
    <dl
      aria-label={label}
      className={`grid grid-cols-3 gap-px overflow-hidden rounded-md border border-border bg-border ${narrow ? "" : "xl:grid-cols-6"}`}
    >
      {summaryFigures(summary).map((figure) => (
        <div key={figure.label} className="bg-surface px-3 py-2" title={figure.hint}>
          <dt className="text-xs text-muted">{figure.label}</dt>
          <dd className="font-medium tabular-nums">{figure.value}</dd>
        </div>
      ))}
    </dl>
  );
}

export function RunResults({ run, cases }: { run: EvalRun; cases: readonly EvalCase[] }) {
  const outcomes = outcomesByCase(run.results ?? []);
  const rows = [
    ...cases
      .filter((evalCase) => evalCase.id && outcomes.has(evalCase.id))
      .map((evalCase) => ({
        name: evalCase.name,
        outcome: outcomes.get(evalCase.id ?? "")!,
      })),
    // Results of cases since removed from the suite still show, under their id.
    ...[...outcomes.values()]
      .filter((outcome) => !cases.some((evalCase) => evalCase.id === outcome.caseId))
      .map((outcome) => ({ name: `case ${outcome.caseId.slice(0, 8)}`, outcome })),
  ];
  if (rows.length === 0) {
    return (
      <p className="px-4 py-3 text-sm text-muted">
        {run.status === "running"
          ? "The first results appear here as each case finishes."
          : "No case finished in this run."}
      </p>
    );
  }
  return (
    <table className="w-full text-sm" aria-label="Results per case">
      <thead className="text-left text-xs text-muted">
        <tr className="border-b border-border">
          <th scope="col" className="px-4 py-2 font-medium">
            Case
          </th>
          <th scope="col" className="px-2 py-2 font-medium">
            Result
          </th>
          <th scope="col" className="px-2 py-2 text-right font-medium">
            Score
          </th>
          <th scope="col" className="px-2 py-2 font-medium">
            Assertions
          </th>
          <th scope="col" className="px-2 py-2 text-right font-medium">
            Turns
          </th>
          <th scope="col" className="px-2 py-2 text-right font-medium">
            Tokens
          </th>
          <th scope="col" className="px-2 py-2 text-right font-medium">
            Cost
          </th>
          <th scope="col" className="px-2 py-2 text-right font-medium">
            Latency
          </th>
          <th scope="col" className="px-4 py-2 font-medium">
            Thread
          </th>
        </tr>
      </thead>
      <tbody className="divide-y divide-border align-top">
        {rows.map(({ name, outcome }) => {
          const repetitions = outcome.results.length;
          const last = outcome.results[outcome.results.length - 1];
          // The reasons of the repetition that failed first (else of the last one): why, in words.
          const shown = outcome.results.find((result) => !result.passed) ?? last;
          return (
            <tr key={outcome.caseId} data-testid="case-result" aria-label={`Result of ${name}`}>
              <th scope="row" className="px-4 py-2 text-left font-medium">
                {name}
              </th>
              <td className="px-2 py-2">
                <PassMark
                  passed={outcome.passedAll}
                  label={
                    repetitions > 1
                      ? `${outcome.passed}/${repetitions} passed`
                      : outcome.passedAll
                        ? "passed"
                        : "failed"
                  }
                />
              </td>
              <td className="px-2 py-2 text-right tabular-nums">{formatScore(outcome.meanScore)}</td>
              <td className="px-2 py-2">
                {shown?.error ? <p className="text-danger">{shown.error}</p> : null}
                <ul className="flex flex-col gap-0.5">
                  {(shown?.assertions ?? []).map((assertion, index) => (
                    // biome-ignore lint/suspicious/noArrayIndexKey: assertions keep their order in a result.
                    <li key={index} className="flex gap-1.5">
                      <PassMark passed={assertion.passed} label={assertion.type} />
                      <span className={`min-w-0 ${assertion.passed ? "text-muted" : ""}`}>
                        {assertion.reason ?? ""}
                        {typeof assertion.score === "number" && assertion.type === "judge"
                          ? ` (score ${formatScore(assertion.score)})`
                          : ""}
                      </span>
                    </li>
                  ))}
                </ul>
              </td>
              <td className="px-2 py-2 text-right tabular-nums">{last?.turns ?? "—"}</td>
              <td className="px-2 py-2 text-right tabular-nums">{formatCount(last?.tokens)}</td>
              <td className="px-2 py-2 text-right tabular-nums">{formatCost(last?.cost_usd)}</td>
              <td className="px-2 py-2 text-right tabular-nums">{formatMs(last?.latency_ms)}</td>
              <td className="px-4 py-2">
                <span className="flex flex-col gap-0.5">
                  {outcome.results.map((result) =>
                    result.thread_id ? (
                      <Link
                        key={result.repetition}
                        href={`/threads/${result.thread_id}`}
                        className="whitespace-nowrap text-accent underline"
                        aria-label={`Open the thread of ${name}${repetitions > 1 ? `, repetition ${result.repetition + 1}` : ""}`}
                      >
                        {repetitions > 1 ? `#${result.repetition + 1} ` : ""}
                        <span className="font-mono">{result.thread_id.slice(0, 8)}</span>
                      </Link>
                    ) : null,
                  )}
                </span>
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
