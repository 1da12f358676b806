// A suite's runs as the studio remembers them (pure): the contract lists a suite's last run only, so
// the browser keeps the runs it started or saw (newest first, capped) to offer them for comparison
// and to draw the pass rate over versions. Each entry is re-read from the server before it is shown.
import { z } from "zod";

export const RememberedRunSchema = z.object({
  id: z.string(),
  version: z.number().nullable(),
  status: z.string(),
  pass_rate: z.number().nullable(),
  started_at: z.number(),
});
export type RememberedRun = z.infer<typeof RememberedRunSchema>;

export const MAX_REMEMBERED_RUNS = 30;

/** The storage key of a suite's run list. */
export const runHistoryKey = (suiteId: string) => `tandem.evals.runs.${suiteId}`;

/** Parses a stored list; anything unreadable is an empty list (storage is a cache, never the truth). */
export function readRunHistory(stored: string | null): RememberedRun[] {
  if (!stored) return [];
  try {
    const parsed = z.array(RememberedRunSchema).safeParse(JSON.parse(stored));
    return parsed.success ? parsed.data : [];
  } catch {
    return [];
  }
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
