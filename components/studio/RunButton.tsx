"use client";
// Run: opens (or closes) the playground panel, where the selected (or first) ai_human agent runs
// without leaving the studio. Its title names the agent a run would start, or why none can.
import { Button } from "@/components/ui/Button";
import { ICONS } from "@/components/ui/icons";
import { runTarget } from "@/lib/studio/run-target";
import { soleSelected } from "@/lib/studio/selection";
import { usePlayground, usePlaygroundStore } from "./PlaygroundContext";
import { useStudio } from "./StudioStoreContext";
import { useCompiled } from "./useCompiled";

export function RunButton() {
  const playground = usePlaygroundStore();
  const open = usePlayground((state) => state.open);
  const running = usePlayground((state) =>
    state.live ? state.live.statusCounts.running + state.live.statusCounts.queued > 0 : false,
  );
  const compiled = useCompiled();
  const selection = useStudio((state) => state.selection);
  const selected = soleSelected(selection);
  const target = runTarget(compiled.graph, compiled, selected?.kind === "node" ? selected.id : null);

  return (
    <Button
      tone="primary"
      aria-expanded={open}
      aria-controls={open ? "studio-playground" : undefined}
      title={
        open
          ? "Close the playground"
          : target.ok
            ? `Run ${target.agent} in the playground`
            : `Open the playground: ${target.reason}`
      }
      onClick={() => playground.setState({ open: !open })}
    >
      {running ? (
        <span aria-hidden className="size-2 animate-pulse rounded-full bg-accent-contrast" />
      ) : (
        ICONS.play
      )}
      Run
    </Button>
  );
}
