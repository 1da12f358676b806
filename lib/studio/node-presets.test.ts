import { describe, expect, it } from "vitest";
import { compileGraph, emptyGraph, isDefinitionNode } from "@/lib/graph";
import { addNode, findNode } from "./document-edits";
import { NODE_PRESETS, nodePreset } from "./node-presets";

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
