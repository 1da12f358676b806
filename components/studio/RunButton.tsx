"use client";
// Run: opens (or closes) the playground panel, where the selected (or first) ai_human agent runs
// without leaving the studio, and moves the focus into it. A kept run of the saved version is shown
// again; one of an older version, or of an agent that version no longer has, is put aside and the
// form for a new run on the saved version is shown (it says why and links the old run). Its title
// says exactly what a click does, from the same state the panel reads.
import { Gated } from "@/components/access/Gated";
import { permission } from "@/components/access/permission";
import { useProjectAccess } from "@/components/access/useProjectAccess";
import { Button } from "@/components/ui/Button";
import { ICONS } from "@/components/ui/icons";
import { runTarget } from "@/lib/studio/run-target";
import { soleSelected } from "@/lib/studio/selection";
import { usePlayground, usePlaygroundStore } from "./PlaygroundContext";
import { useStudio } from "./StudioStoreContext";
import { useCompiled } from "./useCompiled";
import { useKeptRun } from "./useKeptRun";

export function RunButton({ projectId }: { projectId: string }) {
  // A viewer sees Run disabled with the reason; a runner and above run.
  const allowed = permission(useProjectAccess(projectId), "run");
  const playground = usePlaygroundStore();
  const open = usePlayground((state) => state.open);
  const view = usePlayground((state) => state.view);
  const running = usePlayground((state) =>
    state.live ? state.live.statusCounts.running + state.live.statusCounts.queued > 0 : false,
  );
  const compiled = useCompiled();
  const selection = useStudio((state) => state.selection);
  const selected = soleSelected(selection);
  const target = runTarget(compiled.graph, compiled, selected?.kind === "node" ? selected.id : null);
  const { run, standing, currentVersion } = useKeptRun();
  const keptCurrent = run !== null && standing?.kind === "current";
  const putAside = run !== null && !keptCurrent;
  const onVersion = currentVersion ? ` on v${currentVersion}` : "";
  const lastRun = putAside && run.version ? ` (the last run, of ${run.agentId}, was on v${run.version})` : "";

  const title =
    open && view === "playground"
      ? "Close the playground"
      : open
        ? "Show the playground"
        : keptCurrent
          ? `Open the playground: your run of ${run.agentId}${run.version ? ` on v${run.version}` : ""}`
          : target.ok
            ? `Run ${target.agent}${onVersion} in the playground${lastRun}`
            : `Open the playground: ${target.reason}`;

  function onClick() {
    if (open && view === "playground") return playground.setState({ open: false });
    if (open) return playground.setState({ view: "playground", focusPending: true });
    playground.setState({
      open: true,
      view: "playground",
      focusPending: true,
      ...(putAside ? { previousRun: run, run: null, live: null, selectedId: null } : {}),
    });
  }

  return (
    <Gated reason={allowed.ok ? null : allowed.reason}>
      <Button
        tone="primary"
        aria-expanded={open}
        aria-controls={open ? "studio-playground" : undefined}
        title={allowed.ok ? title : undefined}
        disabled={!allowed.ok}
        onClick={onClick}
      >
        {running ? (
          <span aria-hidden className="size-2 animate-pulse rounded-full bg-accent-contrast" />
        ) : (
          ICONS.play
        )}
        Run
      </Button>
    </Gated>
  );
}
