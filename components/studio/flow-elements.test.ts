import { describe, expect, it } from "vitest";
import { emptyGraph } from "@/lib/graph";
import { countErrors } from "@/lib/studio/diagnostic-targets";
import { addNode, moveNodes } from "@/lib/studio/document-edits";
import { EMPTY_SELECTION, selectionOfNodes } from "@/lib/studio/selection";
import { toFlowNodes } from "./flow-elements";

describe("toFlowNodes", () => {
  const first = addNode(emptyGraph(), "note", { x: 0, y: 0 });
  const second = addNode(first.graph, "note", { x: 300, y: 0 });
  const graph = second.graph;
  const counts = countErrors([]);
  const measured = new Map();

  it("keeps the flow nodes of unchanged nodes, so a drag re-renders only the dragged node", () => {
    const before = toFlowNodes(graph, counts, EMPTY_SELECTION, measured, new Map(), []);
    const moved = moveNodes(graph, new Map([[second.nodeId, { x: 320, y: 10 }]]));
    const after = toFlowNodes(moved, counts, EMPTY_SELECTION, measured, new Map(), before);
    expect(after[0]).toBe(before[0]);
    expect(after[1]).not.toBe(before[1]);
    expect(after[1]?.position).toEqual({ x: 320, y: 10 });
  });

  it("makes a new flow node when its selection changes", () => {
    const before = toFlowNodes(graph, counts, EMPTY_SELECTION, measured, new Map(), []);
    const after = toFlowNodes(graph, counts, selectionOfNodes([first.nodeId]), measured, new Map(), before);
    expect(after[0]).not.toBe(before[0]);
    expect(after[0]?.selected).toBe(true);
    expect(after[1]).toBe(before[1]);
  });
});
