import { describe, expect, it } from "vitest";
import { RUN_BADGE } from "@/lib/graph";
import { boxesIntersect, edgeText, placeEdgeLabels } from "./edge-labels";
import { labelObstacles, runBadgeBox, runBadgeWidthPx } from "./run-badge-box";
import type { AgentRunOverlay } from "./run-overlay";

const ended: AgentRunOverlay = {
  live: 0,
  running: 0,
  waiting: 0,
  side: "b",
  sideLabel: "Editor",
  steps: 8,
  tokens: 781,
  ended: "completed",
};

describe("runBadgeBox", () => {
  it("sits above the card's left end, its screen size divided by the zoom", () => {
    const box = runBadgeBox({ x: 100, y: 200 }, ended, 0.5);
    expect(box.x).toBe(100);
    expect(box.y).toBe(200 - (RUN_BADGE.offset + RUN_BADGE.height) / 0.5);
    expect(box.height).toBe(RUN_BADGE.height / 0.5);
    expect(box.width).toBe(runBadgeWidthPx(ended) / 0.5);
  });

  it("is at least as wide as its words at 11 px", () => {
    // "completed B step 8 781 tok" measures about 175 px in the studio's font.
    expect(runBadgeWidthPx(ended)).toBeGreaterThanOrEqual(175);
  });
});

describe("edge labels around run badges", () => {
  // The team template's case (issue 41): a subagent edge runs back just above the writer's card,
  // through where the writer's run badge hangs.
  const writer = { x: 300, y: 300, width: 240, height: 100 };
  const zoom = 0.95;
  const badge = runBadgeBox(writer, ended, zoom);
  const request = {
    id: "subagent",
    source: { x: 200, y: badge.y + badge.height / 2 },
    target: { x: 700, y: badge.y + badge.height / 2 },
    text: edgeText("subagent", {
      mode: { blocking: true, resumable: true, maxInstances: 2, immediate: false, optional: false },
    }),
    priority: 0,
  };

  it("keep clear of the badge above an agent card that has run", () => {
    const obstacles = labelObstacles([{ box: writer, run: ended }], zoom);
    const [label] = placeEdgeLabels([request], obstacles, zoom);
    expect(label!.form).not.toBe("hidden");
    expect(boxesIntersect(label!, badge)).toBe(false);
    expect(boxesIntersect(label!, writer)).toBe(false);
    expect(obstacles).toContainEqual(badge);
  });

  it("are placed against the cards alone when no run is shown", () => {
    expect(labelObstacles([{ box: writer }], zoom)).toEqual([writer]);
  });
});
