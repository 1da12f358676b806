import { describe, expect, it } from "vitest";
import { decompileBundle, deriveEdges, emptyGraph } from "@/lib/graph";
import { countErrors } from "@/lib/studio/diagnostic-targets";
import { addNode, moveNodes } from "@/lib/studio/document-edits";
import { EMPTY_SELECTION, selectionOfNodes } from "@/lib/studio/selection";
import { assetBundle } from "../../test/support/spec-fixtures";
import { edgeLabel, toFlowEdges, toFlowNodes } from "./flow-elements";

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

describe("toFlowEdges", () => {
  it("marks exactly the selected edges, whatever nodes are selected", () => {
    const graph = decompileBundle(assetBundle());
    const edges = deriveEdges(graph);
    const [chosen] = edges;
    const flow = toFlowEdges(graph, edges, countErrors([]), [chosen!.id]);
    expect(flow.filter((edge) => edge.selected).map((edge) => edge.id)).toEqual([chosen!.id]);
    expect(toFlowEdges(graph, edges, countErrors([]), []).some((edge) => edge.selected)).toBe(false);
  });
});

describe("edge labels of tools entries", () => {
  it("say when a call needs a human's approval", () => {
    const bundle = assetBundle();
    const worker = bundle.prompts.find((prompt) => prompt.name === "asset_worker")!;
    worker.tools = [{ name: "write_file", requiresApproval: true }, "list_files"];
    const graph = decompileBundle(bundle);
    const labels = deriveEdges(graph)
      .filter((edge) => edge.kind === "tool")
      .map((edge) => edgeLabel(edge, graph));
    expect(labels).toContain("tool · needs approval");
    expect(labels.filter((label) => label === "tool · needs approval")).toHaveLength(1);
  });
});
