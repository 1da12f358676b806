import { STUDIO_TEMPLATES } from "@/lib/studio/templates";
import { decompileBundle } from "@/lib/graph/decompile";
import { deriveEdges } from "@/lib/graph/edges";
import { toElkGraph, applyElkPositions, loadElk } from "@/lib/graph/elk-layout";
import { cardSize } from "@/lib/graph/card-geometry";
const extra = JSON.parse(process.argv[2] ?? "{}");
const elk = await loadElk();
for (const t of STUDIO_TEMPLATES) {
  const g = decompileBundle(t.build());
  const input = toElkGraph(g, deriveEdges(g));
  input.layoutOptions = { ...input.layoutOptions, ...extra };
  const out = applyElkPositions(g, await elk.layout(input));
  let w = 0, h = 0;
  for (const n of out.nodes) { const s = cardSize(n); w = Math.max(w, n.position.x + s.width); h = Math.max(h, n.position.y + s.height); }
  console.log(t.id, out.nodes.length, "w", w, "h", h);
  if (process.env.SHOW) for (const n of out.nodes) console.log("  ", n.id, n.position.x, n.position.y);
}
