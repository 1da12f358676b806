import { describe, expect, it } from "vitest";
import { cardSize, emptyGraph, type Graph } from "@/lib/graph";
import { addNode } from "./document-edits";
import { DROP_ANCHOR, dropPosition, NEW_NODE_SIZE, placeInView, type Rect } from "./placement";

const view: Rect = { x: -500, y: 200, width: 1000, height: 600 };

function withNodesAt(...positions: { x: number; y: number }[]): Graph {
  return positions.reduce((graph, position) => addNode(graph, "note", position).graph, emptyGraph());
}

function overlap(a: Rect, b: Rect) {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

const contains = (outer: Rect, inner: Rect) =>
  inner.x >= outer.x &&
  inner.y >= outer.y &&
  inner.x + inner.width <= outer.x + outer.width &&
  inner.y + inner.height <= outer.y + outer.height;

describe("placeInView", () => {
  it("puts a node in the centre of an empty view", () => {
    const at = placeInView(emptyGraph(), view);
    expect(at).toEqual({
      x: view.x + (view.width - NEW_NODE_SIZE.width) / 2,
      y: view.y + (view.height - NEW_NODE_SIZE.height) / 2,
    });
  });

  it("moves off a node that sits in the centre, staying inside the view", () => {
    const centre = placeInView(emptyGraph(), view);
    const graph = withNodesAt(centre);
    const at = placeInView(graph, view);
    const box = { ...at, ...NEW_NODE_SIZE };
    expect(at).not.toEqual(centre);
    // The note in the centre is not measured yet: it counts with the size its card will have.
    expect(overlap(box, { ...centre, ...cardSize(graph.nodes[0]!) })).toBe(false);
    expect(contains(view, box)).toBe(true);
  });

  it("keeps clear of an unmeasured agent card's full width (wider than the default size)", () => {
    const centre = placeInView(emptyGraph(), view);
    const graph = addNode(emptyGraph(), "agent", centre).graph;
    const agentCard = cardSize(graph.nodes[0]!);
    expect(agentCard.width).toBeGreaterThan(NEW_NODE_SIZE.width);
    const at = placeInView(graph, view, undefined, agentCard);
    expect(overlap({ ...at, ...agentCard }, { ...centre, ...agentCard })).toBe(false);
  });

  it("uses measured sizes when given: a wide node in the centre pushes the new one clear of it", () => {
    const centre = placeInView(emptyGraph(), view);
    const graph = withNodesAt({ x: centre.x - 200, y: centre.y });
    const wide = { width: 600, height: NEW_NODE_SIZE.height };
    const at = placeInView(graph, view, () => wide);
    expect(overlap({ ...at, ...NEW_NODE_SIZE }, { x: centre.x - 200, y: centre.y, ...wide })).toBe(false);
  });

  it("lands in view wherever the view is (the user panned far away)", () => {
    const graph = withNodesAt({ x: 0, y: 0 }, { x: 300, y: 0 });
    const far: Rect = { x: 5000, y: -3000, width: 800, height: 500 };
    expect(contains(far, { ...placeInView(graph, far), ...NEW_NODE_SIZE })).toBe(true);
  });

  it("never lands exactly on a node when the view is full", () => {
    const small: Rect = { x: 0, y: 0, width: NEW_NODE_SIZE.width, height: NEW_NODE_SIZE.height };
    const centre = placeInView(emptyGraph(), small);
    const graph = withNodesAt(centre, { x: centre.x + 24, y: centre.y + 24 });
    const at = placeInView(graph, small);
    expect(graph.nodes.some((node) => node.position.x === at.x && node.position.y === at.y)).toBe(false);
  });
});

describe("dropPosition", () => {
  it("puts the pointer over the new node's header", () => {
    expect(dropPosition({ x: 100, y: 50 })).toEqual({ x: 100 - DROP_ANCHOR.x, y: 50 - DROP_ANCHOR.y });
  });
});
