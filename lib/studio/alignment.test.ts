import { describe, expect, it } from "vitest";
import { emptyGraph } from "@/lib/graph";
import { alignBoxes, arrangeNodes, distributeBoxes, type NodeBox } from "./alignment";
import { addNode, findNode } from "./document-edits";

const boxes: NodeBox[] = [
  { id: "a", x: 10, y: 100, width: 100, height: 50 },
  { id: "b", x: 200, y: 20, width: 200, height: 80 },
  { id: "c", x: 90, y: 300, width: 50, height: 40 },
];

const applied = (moved: Map<string, { x: number; y: number }>) =>
  boxes.map((box) => ({ ...box, ...moved.get(box.id) }));

describe("alignBoxes", () => {
  it("aligns left edges on the leftmost and right edges on the rightmost", () => {
    expect(applied(alignBoxes(boxes, "left")).map((box) => box.x)).toEqual([10, 10, 10]);
    expect(applied(alignBoxes(boxes, "right")).map((box) => box.x + box.width)).toEqual([400, 400, 400]);
  });

  it("centres on the middle of the selection's bounds", () => {
    // Bounds 10…400: centre 205.
    expect(applied(alignBoxes(boxes, "centre")).map((box) => box.x + box.width / 2)).toEqual([205, 205, 205]);
    // Bounds 20…340: middle 180.
    expect(applied(alignBoxes(boxes, "middle")).map((box) => box.y + box.height / 2)).toEqual([
      180, 180, 180,
    ]);
  });

  it("aligns top and bottom edges, leaving the other axis alone", () => {
    const top = applied(alignBoxes(boxes, "top"));
    expect(top.map((box) => box.y)).toEqual([20, 20, 20]);
    expect(top.map((box) => box.x)).toEqual([10, 200, 90]);
    expect(applied(alignBoxes(boxes, "bottom")).map((box) => box.y + box.height)).toEqual([340, 340, 340]);
  });

  it("moves only the boxes that change, and nothing for a single box", () => {
    expect([...alignBoxes(boxes, "left").keys()]).toEqual(["b", "c"]);
    expect(alignBoxes(boxes.slice(0, 1), "left").size).toBe(0);
  });
});

describe("distributeBoxes", () => {
  it("makes the horizontal gaps equal, keeping the outer boxes in place", () => {
    const result = applied(distributeBoxes(boxes, "horizontal")).sort((left, right) => left.x - right.x);
    // Span 10…400 (390) holds 350 of widths: two gaps of 20.
    expect(result.map((box) => box.id)).toEqual(["a", "c", "b"]);
    expect(result.map((box) => box.x)).toEqual([10, 130, 200]);
    expect(result.map((box) => box.y)).toEqual([100, 300, 20]);
  });

  it("makes the vertical gaps equal", () => {
    const result = applied(distributeBoxes(boxes, "vertical")).sort((left, right) => left.y - right.y);
    // b 20…100, a, c 300…340: span 320 holds 170, gaps of 75.
    expect(result.map((box) => [box.id, box.y])).toEqual([
      ["b", 20],
      ["a", 175],
      ["c", 300],
    ]);
  });

  it("needs three boxes", () => {
    expect(distributeBoxes(boxes.slice(0, 2), "horizontal").size).toBe(0);
  });
});

describe("arrangeNodes", () => {
  it("moves the document's nodes, and returns the same document when nothing moves", () => {
    const first = addNode(emptyGraph(), "note", { x: 10, y: 0 });
    const second = addNode(first.graph, "note", { x: 50, y: 100 });
    const nodeBoxes = second.graph.nodes.map((node) => ({
      id: node.id,
      ...node.position,
      width: 100,
      height: 40,
    }));
    const aligned = arrangeNodes(second.graph, nodeBoxes, { kind: "align", alignment: "left" });
    expect(findNode(aligned, second.nodeId)?.position).toEqual({ x: 10, y: 100 });
    const again = aligned.nodes.map((node) => ({ id: node.id, ...node.position, width: 100, height: 40 }));
    expect(arrangeNodes(aligned, again, { kind: "align", alignment: "left" })).toBe(aligned);
  });
});
