// The icon of a node kind in the palette: a glyph in the kind's colour on a tinted square.

import type { StudioNodeKind } from "@/lib/studio/document-edits";
import type { NodePreset } from "@/lib/studio/node-presets";

const KIND_COLOURS: Record<StudioNodeKind, string> = {
  agent: "#7048e8",
  prompt: "#1971c2",
  tool: "#d9480f",
  model: "#2b8a3e",
  note: "#e67700",
};

/** 16 × 16 outline glyphs (stroke), one per kind and for the presets that differ. */
const GLYPHS: Record<StudioNodeKind, string> = {
  agent: "M8 2.5a2.5 2.5 0 1 1 0 5a2.5 2.5 0 1 1 0-5M3 13.5c.6-2.6 2.6-4 5-4s4.4 1.4 5 4",
  prompt: "M3 3.5h10v7H7l-3 2.5v-2.5H3zM5.5 6h5M5.5 8h3",
  tool: "M10.5 2.5a3 3 0 0 0-2.8 4L2.8 11.4a1.2 1.2 0 0 0 1.8 1.8L9.5 8.3a3 3 0 0 0 4-2.8l-1.8 1.8-1.9-.4-.4-1.9z",
  model:
    "M4.5 4.5h7v7h-7zM6.5 2v2.5M9.5 2v2.5M6.5 11.5V14M9.5 11.5V14M2 6.5h2.5M2 9.5h2.5M11.5 6.5H14M11.5 9.5H14",
  note: "M3.5 2.5h9v7l-3 3.5h-6zM9.5 13V9.5h3",
};

const PRESET_GLYPHS: Record<string, string> = {
  // Two people: the two AI sides.
  "agent-dual-ai":
    "M5.5 3a2 2 0 1 1 0 4a2 2 0 1 1 0-4M1.5 12.5c.4-2 1.9-3.2 4-3.2s3.6 1.2 4 3.2M10.5 3a2 2 0 1 1 0 4M11.5 9.4c1.6.3 2.7 1.4 3 3.1",
  // A globe: a call over the network.
  "tool-http": "M8 2a6 6 0 1 1 0 12a6 6 0 1 1 0-12M2 8h12M8 2c-2 2.2-2 9.8 0 12M8 2c2 2.2 2 9.8 0 12",
};

export function NodeKindIcon({ preset }: { preset: Pick<NodePreset, "kind" | "id"> }) {
  const colour = KIND_COLOURS[preset.kind];
  return (
    <span
      aria-hidden="true"
      data-kind-icon={preset.kind}
      className="flex size-6 shrink-0 items-center justify-center rounded"
      style={{ color: colour, backgroundColor: `color-mix(in srgb, ${colour} 14%, transparent)` }}
    >
      <svg
        aria-hidden="true"
        viewBox="0 0 16 16"
        width="16"
        height="16"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.4"
      >
        <path
          d={PRESET_GLYPHS[preset.id] ?? GLYPHS[preset.kind]}
          strokeLinecap="round"
          strokeLinejoin="round"
        />
      </svg>
    </span>
  );
}
