import { describe, expect, it } from "vitest";
import { compileGraph, deriveEdges, emptyGraph, type Graph } from "@/lib/graph";
import { countErrors, fieldMessages, pathWithinDefinition } from "./diagnostic-targets";
import {
  addNode,
  connect,
  connectionRefusal,
  disconnect,
  findNode,
  renameDefinition,
  setDefinitionField,
  setSideField,
  setToolEntry,
} from "./document-edits";
import { canRedo, canUndo, record, redo, startHistory, undo } from "./history";
import { createStudioStore } from "./studio-store";

const at = { x: 0, y: 0 };

function definitionOf(graph: Graph, id: string) {
  const node = findNode(graph, id);
  if (!node || node.type === "note") throw new Error(`no definition node ${id}`);
  return node.data.definition;
}

/** Two agents, three prompts and a model, unconnected, keyed by their default names. */
type ExampleName = "agent_1" | "agent_2" | "prompt_1" | "prompt_2" | "prompt_3" | "model_1";

function buildExample() {
  let graph = emptyGraph();
  const ids = {} as Record<ExampleName, string>;
  for (const kind of ["agent", "agent", "prompt", "prompt", "prompt", "model"] as const) {
    const added = addNode(graph, kind, at);
    graph = added.graph;
    ids[definitionOf(graph, added.nodeId).name as ExampleName] = added.nodeId;
  }
  return { graph, ids };
}

describe("document edits", () => {
  it("gives new nodes unique names across kinds and distinct ids", () => {
    const { graph } = buildExample();
    const names = graph.nodes.map((node) => (node.type === "note" ? "" : node.data.definition.name));
    expect(names).toEqual(["agent_1", "agent_2", "prompt_1", "prompt_2", "prompt_3", "model_1"]);
    expect(new Set(graph.nodes.map((node) => node.id)).size).toBe(6);
    const note = addNode(graph, "note", at);
    expect(findNode(note.graph, note.nodeId)?.type).toBe("note");
  });

  it("default tool and model definitions compile without errors", () => {
    let graph = addNode(emptyGraph(), "tool", at).graph;
    graph = addNode(graph, "model", at).graph;
    expect(compileGraph(graph).diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  });

  it("turns drawn connections into definition references that derive the same edges", () => {
    const { graph: start, ids } = buildExample();
    let graph = connect(start, { source: ids.agent_1, sourceHandle: "sideA", target: ids.prompt_1 });
    graph = connect(graph, { source: ids.prompt_1, target: ids.model_1 });
    graph = setDefinitionField(graph, ids.agent_2, "type", "dual_ai");
    graph = connect(graph, { source: ids.prompt_1, target: ids.agent_2 });
    graph = connect(graph, { source: ids.prompt_1, target: ids.prompt_2 });
    graph = connect(graph, { source: ids.agent_2, sourceHandle: "sideB", target: ids.prompt_3 });
    expect(definitionOf(graph, ids.agent_1).sideA).toEqual({ prompt: "prompt_1" });
    expect(definitionOf(graph, ids.agent_2).sideB).toEqual({ prompt: "prompt_3" });
    expect(definitionOf(graph, ids.prompt_1)).toMatchObject({
      model: "model_1",
      tools: ["agent_2", "prompt_2"],
    });
    const kinds = deriveEdges(graph).map((edge) => `${edge.kind}:${edge.source}->${edge.target}`);
    expect(kinds).toEqual(
      expect.arrayContaining([
        `side:${ids.agent_1}->${ids.prompt_1}`,
        `model:${ids.prompt_1}->${ids.model_1}`,
        `subagent:${ids.prompt_1}->${ids.agent_2}`,
        `subprompt:${ids.prompt_1}->${ids.prompt_2}`,
      ]),
    );
    // Drawing the same tool twice does not duplicate the entry.
    expect(connect(graph, { source: ids.prompt_1, target: ids.agent_2 })).toBe(graph);
    const subagentEdge = deriveEdges(graph).find((edge) => edge.kind === "subagent");
    if (!subagentEdge) throw new Error("no subagent edge");
    expect(definitionOf(disconnect(graph, subagentEdge), ids.prompt_1).tools).toEqual(["prompt_2"]);
  });

  it("refuses impossible connections with a reason and leaves the document alone", () => {
    let { graph, ids } = buildExample();
    const added = addNode(graph, "tool", at);
    graph = added.graph;
    const toolToAgent = { source: added.nodeId, target: ids.agent_1 };
    expect(connectionRefusal(graph, toolToAgent)).toMatch(/tool calls nothing/);
    expect(connect(graph, toolToAgent)).toBe(graph);
    expect(connectionRefusal(graph, { source: ids.agent_1, target: ids.model_1 })).toMatch(
      /side runs a prompt/,
    );
    expect(connectionRefusal(graph, { source: ids.prompt_1, target: ids.prompt_1 })).toMatch(/itself/);
    expect(connectionRefusal(graph, { source: ids.model_1, target: ids.prompt_1 })).toMatch(/fall back/);
    expect(connectionRefusal(graph, { source: ids.prompt_1, target: added.nodeId })).toBeNull();
  });

  it("edits side fields and tool entry configs, removing fields set to undefined", () => {
    const { graph: start, ids } = buildExample();
    let graph = setSideField(start, ids.agent_1, "sideB", "maxSteps", 5);
    expect(definitionOf(graph, ids.agent_1).sideB).toEqual({ maxSteps: 5 });
    graph = setSideField(graph, ids.agent_1, "sideB", "maxSteps", undefined);
    expect(definitionOf(graph, ids.agent_1).sideB).toEqual({});
    graph = connect(graph, { source: ids.prompt_1, target: ids.agent_2 });
    graph = setToolEntry(graph, ids.prompt_1, 0, { name: "agent_2", blocking: false });
    expect(definitionOf(graph, ids.prompt_1).tools).toEqual([{ name: "agent_2", blocking: false }]);
    graph = setToolEntry(graph, ids.prompt_1, 0, undefined);
    expect(definitionOf(graph, ids.prompt_1).tools).toBeUndefined();
  });
});

describe("history", () => {
  it("undoes and redoes, coalescing edits with the same key", () => {
    let history = startHistory("a");
    history = record(history, "ab", "field");
    history = record(history, "abc", "field");
    history = record(history, "abcd");
    expect(history.past).toEqual(["a", "abc"]);
    history = undo(history);
    expect(history.present).toBe("abc");
    history = undo(history);
    expect(history.present).toBe("a");
    expect(canUndo(history)).toBe(false);
    history = redo(history);
    expect(history.present).toBe("abc");
    expect(canRedo(history)).toBe(true);
    history = record(history, "x");
    expect(canRedo(history)).toBe(false);
  });
});

describe("studio store", () => {
  it("records edits, makes one drag one undo step, and keeps selection and version", () => {
    const store = createStudioStore(emptyGraph(), 3);
    store.getState().edit((graph) => addNode(graph, "prompt", at).graph);
    const id = store.getState().history.present.nodes[0]?.id ?? "";
    const move = (x: number) => (graph: Graph) => ({
      ...graph,
      nodes: graph.nodes.map((node) => ({ ...node, position: { x, y: 0 } })),
    });
    store.getState().dragTo(move(10), false);
    store.getState().dragTo(move(20), false);
    store.getState().dragTo(move(30), true);
    expect(findNode(store.getState().history.present, id)?.position).toEqual({ x: 30, y: 0 });
    store.getState().undo();
    expect(findNode(store.getState().history.present, id)?.position).toEqual({ x: 0, y: 0 });
    store.getState().undo();
    expect(store.getState().history.present.nodes).toEqual([]);
    store.getState().redo();
    expect(store.getState().history.present.nodes).toHaveLength(1);
    store.getState().select({ kind: "node", id });
    const present = store.getState().history.present;
    expect(store.getState().savedDocument).not.toBe(present);
    store.getState().saved(4, present);
    expect(store.getState()).toMatchObject({ selection: { nodeIds: [id], edgeIds: [] }, baseVersion: 4 });
    expect(store.getState().savedDocument).toBe(present);
  });
});

describe("renaming", () => {
  it("carries references along so edges follow the renamed node", () => {
    const { graph: start, ids } = buildExample();
    let graph = connect(start, { source: ids.agent_1, sourceHandle: "sideA", target: ids.prompt_1 });
    graph = connect(graph, { source: ids.prompt_1, target: ids.model_1 });
    graph = connect(graph, { source: ids.prompt_2, target: ids.prompt_1 });
    graph = renameDefinition(graph, ids.prompt_1, "planner");
    graph = renameDefinition(graph, ids.model_1, "fast");
    expect(definitionOf(graph, ids.agent_1).sideA).toEqual({ prompt: "planner" });
    expect(definitionOf(graph, ids.prompt_2).tools).toEqual(["planner"]);
    expect(definitionOf(graph, ids.prompt_1)).toMatchObject({ name: "planner", model: "fast" });
    expect(deriveEdges(graph)).toHaveLength(3);
    // A name already taken is written as typed but references are left alone (the compile reports the clash).
    const clash = renameDefinition(graph, ids.prompt_3, "planner");
    expect(definitionOf(clash, ids.agent_1).sideA).toEqual({ prompt: "planner" });
    expect(definitionOf(clash, ids.prompt_3).name).toBe("planner");
  });
});

describe("diagnostic targets", () => {
  it("counts errors per node and edge and finds the messages of one field", () => {
    const { graph: start, ids } = buildExample();
    const graph = connect(start, { source: ids.agent_1, sourceHandle: "sideA", target: ids.prompt_1 });
    const { diagnostics } = compileGraph(graph);
    const counts = countErrors(diagnostics);
    expect(counts.byNode.get(ids.prompt_1)).toBeGreaterThan(0);
    expect(fieldMessages(diagnostics, ids.prompt_1, ".model").length).toBeGreaterThan(0);
    expect(fieldMessages(diagnostics, ids.prompt_1, ".name")).toEqual([]);
    expect(pathWithinDefinition("prompts[12].tools[0].blocking")).toBe(".tools[0].blocking");
  });
});
