import { describe, expect, it } from "vitest";
import { compileGraph, emptyGraph, isDefinitionNode } from "@/lib/graph";
import { addNode, findNode } from "./document-edits";
import { mcpToolPreset, NODE_PRESETS, nodePreset } from "./node-presets";

describe("node presets", () => {
  it("offer every node kind", () => {
    expect(new Set(NODE_PRESETS.map((preset) => preset.kind))).toEqual(
      new Set(["agent", "prompt", "tool", "model", "note"]),
    );
  });

  it("start an HTTP tool and a dual_ai agent with their own definitions", () => {
    const http = addNode(emptyGraph(), "tool", { x: 0, y: 0 }, nodePreset("tool-http").definition);
    const tool = findNode(http.graph, http.nodeId);
    expect(tool && isDefinitionNode(tool) ? tool.data.definition : null).toMatchObject({
      name: "tool_1",
      kind: "http",
      method: "GET",
    });
    // A valid tool on its own: no problem is pinned to it.
    expect(compileGraph(http.graph).diagnostics.filter((problem) => problem.node_id === http.nodeId)).toEqual(
      [],
    );
    const dual = addNode(emptyGraph(), "agent", { x: 0, y: 0 }, nodePreset("agent-dual-ai").definition);
    const agent = findNode(dual.graph, dual.nodeId);
    expect(agent && isDefinitionNode(agent) ? agent.data.definition : null).toMatchObject({
      name: "agent_1",
      type: "dual_ai",
      sideB: { prompt: "" },
    });
  });

  it("refuses an unknown preset id", () => {
    expect(() => nodePreset("robot")).toThrow(/Unknown node preset "robot"/);
  });
});

describe("MCP tool presets", () => {
  it("adds a kind mcp tool named after the server's tool, with its description and schema", () => {
    const schema = { type: "object", properties: { a: { type: "number" } }, required: ["a"] };
    const preset = mcpToolPreset("calc", { name: "add-numbers", description: "Adds.", inputSchema: schema });
    expect(preset).toMatchObject({
      id: "mcp:calc:add-numbers",
      kind: "tool",
      label: "add-numbers",
      baseName: "add_numbers",
    });
    let document = emptyGraph();
    const first = addNode(document, "tool", { x: 0, y: 0 }, preset.definition, preset.baseName);
    document = first.graph;
    expect(findNode(document, first.nodeId)?.data).toEqual({
      definition: {
        name: "add_numbers",
        kind: "mcp",
        server: "calc",
        tool: "add-numbers",
        description: "Adds.",
        args: schema,
      },
    });
    // The name is taken now: the next one is numbered.
    const second = addNode(document, "tool", { x: 0, y: 0 }, preset.definition, preset.baseName);
    expect(findNode(second.graph, second.nodeId)?.data).toMatchObject({
      definition: { name: "add_numbers_1" },
    });
  });
});
