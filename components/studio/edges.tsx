"use client";
// The canvas edges: `StudioEdge` draws the line (colour, dash and arrow per kind, see flow-elements);
// `EdgeLabels` draws every label in one layer, placed by lib/studio/edge-labels.ts so no label
// covers a node, a playground run badge or another label. Crowded or zoomed-out labels shrink to a badge or hide; hovering
// or selecting an edge shows its full text. Clicking a label selects its edge.
import {
  BaseEdge,
  EdgeLabelRenderer,
  type EdgeProps,
  getBezierPath,
  type InternalNode,
  Position,
  useStore,
} from "@xyflow/react";
import { useMemo } from "react";
import { CANVAS_FAR_ZOOM } from "@/lib/graph";
import {
  BADGE_ICON_PX,
  type Box,
  boxesIntersect,
  type EdgeBadge,
  type LabelRequest,
  labelDrawArea,
  type Point,
  placeEdgeLabels,
} from "@/lib/studio/edge-labels";
import { backwardRoute, forwardRoute, isBackward, roundedPath, runBackY } from "@/lib/studio/edge-route";
import { labelObstacles } from "@/lib/studio/run-badge-box";
import type { AgentRunOverlay } from "@/lib/studio/run-overlay";
import { EDGE_LABEL_PRIORITY, type StudioFlowEdge, type StudioFlowNode } from "./flow-elements";

export function StudioEdge({
  source: sourceId,
  target: targetId,
  sourceX,
  sourceY,
  targetX,
  targetY,
  sourcePosition,
  targetPosition,
  style,
  markerEnd,
  interactionWidth,
}: EdgeProps<StudioFlowEdge>) {
  const source = { x: sourceX, y: sourceY };
  const target = { x: targetX, y: targetY };
  const backward = isBackward(source, target);
  // A backward edge runs back under its source card, clear of the other cards: a number, so this
  // edge re-renders only when it changes; forward edges read nothing.
  const runY = useStore((state) =>
    backward ? (backwardRunY(state.nodeLookup, sourceId, targetId, source, target) ?? null) : null,
  );
  // A forward edge whose bezier would pass behind a card is routed through the gaps: its path, a
  // string, so this edge re-renders only when the route changes.
  const forwardPath = useStore((state) => {
    if (backward) return null;
    const route = forwardCorners(state.nodeLookup, sourceId, targetId, source, target);
    return route ? roundedPath(route) : null;
  });
  const path = backward
    ? roundedPath(backwardRoute(source, target, runY ?? undefined))
    : (forwardPath ??
      getBezierPath({ sourceX, sourceY, sourcePosition, targetX, targetY, targetPosition })[0]);
  return <BaseEdge path={path} style={style} markerEnd={markerEnd} interactionWidth={interactionWidth} />;
}

export const STUDIO_EDGE_TYPES = { studio: StudioEdge };

const BADGE_PATHS: Record<EdgeBadge["kind"], string> = {
  resumable: "M13 8a5 5 0 1 1-1.5-3.5M13 2.5v3h-3",
  immediate: "M9 1.5 3.5 9H8l-1 5.5L12.5 7H8z",
  optional: "M6 6a2 2 0 1 1 2.5 2c-.4.2-.5.5-.5.9V10M8 12.5v.5",
};

/** The compact form: one icon per mode flag (resumable with its max instances), drawn in a pill. */
function EdgeBadges({ badges }: { badges: readonly EdgeBadge[] }) {
  return (
    <span className="flex items-center gap-[3px]" aria-hidden>
      {badges.map((badge) => (
        <span key={badge.kind} className="flex items-center gap-px">
          <svg
            aria-hidden
            viewBox="0 0 16 16"
            width={BADGE_ICON_PX}
            height={BADGE_ICON_PX}
            fill="none"
            stroke="currentColor"
            strokeWidth={1.8}
            strokeLinecap="round"
            strokeLinejoin="round"
          >
            <path d={BADGE_PATHS[badge.kind]} />
          </svg>
          {badge.count === undefined ? null : <span>{badge.count}</span>}
        </span>
      ))}
    </span>
  );
}

/** The box spanned by an edge's two ends (its label is placed along the curve between them). */
function spanOf(from: Point, to: Point): Box {
  return {
    x: Math.min(from.x, to.x),
    y: Math.min(from.y, to.y),
    width: Math.abs(to.x - from.x),
    height: Math.abs(to.y - from.y),
  };
}

const EVERYWHERE: Box = { x: -1e9, y: -1e9, width: 2e9, height: 2e9 };
const NOWHERE: Box = { x: 0, y: 0, width: 0, height: 0 };

function sameBox(a: Box, b: Box): boolean {
  return a.x === b.x && a.y === b.y && a.width === b.width && a.height === b.height;
}

/** Where React Flow attaches an edge to a handle (getHandlePosition for left/right handles). */
function handlePoint(
  node: InternalNode<StudioFlowNode>,
  type: "source" | "target",
  id?: string | null,
): Point | null {
  const handles = node.internals.handleBounds?.[type] ?? [];
  const handle = (id ? handles.find((candidate) => candidate.id === id) : undefined) ?? handles[0];
  if (!handle) return null;
  const x = node.internals.positionAbsolute.x + handle.x;
  const y = node.internals.positionAbsolute.y + handle.y + handle.height / 2;
  return { x: handle.position === Position.Right ? x + handle.width : x, y };
}

function nodeBox(node: InternalNode): Box | null {
  const width = node.measured.width;
  const height = node.measured.height;
  if (!width || !height) return null;
  return { ...node.internals.positionAbsolute, width, height };
}

/**
 * The route of a forward edge whose bezier would pass behind another card (lib/studio/edge-route
 * forwardRoute), or null: the bezier. Only cards within the edge's span are collected.
 */
function forwardCorners(
  nodeLookup: ReadonlyMap<string, InternalNode>,
  sourceId: string,
  targetId: string,
  from: Point,
  to: Point,
): Point[] | null {
  if (to.x <= from.x) return null;
  const top = Math.min(from.y, to.y);
  const bottom = Math.max(from.y, to.y);
  // Run on every store change (a pan too): most edges have no card in their span, found without
  // allocating anything.
  let inSpan = false;
  for (const node of nodeLookup.values()) {
    if (node.id === sourceId || node.id === targetId) continue;
    const { x, y } = node.internals.positionAbsolute;
    const { width, height } = node.measured;
    if (width && height && x < to.x && x + width > from.x && y < bottom && y + height > top) {
      inSpan = true;
      break;
    }
  }
  return inSpan ? forwardRoute(from, to, otherCards(nodeLookup, sourceId, targetId)) : null;
}

/** The measured boxes of every card but an edge's own two. */
function otherCards(
  nodeLookup: ReadonlyMap<string, InternalNode>,
  sourceId: string,
  targetId: string,
): Box[] {
  const cards: Box[] = [];
  for (const node of nodeLookup.values()) {
    if (node.id === sourceId || node.id === targetId) continue;
    const box = nodeBox(node);
    if (box) cards.push(box);
  }
  return cards;
}

/**
 * Where a backward edge runs back (lib/studio/edge-route runBackY): under its source card, clear of
 * every other card on the way; undefined until the source card is measured.
 */
function backwardRunY(
  nodeLookup: ReadonlyMap<string, InternalNode>,
  sourceId: string,
  targetId: string,
  from: Point,
  to: Point,
): number | undefined {
  const sourceNode = nodeLookup.get(sourceId);
  const sourceBox = sourceNode && nodeBox(sourceNode);
  if (!sourceBox) return undefined;
  return runBackY(sourceBox.y + sourceBox.height, from, to, otherCards(nodeLookup, sourceId, targetId));
}

export function EdgeLabels({
  edges,
  culled,
  hoveredEdgeId,
  onSelect,
  onHover,
}: {
  edges: readonly StudioFlowEdge[];
  /** Large canvases: place and draw only the labels near the view. */
  culled: boolean;
  hoveredEdgeId: string | null;
  onSelect: (edgeId: string) => void;
  onHover: (edgeId: string | null) => void;
}) {
  const nodeLookup = useStore((state) => state.nodeLookup);
  // nodeLookup is updated in place; the nodes array changes whenever a node moves or is measured.
  const nodes = useStore((state) => state.nodes);
  const zoom = useStore((state) => state.transform[2]);
  // On a culled canvas only labels near the view are in the DOM (300 nodes have ~500 labels). The
  // area is compared by value, so this re-renders when it moves to another grid cell, not on every
  // frame.
  // Zoomed far out (cards drawn as blocks) no label is drawn, not even a hovered one (its text would
  // be under 5 px): nothing is placed, and panning there re-renders nothing here.
  const far = zoom < CANVAS_FAR_ZOOM;
  const drawArea = useStore(
    (state) =>
      state.transform[2] < CANVAS_FAR_ZOOM
        ? NOWHERE
        : culled
          ? labelDrawArea(
              { x: state.transform[0], y: state.transform[1], zoom: state.transform[2] },
              { width: state.width, height: state.height },
            )
          : EVERYWHERE,
    sameBox,
  );

  // Placed afresh whenever a node moves, so only the labels of edges that reach into the drawn area
  // are placed (against the cards there): on a large canvas that is a fraction of them.
  const placements = useMemo(() => {
    void nodes;
    if (far) return [];
    // Cards, and the playground run badge above an agent card, are kept clear.
    const cards: { box: Box; run?: AgentRunOverlay }[] = [];
    for (const node of nodeLookup.values()) {
      const box = nodeBox(node as InternalNode<StudioFlowNode>);
      if (box && boxesIntersect(box, drawArea))
        cards.push({ box, run: (node as InternalNode<StudioFlowNode>).data.run });
    }
    const boxes = labelObstacles(cards, zoom);
    const requests: LabelRequest[] = [];
    for (const edge of edges) {
      const source = nodeLookup.get(edge.source) as InternalNode<StudioFlowNode> | undefined;
      const target = nodeLookup.get(edge.target) as InternalNode<StudioFlowNode> | undefined;
      const from = source && handlePoint(source, "source", edge.sourceHandle);
      const to = target && handlePoint(target, "target", edge.targetHandle);
      if (!edge.data || !from || !to || !boxesIntersect(spanOf(from, to), drawArea)) continue;
      requests.push({
        id: edge.id,
        source: from,
        target: to,
        runY: isBackward(from, to) ? backwardRunY(nodeLookup, edge.source, edge.target, from, to) : undefined,
        forward: forwardCorners(nodeLookup, edge.source, edge.target, from, to) ?? undefined,
        text: edge.data.text,
        priority: EDGE_LABEL_PRIORITY[edge.data.kind],
        emphasised: edge.selected === true || edge.id === hoveredEdgeId,
      });
    }
    return placeEdgeLabels(requests, boxes, zoom);
  }, [edges, nodeLookup, nodes, zoom, far, hoveredEdgeId, drawArea]);

  const byId = new Map(edges.map((edge) => [edge.id, edge]));
  return (
    <EdgeLabelRenderer>
      {placements.map((placement) => {
        const edge = byId.get(placement.id);
        if (!edge?.data || placement.form === "hidden" || !boxesIntersect(placement, drawArea)) return null;
        return (
          <button
            key={placement.id}
            type="button"
            data-testid="edge-label"
            data-edge-id={placement.id}
            data-kind={edge.data.kind}
            data-form={placement.form}
            data-label={edge.data.text.full}
            title={edge.data.text.full}
            aria-label={`Select edge: ${edge.data.text.full}`}
            className={`studio-edge-label nodrag nopan studio-edge-label-${edge.data.kind}${
              edge.data.errors > 0
                ? " studio-edge-label-error"
                : edge.data.warnings > 0
                  ? " studio-edge-label-warning"
                  : ""
            }${edge.selected ? " studio-edge-label-selected" : ""}`}
            style={{
              transform: `translate(${placement.x}px, ${placement.y}px)`,
              width: placement.width,
              height: placement.height,
            }}
            onClick={() => onSelect(placement.id)}
            onMouseEnter={() => onHover(placement.id)}
            onMouseLeave={() => onHover(null)}
          >
            {placement.form === "compact" ? <EdgeBadges badges={edge.data.text.badges} /> : placement.text}
          </button>
        );
      })}
    </EdgeLabelRenderer>
  );
}
