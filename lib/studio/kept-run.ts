// Whether the playground's kept run still belongs to the canvas: a run is of one saved version and
// one agent, and Run must offer the current ones. A run of an older version is "stale" (it can go on,
// but the panel says so and Run starts a new one); a run whose agent the saved version no longer
// runs is "orphaned" (no composer onto an agent that is gone). Pure.

export interface KeptRun {
  agentId: string;
  /** The saved version the run uses; undefined until its stream has said (a run kept by an older tab). */
  version?: number;
}

export type KeptRunStanding =
  | { kind: "current" }
  | { kind: "stale"; runVersion: number; currentVersion: number }
  | { kind: "orphaned"; runVersion: number | null; currentVersion: number | null };

/**
 * How `run` stands against the canvas's saved version (`currentVersion`, null before the first save)
 * and the ai_human agents that version runs (`runnable`).
 */
export function keptRunStanding(
  run: KeptRun,
  currentVersion: number | null,
  runnable: readonly string[],
): KeptRunStanding {
  if (!runnable.includes(run.agentId))
    return { kind: "orphaned", runVersion: run.version ?? null, currentVersion };
  if (run.version !== undefined && currentVersion !== null && run.version < currentVersion)
    return { kind: "stale", runVersion: run.version, currentVersion };
  return { kind: "current" };
}

/** What the panel says about a run that is not current: one sentence, in the user's words. */
export function keptRunNotice(run: KeptRun, standing: KeptRunStanding): string | null {
  if (standing.kind === "current") return null;
  const from = standing.runVersion === null ? "an earlier version" : `v${standing.runVersion}`;
  const now = standing.currentVersion === null ? "the saved canvas" : `v${standing.currentVersion}`;
  if (standing.kind === "orphaned")
    return `This run of ${run.agentId} is from ${from}, and ${now} has no ${run.agentId} to chat with. Run starts a new run on ${now}.`;
  return `This run is from ${from}; the canvas is saved as ${now}. Run starts a new run on ${now}.`;
}
