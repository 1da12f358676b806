// Inline SVG icons for the canvas cards, one per node kind (and the human side of an agent). Drawn
// on a 16-unit grid with the current colour, so each card tints its icon with its kind colour.
import type { GraphNode } from "@/lib/graph";

const PATHS: Record<GraphNode["type"] | "human", string> = {
  agent:
    "M5.5 2.5h5M8 2.5v2M3.5 4.5h9a1 1 0 0 1 1 1v6a1 1 0 0 1-1 1h-9a1 1 0 0 1-1-1v-6a1 1 0 0 1 1-1zM6 8.5v.5M10 8.5v.5",
  prompt:
    "M3 3.5h10a1 1 0 0 1 1 1v6a1 1 0 0 1-1 1H7.5L4.5 14v-2.5H3a1 1 0 0 1-1-1v-6a1 1 0 0 1 1-1zM5 6.5h6M5 8.5h4",
  tool: "M10.2 2.6a3.2 3.2 0 0 0-3.6 4.3L2.8 10.7a1.3 1.3 0 0 0 1.9 1.9l3.8-3.8a3.2 3.2 0 0 0 4.3-3.6l-1.9 1.9-1.7-.4-.4-1.7z",
  model:
    "M4.5 4.5h7v7h-7zM6.5 2v2.5M9.5 2v2.5M6.5 11.5V14M9.5 11.5V14M2 6.5h2.5M2 9.5h2.5M11.5 6.5H14M11.5 9.5H14M6.8 6.8h2.4v2.4H6.8z",
  note: "M3 2.5h10v7l-3.5 4H3zM9.5 13.5v-4H13M5 5.5h6M5 7.5h4",
  human: "M8 2.5a2.5 2.5 0 1 1 0 5 2.5 2.5 0 0 1 0-5zM3.5 13.5a4.5 4.5 0 0 1 9 0",
};

export function NodeIcon({
  kind,
  className = "size-4",
}: {
  kind: GraphNode["type"] | "human";
  className?: string;
}) {
  return (
    <svg
      viewBox="0 0 16 16"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.5}
      strokeLinecap="round"
      strokeLinejoin="round"
      className={className}
      aria-hidden
      focusable="false"
    >
      <path d={PATHS[kind]} />
    </svg>
  );
}
