// Draws the ordered layer list (layer-list.mjs) as the ASCII diagram of docs/runtime.md, so the
// drawing is generated from the rules and a test keeps the two equal.
// Usage: node scripts/layers/draw-layers.mjs   (prints the drawing; paste it into docs/runtime.md)
import path from "node:path";
import { fileURLToPath } from "node:url";
import { LAYER_ROWS } from "./layer-list.mjs";

/** The tag of a side whose layers may not import every lower layer. */
const SIDE_TAG = { client: "[browser]", shared: "[isomorphic]" };

/** One layer's label: its name, its side's tag, and what it holds. */
function label(layer) {
  const entries = layer.serverEntries ? `server only through ${layer.serverEntries.join(", ")}` : undefined;
  const never = (layer.never ?? []).map((rule) => `never ${rule.layer}`);
  const details = [layer.about, entries, ...never].filter(Boolean).join("; ");
  const name = [layer.name, SIDE_TAG[layer.side]].filter(Boolean).join(" ");
  return details ? `${name}: ${details}` : name;
}

/** The drawing: one row per line (peers joined by " | "), an arrow down between rows. */
export function drawLayers(rows = LAYER_ROWS) {
  const lines = [];
  rows.forEach((row, index) => {
    if (index > 0) lines.push("  ▼");
    const [first, ...peers] = row.map(label);
    lines.push(first);
    for (const peer of peers) lines.push(`  | ${peer}`);
  });
  lines.push("", "[browser] and [isomorphic] layers never import a server layer (runtime/, lib/db).");
  return `${lines.join("\n")}\n`;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.stdout.write(drawLayers());
}
