// Keeps docs/runtime.md's drawing of the layers equal to the ordered list it is generated from.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { drawLayers } from "./draw-layers.mjs";
import { LAYER_ROWS } from "./layer-list.mjs";

const repo = path.resolve(import.meta.dirname, "../..");

describe("drawing of the layers", () => {
  it("docs/runtime.md shows the drawing of scripts/layers/layer-list.mjs (node scripts/layers/draw-layers.mjs)", async () => {
    const doc = await readFile(path.join(repo, "docs/runtime.md"), "utf8");
    expect(doc).toContain(`\`\`\`text\n${drawLayers()}\`\`\``);
  });

  it("draws every layer once, rows top to bottom, peers beside their row", () => {
    const drawing = drawLayers();
    for (const layer of LAYER_ROWS.flat()) {
      expect(drawing.match(new RegExp(`^(  \\| )?${layer.name}[ :\\n]`, "gm")), layer.name).toHaveLength(1);
    }
    expect(drawing.indexOf("runtime/services")).toBeLessThan(drawing.indexOf("runtime/store"));
    expect(drawing).toContain("runtime/services: what routes call\n  | runtime/events");
  });
});
