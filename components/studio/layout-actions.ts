// Canvas-wide layout actions: auto layout (ELK, async, packed for the canvas in view) applied as one
// undo step, and the fit view options React Flow's own fits use, so they never zoom out below
// legible text (FIT_VIEW_MIN_ZOOM). "Zoom to fit" itself is StudioViewport.fitCanvas.
import type { FitViewOptions } from "@xyflow/react";
import { CANVAS_FIT, type Size } from "@/lib/graph";
import { moveNodes } from "@/lib/studio/document-edits";
import { autoLayout } from "@/lib/studio/document-layout";
import type { StudioStore } from "@/lib/studio/studio-store";

/** Fit view stops at FIT_VIEW_MIN_ZOOM (smallest canvas text ≥ 11 px on screen) and at 100 %. */
export const FIT_VIEW_OPTIONS = {
  minZoom: CANVAS_FIT.minZoom,
  maxZoom: CANVAS_FIT.maxZoom,
  padding: CANVAS_FIT.padding,
} satisfies FitViewOptions;

/**
 * Lays the whole canvas out again, packed for `room` (the canvas at the smallest legible zoom). ELK
 * runs asynchronously, so only the positions it found are applied — to the document as it is then —
 * as one undoable change.
 */
export async function layoutCanvas(store: StudioStore, room?: Size, onDone?: () => void): Promise<void> {
  const laidOut = await autoLayout(store.getState().history.present, room);
  const positions = new Map(laidOut.nodes.map((node) => [node.id, node.position]));
  store.getState().edit((current) => moveNodes(current, positions));
  store.getState().setStatus({ tone: "info", text: "Laid out the whole canvas" });
  onDone?.();
}
