// Types of layer-list.mjs (plain JavaScript: `npm run lint` runs the layer check with no build step).
export interface Layer {
  name: string;
  /** What the layer holds, for the drawing (draw-layers.mjs). */
  about?: string;
  /** Folders end with "/", files are named without extension, "**\/*.x" matches a name's ending. */
  paths: string[];
  side: "tooling" | "edge" | "client" | "shared" | "server";
  serverEntries?: string[];
  never?: { layer: string; why: string }[];
}
export const LAYER_ROWS: Layer[][];
