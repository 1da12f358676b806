// Canvas-wide layout actions: auto layout (ELK, async) applied as one undo step, and the fit view
// options every "fit" uses, so fit view never zooms out below legible text (FIT_VIEW_MIN_ZOOM).
import type { FitViewOptions } from "@xyflow/react";
import { FIT_VIEW_MIN_ZOOM } from "@/lib/graph";
import { moveNodes } from "@/lib/studio/document-edits";
import { autoLayout } from "@/lib/studio/document-layout";
import type { StudioStore } from "@/lib/studio/studio-store";

/** Fit view stops at FIT_VIEW_MIN_ZOOM (smallest canvas text ≥ 11 px on screen) and at 100 %. */
export const FIT_VIEW_OPTIONS = {
  minZoom: FIT_VIEW_MIN_ZOOM,
  maxZoom: 1,
  padding: 0.06,
} satisfies FitViewOptions;

/**
 * Lays the whole canvas out again. ELK runs asynchronously, so only the positions it found are
 * applied — to the document as it is then — as one undoable change.
 */
export async function layoutCanvas(store: StudioStore, onDone?: () => void): Promise<void> {
  const laidOut = await autoLayout(store.getState().history.present);
  const positions = new Map(laidOut.nodes.map((node) => [node.id, node.position]));
  store.getState().edit((current) => moveNodes(current, positions));
  store.getState().setStatus({ tone: "info", text: "Laid out the whole canvas" });
  onDone?.();
}
