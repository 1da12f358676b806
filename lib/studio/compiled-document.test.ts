import { describe, expect, it } from "vitest";
import { emptyGraph } from "@/lib/graph";
import { compileDocument, sameDefinitions } from "./compiled-document";
import { addNode, moveNodes, setDefinitionField } from "./document-edits";

function document() {
  const prompt = addNode(emptyGraph(), "prompt", { x: 0, y: 0 });
  return { graph: prompt.graph, promptId: prompt.nodeId };
}

describe("compileDocument", () => {
  it("reuses the last compile when nodes only moved", () => {
    const { graph, promptId } = document();
    const compiled = compileDocument(graph);
    const moved = moveNodes(graph, new Map([[promptId, { x: 400, y: 300 }]]));
    expect(sameDefinitions(graph, moved)).toBe(true);
    expect(compileDocument(moved, compiled)).toBe(compiled);
  });

  it("compiles again when a definition changes", () => {
    const { graph, promptId } = document();
    const compiled = compileDocument(graph);
    expect(compiled.diagnostics.some((diagnostic) => diagnostic.node_id === promptId)).toBe(true);
    const edited = setDefinitionField(graph, promptId, "name", "renamed");
    expect(sameDefinitions(graph, edited)).toBe(false);
    const again = compileDocument(edited, compiled);
    expect(again).not.toBe(compiled);
    expect(again.graph).toBe(edited);
  });

  it("compiles again when nodes are added, removed or reordered", () => {
    const { graph } = document();
    const compiled = compileDocument(graph);
    const added = addNode(graph, "note", { x: 0, y: 0 }).graph;
    expect(compileDocument(added, compiled)).not.toBe(compiled);
    const reordered = { ...added, nodes: [...added.nodes].reverse() };
    expect(sameDefinitions(added, reordered)).toBe(false);
  });
});
