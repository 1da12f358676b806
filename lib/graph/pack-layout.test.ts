import { describe, expect, it } from "vitest";
import { BADGE_ROOM_ABOVE_AGENT, cardSize } from "./card-geometry";
import type { Graph, GraphNode } from "./document";
import { graphBounds } from "./fit-viewport";
import { gapAbove, layoutColumns, packLayers } from "./pack-layout";

const GAPS = { layer: 46, node: 20 };

function prompt(name: string, x: number, y: number): GraphNode {
  return {
    id: `prompt:${name}`,
    type: "prompt",
    position: { x, y },
    data: { definition: { name } },
  } as GraphNode;
}
function agent(name: string, x: number, y: number): GraphNode {
  return {
    id: `agent:${name}`,
    type: "agent",
    position: { x, y },
    data: { definition: { name } },
  } as GraphNode;
}

/** A layered layout: an agent, then columns of `heights[i]` prompts, 246 apart. */
function layered(heights: number[]): Graph {
  const nodes: GraphNode[] = [agent("entry", 0, 0)];
  heights.forEach((count, column) => {
    for (let row = 0; row < count; row++)
      nodes.push(prompt(`c${column}_${row}`, 286 + column * 246, row * 86));
  });
  return { version: 1, nodes };
}

function expectApart(graph: Graph) {
  const boxes = graph.nodes.map((node) => ({ id: node.id, ...node.position, ...cardSize(node) }));
  for (const [index, a] of boxes.entries()) {
    for (const b of boxes.slice(index + 1)) {
      const apart =
        a.x + a.width <= b.x || b.x + b.width <= a.x || a.y + a.height <= b.y || b.y + b.height <= a.y;
      expect(apart, `${a.id} overlaps ${b.id}`).toBe(true);
    }
  }
}

describe("layoutColumns", () => {
  it("groups cards whose x ranges overlap, top to bottom", () => {
    const columns = layoutColumns(layered([2, 3]));
    expect(columns.map((column) => column.nodes.map((node) => node.id))).toEqual([
      ["agent:entry"],
      ["prompt:c0_0", "prompt:c0_1"],
      ["prompt:c1_0", "prompt:c1_1", "prompt:c1_2"],
    ]);
  });
});

describe("packLayers", () => {
  it("wraps columns into rows when the layers side by side are too wide", () => {
    const graph = layered([1, 1, 1, 1]);
    const room = { width: 800, height: 600 };
    const packed = packLayers(graph, room, GAPS)!;
    const bounds = graphBounds(packed.nodes)!;
    expect(bounds.width).toBeLessThanOrEqual(room.width);
    expect(bounds.height).toBeLessThanOrEqual(room.height);
    expectApart(packed);
    // Reading order kept: each row starts at the left, the entry first.
    expect(packed.nodes.find((node) => node.id === "agent:entry")?.position).toEqual({ x: 0, y: 0 });
  });

  it("splits a column taller than the room into sub-columns", () => {
    // Eight prompts in one column: 8 × 66 + 7 × 20 = 668 tall, in a room 420 tall.
    const graph = layered([8]);
    const room = { width: 1000, height: 420 };
    const packed = packLayers(graph, room, GAPS)!;
    const bounds = graphBounds(packed.nodes)!;
    expect(bounds.height).toBeLessThanOrEqual(room.height);
    expect(bounds.width).toBeLessThanOrEqual(room.width);
    expect(new Set(packed.nodes.map((node) => node.position.x)).size).toBeGreaterThan(2);
    expectApart(packed);
  });

  it("leaves the badge room above an agent stacked under another card", () => {
    expect(gapAbove(agent("a", 0, 0), GAPS.node)).toBe(BADGE_ROOM_ABOVE_AGENT);
    expect(gapAbove(prompt("p", 0, 0), GAPS.node)).toBe(GAPS.node);
    const graph: Graph = {
      version: 1,
      nodes: [
        agent("lead", 0, 0),
        prompt("chat", 286, 0),
        ...[0, 1, 2].map((index) => agent(`worker${index}`, 532, index * 150)),
        ...[0, 1, 2].map((index) => prompt(`w${index}`, 818, index * 150)),
      ],
    };
    const packed = packLayers(graph, { width: 800, height: 900 }, GAPS)!;
    expectApart(packed);
    const workers = packed.nodes
      .filter((node) => node.id.startsWith("agent:worker"))
      .sort((a, b) => a.position.y - b.position.y);
    for (const [index, worker] of workers.entries()) {
      const above = workers[index - 1];
      if (above && above.position.x === worker.position.x) {
        expect(worker.position.y - (above.position.y + cardSize(above).height)).toBeGreaterThanOrEqual(
          BADGE_ROOM_ABOVE_AGENT,
        );
      }
    }
  });

  it("has nothing to re-pack in a single card", () => {
    expect(packLayers({ version: 1, nodes: [agent("a", 0, 0)] }, { width: 10, height: 10 }, GAPS)).toBeNull();
  });
});
