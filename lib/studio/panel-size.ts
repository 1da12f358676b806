// The studio's bottom panel (problems and code): its remembered size, and how keys resize it. Pure, so
// the separator's keyboard behaviour and the stored value's parsing are unit-tested.
import { z } from "zod";

export const PANEL_STORAGE_KEY = "tandem.studio.bottomPanel";
export const PANEL_MIN_HEIGHT = 120;
export const PANEL_DEFAULT_HEIGHT = 224;
const KEY_STEP = 24;
const PAGE_STEP = 120;

export const PanelSizeSchema = z.object({
  height: z.number().finite().min(PANEL_MIN_HEIGHT).max(10_000),
  collapsed: z.boolean(),
  maximised: z.boolean(),
});
export type PanelSize = z.infer<typeof PanelSizeSchema>;

export const DEFAULT_PANEL_SIZE: PanelSize = {
  height: PANEL_DEFAULT_HEIGHT,
  collapsed: false,
  maximised: false,
};

/** The stored size, or the default when nothing (or nothing valid) is stored. */
export function parsePanelSize(stored: string | null): PanelSize {
  if (stored === null) return DEFAULT_PANEL_SIZE;
  try {
    const parsed = PanelSizeSchema.safeParse(JSON.parse(stored));
    return parsed.success ? parsed.data : DEFAULT_PANEL_SIZE;
  } catch {
    return DEFAULT_PANEL_SIZE;
  }
}

export function clampHeight(height: number, max: number): number {
  return Math.round(Math.min(Math.max(height, PANEL_MIN_HEIGHT), Math.max(max, PANEL_MIN_HEIGHT)));
}

/**
 * The size after a key on the separator (`current` is the height on screen, `max` the most it can
 * take), or undefined when the key does not resize. Up grows the panel (its top edge moves up).
 */
export function resizeByKey(size: PanelSize, key: string, shift: boolean, current: number, max: number) {
  const step = shift ? PAGE_STEP : KEY_STEP;
  const resized = (height: number): PanelSize => ({
    height: clampHeight(height, max),
    collapsed: false,
    maximised: false,
  });
  switch (key) {
    case "ArrowUp":
      return resized(current + step);
    case "ArrowDown":
      return resized(current - step);
    case "PageUp":
      return resized(current + PAGE_STEP);
    case "PageDown":
      return resized(current - PAGE_STEP);
    case "Home":
      return resized(PANEL_MIN_HEIGHT);
    case "End":
      return { ...size, collapsed: false, maximised: true };
    case "Enter":
      return toggleMaximised(size);
    default:
      return undefined;
  }
}

/** Double-click or Enter on the separator: maximise, or back to the height it had. */
export function toggleMaximised(size: PanelSize): PanelSize {
  return { ...size, collapsed: false, maximised: !size.maximised };
}
