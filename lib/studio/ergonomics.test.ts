import { describe, expect, it } from "vitest";
import { compileGraph, deriveEdges, emptyGraph, type Graph } from "@/lib/graph";
import { deleteSelection } from "./delete-selection";
import { addNode, connect, findNode, setDefinitionField } from "./document-edits";
import { documentFromBundle } from "./document-layout";
import { runsOnDemoModels, switchAllModels } from "./model-switch";
import { searchPalette } from "./palette-search";
import {
  applySelectChanges,
  EMPTY_SELECTION,
  selectionOf,
  selectionOfNodes,
  soleSelected,
} from "./selection";
import { ariaKeyShortcuts, codeMirrorKey, type KeyPress, matchesShortcut, shortcutLabel } from "./shortcuts";
import { createStudioStore } from "./studio-store";
import { chatTemplate } from "./templates";

const at = { x: 0, y: 0 };

function definitionOf(graph: Graph, id: string) {
  const node = findNode(graph, id);
  if (!node || node.type === "note") throw new Error(`no definition node ${id}`);
  return node.data.definition;
}

/** prompt_1 → tool_1 and prompt_1 → model_1, agent_1 side A → prompt_1. */
function connectedProject() {
  const prompt = addNode(emptyGraph(), "prompt", at);
  const tool = addNode(prompt.graph, "tool", at);
  const model = addNode(tool.graph, "model", at);
  const agent = addNode(model.graph, "agent", at);
  let graph = connect(agent.graph, { source: prompt.nodeId, target: tool.nodeId });
  graph = connect(graph, { source: prompt.nodeId, target: model.nodeId });
  graph = connect(graph, { source: agent.nodeId, sourceHandle: "sideA", target: prompt.nodeId });
  return {
    graph,
    ids: { prompt: prompt.nodeId, tool: tool.nodeId, model: model.nodeId, agent: agent.nodeId },
  };
}

describe("selection", () => {
  it("applies canvas select changes and knows when exactly one item is selected", () => {
    let selection = applySelectChanges(EMPTY_SELECTION, "node", [{ id: "a", selected: true }]);
    expect(soleSelected(selection)).toEqual({ kind: "node", id: "a" });
    selection = applySelectChanges(selection, "node", [{ id: "b", selected: true }]);
    selection = applySelectChanges(selection, "edge", [{ id: "e", selected: true }]);
    expect(selection).toEqual({ nodeIds: ["a", "b"], edgeIds: ["e"] });
    expect(soleSelected(selection)).toBeNull();
    const same = applySelectChanges(selection, "node", [{ id: "a", selected: true }]);
    expect(same).toBe(selection);
    selection = applySelectChanges(selection, "node", [
      { id: "a", selected: false },
      { id: "b", selected: false },
    ]);
    expect(soleSelected(selection)).toEqual({ kind: "edge", id: "e" });
    expect(selectionOf({ kind: "edge", id: "x" })).toEqual({ nodeIds: [], edgeIds: ["x"] });
    expect(selectionOfNodes([])).toBe(EMPTY_SELECTION);
  });
});

describe("deleting a selection", () => {
  it("removes nodes and the references other nodes made to them", () => {
    const { graph, ids } = connectedProject();
    const next = deleteSelection(graph, selectionOfNodes([ids.tool, ids.model]));
    expect(next.nodes.map((node) => node.id)).toEqual([ids.prompt, ids.agent]);
    expect(definitionOf(next, ids.prompt).tools).toBeUndefined();
    expect(definitionOf(next, ids.prompt).model).toBe("");
    expect(deriveEdges(next).map((edge) => edge.kind)).toEqual(["side"]);
  });

  it("removes selected edges and nodes together, tool entries by descending index", () => {
    let { graph, ids } = connectedProject();
    const second = addNode(graph, "tool", at);
    graph = connect(second.graph, { source: ids.prompt, target: second.nodeId });
    expect(definitionOf(graph, ids.prompt).tools).toEqual(["tool_1", "tool_2"]);
    const edgeIds = deriveEdges(graph)
      .filter((edge) => edge.kind === "tool" || edge.kind === "side")
      .map((edge) => edge.id);
    const next = deleteSelection(graph, { nodeIds: [ids.model], edgeIds });
    expect(definitionOf(next, ids.prompt).tools).toBeUndefined();
    expect(definitionOf(next, ids.agent).sideA).toEqual({ prompt: "" });
    expect(findNode(next, ids.model)).toBeUndefined();
    expect(deriveEdges(next)).toEqual([]);
    expect(deleteSelection(graph, EMPTY_SELECTION)).toBe(graph);
  });

  it("is one undo step in the store, and a selection of vanished nodes deletes nothing", () => {
    const { graph, ids } = connectedProject();
    const store = createStudioStore(graph);
    store.getState().edit((document) => deleteSelection(document, selectionOfNodes([ids.tool, ids.agent])));
    expect(store.getState().history.present.nodes).toHaveLength(2);
    store.getState().undo();
    expect(store.getState().history.present).toBe(graph);
    expect(deleteSelection(graph, selectionOfNodes(["gone"]))).toBe(graph);
  });

  it("drops nodes that undo removed from the selection", () => {
    const store = createStudioStore(emptyGraph());
    store.getState().edit((document) => addNode(document, "agent", at).graph);
    const id = store.getState().history.present.nodes[0]?.id as string;
    store.getState().select({ kind: "node", id });
    store.getState().undo();
    expect(store.getState().selection).toEqual(EMPTY_SELECTION);
  });
});

describe("switching models", () => {
  it("moves every model to one provider, dropping scripts and keeping names", () => {
    const graph = documentFromBundle(chatTemplate());
    expect(runsOnDemoModels(graph)).toBe(true);
    const next = switchAllModels(graph, {
      provider: "openai-compatible",
      model: "llama3.2",
      baseURL: "http://127.0.0.1:11434/v1",
    });
    const models = next.nodes.filter((node) => node.type === "model");
    expect(models.length).toBeGreaterThan(0);
    for (const model of models) {
      const definition = model.type === "model" ? model.data.definition : {};
      expect(definition).toMatchObject({
        provider: "openai-compatible",
        model: "llama3.2",
        baseURL: "http://127.0.0.1:11434/v1",
      });
      expect(definition.script).toBeUndefined();
      expect(definition.scriptLoopFrom).toBeUndefined();
      expect(definition.apiKeyEnv).toBeUndefined();
    }
    expect(runsOnDemoModels(next)).toBe(false);
    // No error and no warning: a looping script left behind would be a "script ignored" warning.
    expect(compileGraph(next).diagnostics).toEqual([]);
  });

  it("gives models switched back to scripted a script and removes the endpoint", () => {
    let graph = addNode(emptyGraph(), "model", at).graph;
    const id = graph.nodes[0]?.id as string;
    graph = setDefinitionField(graph, id, "baseURL", "http://127.0.0.1:1/v1");
    const next = switchAllModels(graph, { provider: "scripted", model: "scripted" });
    expect(definitionOf(next, id)).toMatchObject({ provider: "scripted", model: "scripted" });
    expect(definitionOf(next, id).baseURL).toBeUndefined();
    expect(definitionOf(next, id).apiKeyEnv).toBeUndefined();
    expect(Array.isArray(definitionOf(next, id).script)).toBe(true);
    expect(compileGraph(next).diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    const anthropic = switchAllModels(next, {
      provider: "anthropic",
      model: "claude",
      apiKeyEnv: "ANTHROPIC_API_KEY",
    });
    expect(definitionOf(anthropic, id)).toMatchObject({
      provider: "anthropic",
      apiKeyEnv: "ANTHROPIC_API_KEY",
    });
    expect(switchAllModels(emptyGraph(), { provider: "openai", model: "x" })).toEqual(emptyGraph());
    expect(runsOnDemoModels(emptyGraph())).toBe(false);
  });
});

describe("shortcuts", () => {
  const press = (key: string, modifiers: Partial<KeyPress> = {}): KeyPress => ({
    key,
    ctrlKey: false,
    metaKey: false,
    shiftKey: false,
    altKey: false,
    ...modifiers,
  });

  it("matches Mod as Ctrl or Cmd and checks Shift for letters only", () => {
    expect(matchesShortcut(press("d", { ctrlKey: true }), "Mod+D")).toBe(true);
    expect(matchesShortcut(press("d", { metaKey: true }), "Mod+D")).toBe(true);
    expect(matchesShortcut(press("d"), "Mod+D")).toBe(false);
    expect(matchesShortcut(press("Z", { ctrlKey: true, shiftKey: true }), "Mod+Shift+Z")).toBe(true);
    expect(matchesShortcut(press("z", { ctrlKey: true, shiftKey: true }), "Mod+Z")).toBe(false);
    expect(matchesShortcut(press("?", { shiftKey: true }), "?")).toBe(true);
    expect(matchesShortcut(press("?", { ctrlKey: true }), "?")).toBe(false);
    expect(matchesShortcut(press("Delete"), "Delete")).toBe(true);
    expect(matchesShortcut(press("Backspace"), "Delete")).toBe(false);
  });

  it("labels shortcuts for people and for aria-keyshortcuts", () => {
    expect(shortcutLabel("Mod+Shift+z", false)).toBe("Ctrl+Shift+Z");
    expect(shortcutLabel("Mod+K", true)).toBe("⌘+K");
    expect(ariaKeyShortcuts(["Mod+D", "Delete"])).toBe("Control+D Meta+D Delete");
  });

  it("writes shortcuts in CodeMirror's key form, so the code pane binds what the help lists", () => {
    expect(codeMirrorKey("Mod+Enter")).toBe("Mod-Enter");
    expect(codeMirrorKey("F8")).toBe("F8");
    expect(codeMirrorKey("Mod+Shift+Z")).toBe("Mod-Shift-Z");
    expect(codeMirrorKey("Mod++")).toBe("Mod-+");
  });
});

describe("palette search", () => {
  const entries = [
    { id: "1", label: "Add agent", keywords: "command" },
    { id: "2", label: "writer", keywords: "agent Writes drafts" },
    { id: "3", label: "rewrite_prompt", keywords: "prompt" },
    { id: "4", label: "Auto layout", keywords: "command" },
  ];

  it("needs every word, ranks label prefixes first and keeps order otherwise", () => {
    expect(searchPalette(entries, "").map((entry) => entry.id)).toEqual(["1", "2", "3", "4"]);
    expect(searchPalette(entries, "writ").map((entry) => entry.id)).toEqual(["2", "3"]);
    expect(searchPalette(entries, "agent").map((entry) => entry.id)).toEqual(["1", "2"]);
    expect(searchPalette(entries, "agent drafts").map((entry) => entry.id)).toEqual(["2"]);
    expect(searchPalette(entries, "nothing here")).toEqual([]);
  });
});
