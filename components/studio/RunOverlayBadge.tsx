"use client";
// The playground run's badge on an agent node: live threads, the side of the latest step, steps and
// tokens. It is a React Flow NodeToolbar above the card's left end (agents sit leftmost in the
// layout, so a badge wider than a zoomed-out card grows into the canvas, not off it), drawn outside
// the zoomed layer: its 11 px text stays 11 px at fit view, and it never changes the node's measured
// size. Layouts leave room above agents for it (BADGE_ROOM_ABOVE_AGENT, from RUN_BADGE's offset and
// height), so at fit view it hangs in free space, not over the card above; edge labels are placed
// around it (lib/studio/run-badge-box.ts estimates its box from these words). It says everything in
// full to tooltips and screen readers.
import { NodeToolbar, Position } from "@xyflow/react";
import { RUN_BADGE } from "@/lib/graph";
import {
  type AgentRunOverlay,
  badgeState,
  compactTokens,
  describeRunOverlay,
} from "@/lib/studio/run-overlay";

/** A darker shade of --status-running: white 11 px text on it passes WCAG AA (6:1). */
const RUNNING_BADGE = "#1864ab";

export function RunOverlayBadge({ agent, overlay }: { agent: string; overlay: AgentRunOverlay | undefined }) {
  if (!overlay) return null;
  const running = overlay.running > 0;
  const description = describeRunOverlay(overlay);
  return (
    <NodeToolbar isVisible position={Position.Top} align="start" offset={RUN_BADGE.offset}>
      <div
        data-testid="run-overlay"
        data-agent={agent}
        data-live={overlay.live}
        data-running={overlay.running}
        data-waiting={overlay.waiting}
        data-side={overlay.side ?? ""}
        title={`Playground run: ${description}`}
        className={`flex items-center gap-1.5 whitespace-nowrap rounded-full border px-2 py-0.5 text-[11px] font-medium shadow-sm ${
          running ? "border-transparent text-white" : "border-border bg-surface text-text"
        }`}
        style={
          running
            ? { height: RUN_BADGE.height, backgroundColor: RUNNING_BADGE }
            : { height: RUN_BADGE.height }
        }
      >
        <span
          aria-hidden
          className={`size-2 rounded-full ${running ? "animate-pulse bg-white" : ""}`}
          style={
            running
              ? undefined
              : {
                  backgroundColor:
                    overlay.waiting > 0 ? "var(--status-waiting_approval)" : "var(--status-idle)",
                }
          }
        />
        <span aria-hidden>{badgeState(overlay)}</span>
        {overlay.side ? (
          <span
            aria-hidden
            className={`rounded px-1 font-semibold ${running ? "bg-white/25" : "bg-surface-muted"}`}
          >
            {overlay.side.toUpperCase()}
          </span>
        ) : null}
        <span aria-hidden>step {overlay.steps}</span>
        <span aria-hidden>{compactTokens(overlay.tokens)} tok</span>
        <span className="sr-only">Playground run: {description}</span>
      </div>
    </NodeToolbar>
  );
}
