// Types of draw-layers.mjs (plain JavaScript, run with no build step).
import type { Layer } from "./layer-list.mjs";

export function drawLayers(rows?: Layer[][]): string;
