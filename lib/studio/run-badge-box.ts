// Where a playground run badge (components/studio/RunOverlayBadge.tsx) sits on the canvas, in flow
// units, so edge labels are placed around it like around a card. The badge is drawn in screen px
// at any zoom (a NodeToolbar above the card's left end), so its flow size grows as the view zooms
// out; its width is a generous estimate from its text, like an edge label's. Pure.
import { RUN_BADGE } from "@/lib/graph";
import type { Box } from "./edge-labels";
import { type AgentRunOverlay, badgeState, compactTokens } from "./run-overlay";

/** 11 px medium text: a generous average character width, in screen px. */
const BADGE_CHAR_PX = 6.8;
/** Padding and border (18), the status dot (8), and 6 px between each two parts. */
const BADGE_FIXED_PX = 18 + 8;
const BADGE_GAP_PX = 6;
/** The side pill: one bold letter and 4 px padding each side. */
const SIDE_PILL_PX = 8 + 9;

/** The words the badge shows, in order (the side as its letter). */
export function runBadgeParts(overlay: AgentRunOverlay): string[] {
  return [
    badgeState(overlay),
    ...(overlay.side ? [overlay.side.toUpperCase()] : []),
    `step ${overlay.steps}`,
    `${compactTokens(overlay.tokens)} tok`,
  ];
}

/** The badge's width on screen (px), a little over what it measures. */
export function runBadgeWidthPx(overlay: AgentRunOverlay): number {
  const parts = runBadgeParts(overlay);
  const text = parts.reduce((sum, part) => sum + part.length * BADGE_CHAR_PX, 0);
  return Math.ceil(BADGE_FIXED_PX + text + (overlay.side ? SIDE_PILL_PX : 0) + BADGE_GAP_PX * parts.length);
}

/** The badge's box in flow units, above the card `card` at `zoom`. */
export function runBadgeBox(card: { x: number; y: number }, overlay: AgentRunOverlay, zoom: number): Box {
  const height = RUN_BADGE.height / zoom;
  return {
    x: card.x,
    y: card.y - (RUN_BADGE.offset + RUN_BADGE.height) / zoom,
    width: runBadgeWidthPx(overlay) / zoom,
    height,
  };
}

/**
 * What edge labels must keep clear of: every card, and the run badge above each agent card that has
 * one (playground open after or during a run).
 */
export function labelObstacles(cards: readonly { box: Box; run?: AgentRunOverlay }[], zoom: number): Box[] {
  return cards.flatMap(({ box, run }) => (run ? [box, runBadgeBox(box, run, zoom)] : [box]));
}
