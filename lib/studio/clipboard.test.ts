import { describe, expect, it } from "vitest";
import { deriveEdges, emptyGraph, type Graph } from "@/lib/graph";
import {
  copyNodes,
  duplicateNodes,
  PASTE_OFFSET,
  parseClipboard,
  pasteNodes,
  STUDIO_CLIPBOARD_TYPE,
  serializeClipboard,
} from "./clipboard";
import { addNode, connect, findNode, setDefinitionField } from "./document-edits";

function definitionOf(graph: Graph, id: string) {
  const node = findNode(graph, id);
  if (!node || node.type === "note") throw new Error(`no definition node ${id}`);
  return node.data.definition;
}

/** agent writer (side A → prompt write, which uses model fast and tool lookup), plus a note. */
function writerProject() {
  let graph = emptyGraph();
  const ids: Record<string, string> = {};
  const positions = { agent: 0, prompt: 300, model: 600, tool: 900, note: 1200 } as const;
  for (const [kind, name] of [
    ["agent", "writer"],
    ["prompt", "write"],
    ["model", "fast"],
    ["tool", "lookup"],
  ] as const) {
    const added = addNode(graph, kind, { x: positions[kind], y: 0 });
    graph = setDefinitionField(added.graph, added.nodeId, "name", name);
    ids[name] = added.nodeId;
  }
  const note = addNode(graph, "note", { x: positions.note, y: 0 });
  graph = note.graph;
  ids.note = note.nodeId;
  graph = connect(graph, {
    source: ids.writer as string,
    sourceHandle: "sideA",
    target: ids.write as string,
  });
  graph = connect(graph, { source: ids.write as string, target: ids.fast as string });
  graph = connect(graph, { source: ids.write as string, target: ids.lookup as string });
  return { graph, ids: ids as Record<"writer" | "write" | "fast" | "lookup" | "note", string> };
}

describe("clipboard payload", () => {
  it("round-trips through text and refuses anything else", () => {
    const { graph, ids } = writerProject();
    const payload = copyNodes(graph, [ids.write, ids.writer]);
    expect(payload?.type).toBe(STUDIO_CLIPBOARD_TYPE);
    // Document order, not selection order.
    expect(payload?.nodes.map((node) => node.id)).toEqual([ids.writer, ids.write]);
    expect(parseClipboard(serializeClipboard(payload as NonNullable<typeof payload>))).toEqual(payload);
    expect(parseClipboard("hello")).toBeNull();
    expect(parseClipboard(JSON.stringify({ type: "other", version: 1, nodes: payload?.nodes }))).toBeNull();
    expect(parseClipboard(JSON.stringify({ type: STUDIO_CLIPBOARD_TYPE, version: 1, nodes: [] }))).toBeNull();
    expect(copyNodes(graph, ["missing"])).toBeNull();
  });
});

describe("paste and duplicate", () => {
  it("duplicates with fresh ids, _copy names, offset positions and edges between the copies", () => {
    const { graph, ids } = writerProject();
    const before = deriveEdges(graph).length;
    const { graph: next, nodeIds } = duplicateNodes(graph, [ids.writer, ids.write, ids.note]);
    expect(nodeIds).toHaveLength(3);
    expect(next.nodes).toHaveLength(graph.nodes.length + 3);
    expect(new Set(next.nodes.map((node) => node.id)).size).toBe(next.nodes.length);
    const [agentCopy, promptCopy, noteCopy] = nodeIds.map((id) => findNode(next, id));
    expect(agentCopy?.type).toBe("agent");
    expect(definitionOf(next, nodeIds[0] as string)).toMatchObject({
      name: "writer_copy",
      sideA: { prompt: "write_copy" },
    });
    // The copied prompt keeps pointing at the model and tool that were not copied.
    expect(definitionOf(next, nodeIds[1] as string)).toMatchObject({
      name: "write_copy",
      model: "fast",
      tools: ["lookup"],
    });
    expect(noteCopy?.type).toBe("note");
    expect(agentCopy?.position).toEqual({ x: PASTE_OFFSET, y: PASTE_OFFSET });
    expect(promptCopy?.position).toEqual({ x: 300 + PASTE_OFFSET, y: PASTE_OFFSET });
    // The originals are untouched.
    expect(definitionOf(next, ids.writer)).toMatchObject({ name: "writer", sideA: { prompt: "write" } });
    const copiedEdges = deriveEdges(next).filter((edge) => nodeIds.includes(edge.source));
    expect(copiedEdges.map((edge) => `${edge.kind}:${edge.target}`).sort()).toEqual(
      [`model:${ids.fast}`, `side:${nodeIds[1]}`, `tool:${ids.lookup}`].sort(),
    );
    expect(deriveEdges(next)).toHaveLength(before + 3);
  });

  it("keeps free names when pasting into another project and rewires copies to each other", () => {
    const { graph, ids } = writerProject();
    const payload = copyNodes(graph, [ids.write, ids.fast, ids.lookup]);
    if (!payload) throw new Error("nothing copied");
    const other = addNode(emptyGraph(), "prompt", { x: 0, y: 0 });
    const target = setDefinitionField(other.graph, other.nodeId, "name", "fast");
    const { graph: pasted, nodeIds } = pasteNodes(target, payload);
    const names = nodeIds.map((id) => definitionOf(pasted, id).name);
    // "fast" is taken by a prompt in the target (one callable namespace), so the model is renamed.
    expect(names).toEqual(["write", "fast_copy", "lookup"]);
    expect(definitionOf(pasted, nodeIds[0] as string)).toMatchObject({
      model: "fast_copy",
      tools: ["lookup"],
    });
    expect(
      deriveEdges(pasted)
        .map((edge) => edge.kind)
        .sort(),
    ).toEqual(["model", "tool"]);
  });

  it("offsets repeated pastes further so copies never land on each other", () => {
    const { graph, ids } = writerProject();
    const payload = copyNodes(graph, [ids.writer]);
    if (!payload) throw new Error("nothing copied");
    const once = pasteNodes(graph, payload);
    const twice = pasteNodes(once.graph, payload);
    expect(findNode(twice.graph, twice.nodeIds[0] as string)?.position).toEqual({
      x: 2 * PASTE_OFFSET,
      y: 2 * PASTE_OFFSET,
    });
    expect(definitionOf(twice.graph, twice.nodeIds[0] as string).name).toBe("writer_copy_2");
  });

  it("renames subagent config entries and fallbacks to the copies", () => {
    let graph = emptyGraph();
    const prompt = addNode(graph, "prompt", { x: 0, y: 0 });
    const agent = addNode(prompt.graph, "agent", { x: 300, y: 0 });
    const model = addNode(agent.graph, "model", { x: 600, y: 0 });
    const backup = addNode(model.graph, "model", { x: 900, y: 0 });
    graph = setDefinitionField(backup.graph, agent.nodeId, "type", "dual_ai");
    graph = setDefinitionField(graph, prompt.nodeId, "tools", [{ name: "agent_1", blocking: false }]);
    graph = connect(graph, { source: model.nodeId, target: backup.nodeId });
    const { graph: next, nodeIds } = duplicateNodes(graph, [
      prompt.nodeId,
      agent.nodeId,
      model.nodeId,
      backup.nodeId,
    ]);
    expect(definitionOf(next, nodeIds[0] as string).tools).toEqual([
      { name: "agent_1_copy", blocking: false },
    ]);
    expect(definitionOf(next, nodeIds[2] as string).fallbacks).toEqual(["model_2_copy"]);
  });

  it("changes nothing when the selection is empty", () => {
    const { graph } = writerProject();
    expect(duplicateNodes(graph, [])).toEqual({ graph, nodeIds: [] });
  });
});
