"use client";
// How the playground's kept run stands against the canvas's saved version (lib/studio/kept-run.ts),
// for the Run button, the panel and the form: the same answer everywhere, so Run's tooltip and the
// panel cannot disagree. Also the agents the saved version runs, read from one compile of it.
import { useMemo } from "react";
import { compileGraph } from "@/lib/graph";
import { type KeptRunStanding, keptRunStanding } from "@/lib/studio/kept-run";
import { type PlaygroundRun, usePlayground } from "./PlaygroundContext";
import { useStudio } from "./StudioStoreContext";

/** The ai_human agents of the saved version (what a run may be of). */
export function useSavedRunnableAgents(): readonly string[] {
  const savedDocument = useStudio((state) => state.savedDocument);
  return useMemo(
    () =>
      compileGraph(savedDocument)
        .bundle.agents.filter((agent) => (agent.type ?? "ai_human") === "ai_human")
        .map((agent) => agent.name),
    [savedDocument],
  );
}

export interface KeptRunState {
  run: PlaygroundRun | null;
  standing: KeptRunStanding | null;
  currentVersion: number | null;
}

export function useKeptRun(): KeptRunState {
  const run = usePlayground((state) => state.run);
  const currentVersion = useStudio((state) => state.baseVersion);
  const runnable = useSavedRunnableAgents();
  const standing = useMemo(
    () => (run ? keptRunStanding(run, currentVersion, runnable) : null),
    [run, currentVersion, runnable],
  );
  return { run, standing, currentVersion };
}
