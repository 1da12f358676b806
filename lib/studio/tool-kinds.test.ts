import { describe, expect, it } from "vitest";
import { compileGraph, emptyGraph } from "@/lib/graph";
import { addNode, defaultDefinition, replaceDefinition } from "./document-edits";
import { nodePreset } from "./node-presets";
import { defaultTool, switchToolKind, TOOL_KIND_DEFAULTS } from "./tool-kinds";

/** The problems a lone tool with this definition has. */
function problemsOf(definition: Record<string, unknown>) {
  const added = addNode(emptyGraph(), "tool", { x: 0, y: 0 });
  const graph = replaceDefinition(added.graph, added.nodeId, definition);
  return compileGraph(graph).diagnostics.filter((problem) => problem.node_id === added.nodeId);
}

describe("switching a tool's kind", () => {
  it("turns the default built-in tool into the palette's valid HTTP tool", () => {
    const http = switchToolKind(defaultDefinition("tool", "lookup"), "http");
    expect(http).toEqual(nodePreset("tool-http").definition?.("lookup"));
    expect(http.description).not.toBe(TOOL_KIND_DEFAULTS.builtin.description);
    expect(problemsOf(http)).toEqual([]);
  });

  it("keeps a description and an argument schema the user wrote", () => {
    const args = { type: "object", properties: { city: { type: "string" } }, required: ["city"] };
    const written = { ...defaultTool("builtin", "weather"), description: "Today's weather in a city.", args };
    const http = switchToolKind(written, "http");
    expect(http).toMatchObject({ kind: "http", description: "Today's weather in a city.", args });
    expect(http.url).toBe(TOOL_KIND_DEFAULTS.http.settings.url);
  });

  it("drops the previous kind's own fields and its default schema", () => {
    const builtin = switchToolKind(defaultTool("http", "lookup"), "builtin");
    expect(builtin).toEqual(defaultTool("builtin", "lookup"));
    expect(builtin).not.toHaveProperty("url");
    expect(builtin).not.toHaveProperty("args");
  });

  it("asks for a description instead of keeping another kind's default", () => {
    const code = switchToolKind(defaultTool("http", "invoice"), "code");
    expect(code).toMatchObject({ kind: "code", module: "" });
    expect(code.description).toBe("");
    expect(code).not.toHaveProperty("args");
  });

  it("fills an empty description with the new kind's", () => {
    const http = switchToolKind({ ...defaultTool("code", "search"), description: "  " }, "http");
    expect(http.description).toBe(TOOL_KIND_DEFAULTS.http.description);
  });
});
