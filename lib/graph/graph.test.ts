import { describe, expect, it } from "vitest";
import { assetExampleBundle, cloneExample, minimalChatBundle } from "@/lib/standard";
import { compileGraph } from "./compile";
import { decompileBundle } from "./decompile";
import { GRAPH_SCHEMA_VERSION, type Graph, GraphSchema } from "./document";
import { deriveEdges } from "./edges";

describe("decompileBundle → compileGraph", () => {
  it.each([
    ["asset example", assetExampleBundle],
    ["minimal chat", minimalChatBundle],
  ])("round-trips the %s bundle exactly, with no diagnostics", (_label, example) => {
    const bundle = cloneExample(example);
    const graph = decompileBundle(bundle);
    const compiled = compileGraph(graph);
    expect(compiled.diagnostics).toEqual([]);
    expect(compiled.valid).toBe(true);
    expect(compiled.bundle).toEqual(bundle);
    // and a second trip changes nothing, including the layout
    expect(decompileBundle(compiled.bundle, graph)).toEqual(graph);
  });

  it("lays out every node at a distinct position, callers left of callees", () => {
    const graph = decompileBundle(cloneExample(assetExampleBundle));
    const positions = graph.nodes.map((node) => `${node.position.x},${node.position.y}`);
    expect(new Set(positions).size).toBe(graph.nodes.length);
    for (const edge of deriveEdges(graph)) {
      if (edge.kind === "fallback") continue;
      const source = graph.nodes.find((node) => node.id === edge.source)!;
      const target = graph.nodes.find((node) => node.id === edge.target)!;
      expect(source.position.x, `${edge.id}`).toBeLessThan(target.position.x);
    }
  });

  it("keeps ids, positions and notes of nodes that still exist when the bundle changes", () => {
    const first = decompileBundle(cloneExample(minimalChatBundle));
    const moved: Graph = {
      ...first,
      nodes: [
        ...first.nodes.map((node) =>
          node.type === "agent" ? { ...node, position: { x: 777, y: 555 } } : node,
        ),
        { id: "note-1", type: "note", position: { x: 5, y: 5 }, data: { text: "keep me" } },
      ],
    };
    const changed = cloneExample(minimalChatBundle);
    changed.tools.push({
      name: "list_files",
      description: "Lists files",
      kind: "builtin",
      builtin: "fs_list",
    });
    const second = decompileBundle(changed, moved);
    const agent = second.nodes.find((node) => node.type === "agent");
    expect(agent?.position).toEqual({ x: 777, y: 555 });
    expect(agent?.id).toBe(first.nodes.find((node) => node.type === "agent")?.id);
    expect(second.nodes.find((node) => node.id === "note-1")).toMatchObject({ data: { text: "keep me" } });
    expect(second.nodes.filter((node) => node.type === "tool")).toHaveLength(1);
  });
});

describe("deriveEdges", () => {
  it("derives side, model, subagent, handoff-free tool edges for the asset example", () => {
    const graph = decompileBundle(cloneExample(assetExampleBundle));
    const kinds = deriveEdges(graph).map((edge) => edge.kind);
    expect(kinds).toContain("side");
    expect(kinds).toContain("model");
    expect(kinds).toContain("subagent");
    const subagent = deriveEdges(graph).find((edge) => edge.kind === "subagent")!;
    expect(graph.nodes.find((node) => node.id === subagent.target)?.data).toMatchObject({
      definition: { name: "asset_subagent", type: "dual_ai" },
    });
  });

  it("derives handoff, sub-prompt, include and fallback edges", () => {
    const graph = GraphSchema.parse({
      nodes: [
        {
          id: "front",
          type: "agent",
          position: { x: 0, y: 0 },
          data: { definition: { name: "front", sideA: { prompt: "p" } } },
        },
        {
          id: "desk",
          type: "agent",
          position: { x: 0, y: 0 },
          data: { definition: { name: "desk", exposeAsTool: true, sideA: { prompt: "q" } } },
        },
        {
          id: "p",
          type: "prompt",
          position: { x: 0, y: 0 },
          data: {
            definition: {
              name: "p",
              toolDescription: "p",
              model: "m1",
              prompt: [
                { type: "text", content: "x" },
                { type: "include", prompt: "q" },
              ],
              tools: ["desk", { name: "q" }],
            },
          },
        },
        {
          id: "q",
          type: "prompt",
          position: { x: 0, y: 0 },
          data: { definition: { name: "q", toolDescription: "q", model: "m1", prompt: "q" } },
        },
        {
          id: "m1",
          type: "model",
          position: { x: 0, y: 0 },
          data: {
            definition: { name: "m1", provider: "scripted", model: "s", script: [], fallbacks: ["m2"] },
          },
        },
        {
          id: "m2",
          type: "model",
          position: { x: 0, y: 0 },
          data: { definition: { name: "m2", provider: "scripted", model: "s", script: [] } },
        },
      ],
    });
    const edges = deriveEdges(graph);
    expect(edges).toContainEqual({
      id: "p:tools:0",
      kind: "handoff",
      source: "p",
      target: "desk",
      toolIndex: 0,
    });
    expect(edges).toContainEqual({
      id: "p:tools:1",
      kind: "subprompt",
      source: "p",
      target: "q",
      toolIndex: 1,
    });
    expect(edges).toContainEqual({ id: "p:prompt:1", kind: "include", source: "p", target: "q" });
    expect(edges).toContainEqual({ id: "m1:fallbacks:0", kind: "fallback", source: "m1", target: "m2" });
    expect(edges).toContainEqual({
      id: "front:sideA",
      kind: "side",
      source: "front",
      sourceHandle: "sideA",
      target: "p",
    });
  });
});

describe("compileGraph diagnostics", () => {
  it("pins a diagnostic to the offending node, and to the edge when one is drawn", () => {
    const bundle = cloneExample(assetExampleBundle);
    const graph = decompileBundle(bundle);
    // Break the subagent edge: make the target agent not exposed.
    const target = graph.nodes.find(
      (node) => node.type === "agent" && node.data.definition.name === "asset_subagent",
    )!;
    if (target.type !== "agent") throw new Error("expected agent");
    target.data.definition = { ...target.data.definition, exposeAsTool: false };
    const compiled = compileGraph(graph);
    expect(compiled.valid).toBe(false);
    const problem = compiled.diagnostics.find((diagnostic) => diagnostic.code === "agent_not_exposed");
    expect(problem).toBeDefined();
    const subagentEdge = deriveEdges(graph).find((edge) => edge.kind === "subagent")!;
    expect(problem).toMatchObject({ node_id: subagentEdge.source, edge_id: subagentEdge.id });
  });

  it("pins an unknown model to the prompt node (no edge exists to pin it to)", () => {
    const graph = decompileBundle(cloneExample(minimalChatBundle));
    const prompt = graph.nodes.find((node) => node.type === "prompt")!;
    if (prompt.type !== "prompt") throw new Error("expected prompt");
    prompt.data.definition = { ...prompt.data.definition, model: "nowhere" };
    const problem = compileGraph(graph).diagnostics.find((diagnostic) => diagnostic.code === "unknown_model");
    expect(problem).toMatchObject({ severity: "error", path: "prompts[0].model", node_id: prompt.id });
    expect(problem?.edge_id).toBeUndefined();
  });

  it("still produces a bundle of what was drawn when shapes are invalid", () => {
    const graph: Graph = {
      version: GRAPH_SCHEMA_VERSION,
      nodes: [{ id: "a", type: "agent", position: { x: 0, y: 0 }, data: { definition: { name: 5 } } }],
    };
    const compiled = compileGraph(graph);
    expect(compiled.valid).toBe(false);
    expect(compiled.bundle.agents).toHaveLength(1);
    expect(compiled.diagnostics.some((diagnostic) => diagnostic.node_id === "a")).toBe(true);
  });

  it("ignores notes", () => {
    const graph: Graph = {
      version: GRAPH_SCHEMA_VERSION,
      nodes: [{ id: "n", type: "note", position: { x: 0, y: 0 }, data: { text: "hello" } }],
    };
    expect(compileGraph(graph)).toEqual({
      bundle: { agents: [], prompts: [], models: [], tools: [] },
      diagnostics: [],
      valid: true,
    });
  });
});

describe("GraphSchema", () => {
  it("rejects duplicate node ids and drops client-sent edges", () => {
    const duplicate = GraphSchema.safeParse({
      nodes: [
        { id: "x", type: "note", position: { x: 0, y: 0 }, data: { text: "" } },
        { id: "x", type: "note", position: { x: 0, y: 0 }, data: { text: "" } },
      ],
    });
    expect(duplicate.success).toBe(false);
    const parsed = GraphSchema.parse({ nodes: [], edges: [{ id: "stale" }] });
    expect(parsed).toEqual({ version: 1, nodes: [] });
  });
});
