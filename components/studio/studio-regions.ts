// The studio's areas for the keyboard: the toolbar, the node palette, the canvas, the inspector or
// playground panel and the problems/code panel each carry `data-studio-region`. F6 (Shift+F6 back)
// moves the focus to the next area — where its `data-region-start` element is (the playground's
// composer), else its first control — and the skip link jumps straight to the playground.

const TABBABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

function shown(element: HTMLElement): boolean {
  return element.getClientRects().length > 0 && !element.closest("[hidden]");
}

/** The first control of `region` the focus should land on, or null when it has none shown. */
export function regionStart(region: HTMLElement): HTMLElement | null {
  const starts = [...region.querySelectorAll<HTMLElement>("[data-region-start]")].filter(shown);
  const start = starts[0];
  // A composer's text field before its Attach button: the focus lands where you type.
  if (start)
    return start.matches(TABBABLE)
      ? start
      : (start.querySelector<HTMLElement>("textarea:not([disabled])") ??
          start.querySelector<HTMLElement>(TABBABLE) ??
          start);
  return [...region.querySelectorAll<HTMLElement>(TABBABLE)].find(shown) ?? null;
}

/** The areas in the order F6 visits them: as they are seen, left to right, then the bottom panel. */
const REGION_ORDER = ["toolbar", "palette", "canvas", "inspector", "side-panel", "bottom-panel"];

/** Moves the focus to the next (`step` 1) or previous (−1) studio area that has a control. */
export function focusNextRegion(step: 1 | -1): void {
  const regions = REGION_ORDER.flatMap((name) => [
    ...document.querySelectorAll<HTMLElement>(`[data-studio-region="${name}"]`),
  ]).filter((region) => regionStart(region) !== null);
  if (regions.length === 0) return;
  const active = document.activeElement;
  const current = regions.findIndex((region) => active instanceof Node && region.contains(active));
  const next =
    current === -1
      ? step === 1
        ? 0
        : regions.length - 1
      : (current + step + regions.length) % regions.length;
  const region = regions[next];
  if (region) regionStart(region)?.focus();
}

/** Moves the focus into the playground (its composer or first message, else its first control). */
export function focusPlayground(): boolean {
  const panel = document.getElementById("studio-playground");
  const start = panel && shown(panel) ? regionStart(panel) : null;
  start?.focus();
  return start !== null;
}
