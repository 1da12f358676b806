// A suite's runs as the Evals view lists them (pure): the server's list (`GET …/evals/:suiteId/runs`,
// newest first) turned into entries, updated as a run streams, to offer them for comparison and to
// draw the pass rate over versions.
import { z } from "zod";
import type { EvalRun } from "./eval-shapes";

export const RememberedRunSchema = z.object({
  id: z.string(),
  version: z.number().nullable(),
  status: z.string(),
  pass_rate: z.number().nullable(),
  started_at: z.number(),
});
export type RememberedRun = z.infer<typeof RememberedRunSchema>;

export const MAX_REMEMBERED_RUNS = 100;

/** A run of the server's list (or one being watched) as an entry; `created_at` is in microseconds. */
export function runEntry(
  run: Pick<EvalRun, "id" | "status" | "version" | "summary" | "created_at">,
): RememberedRun {
  const created =
    typeof run.created_at === "number"
      ? Math.floor(run.created_at / 1000)
      : Date.parse(String(run.created_at));
  return {
    id: run.id,
    version: typeof run.version === "number" ? run.version : null,
    status: run.status,
    pass_rate: run.summary ? run.summary.pass_rate : null,
    started_at: Number.isFinite(created) ? created : 0,
  };
}

/** The list with `run` first (an entry for the same run is replaced), at most MAX_REMEMBERED_RUNS long. */
export function rememberRun(history: readonly RememberedRun[], run: RememberedRun): RememberedRun[] {
  const previous = history.find((entry) => entry.id === run.id);
  const merged = previous ? { ...run, started_at: previous.started_at } : run;
  return [merged, ...history.filter((entry) => entry.id !== run.id)]
    .sort((a, b) => b.started_at - a.started_at)
    .slice(0, MAX_REMEMBERED_RUNS);
}

export interface PassRatePoint {
  version: number;
  passRate: number;
  runId: string;
}

/**
 * The pass rate per version for the chart: of each version's finished runs the latest one, in
 * version order. Runs without a version or a pass rate (still running, cancelled early) are left out.
 */
export function passRateByVersion(history: readonly RememberedRun[]): PassRatePoint[] {
  const latest = new Map<number, RememberedRun>();
  for (const run of history) {
    if (run.version === null || run.pass_rate === null || run.status !== "done") continue;
    const seen = latest.get(run.version);
    if (!seen || seen.started_at < run.started_at) latest.set(run.version, run);
  }
  return [...latest.values()]
    .sort((a, b) => (a.version ?? 0) - (b.version ?? 0))
    .map((run) => ({ version: run.version ?? 0, passRate: run.pass_rate ?? 0, runId: run.id }));
}
