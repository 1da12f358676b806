// The code pane's pure half: code for a canvas with errors, what an edit does, and where problems sit.
import { describe, expect, it } from "vitest";
import { compileGraph, decompileBundle, type Graph, isDefinitionNode } from "@/lib/graph";
import {
  codeMarkers,
  decideCodeEdit,
  documentToTypeScript,
  lineRange,
  minimalChange,
  sameDefinitionObjects,
  sameJson,
} from "./apply-code";
import { documentFromBundle } from "./document-layout";
import { assetTemplate } from "./templates";

const graph = documentFromBundle(assetTemplate());
const source = documentToTypeScript(graph);
const idsAndPositions = (document: Graph) => document.nodes.map((node) => [node.id, node.position]);

/** The asset template with the orchestrator's prompt pointing at a model that does not exist. */
function brokenGraph(): Graph {
  return {
    ...graph,
    nodes: graph.nodes.map((node) =>
      node.id === "prompt:orchestrator_chat" && isDefinitionNode(node)
        ? ({
            ...node,
            data: { definition: { ...node.data.definition, model: "missing_model" } },
          } as typeof node)
        : node,
    ),
  };
}

const lineOf = (text: string, offset: number) => text.slice(0, offset).split("\n").length;

describe("documentToTypeScript", () => {
  it("writes the canvas as drawn while it has errors, so the code can fix them", () => {
    const broken = brokenGraph();
    expect(compileGraph(broken).valid).toBe(false);
    const code = documentToTypeScript(broken);
    expect(code).toContain('model: "missing_model"');
    expect(code).toContain("export const orchestrator_chat = definePrompt({");
  });

  it("writes a definition without a usable name instead of failing", () => {
    const nameless: Graph = {
      version: 1,
      nodes: [{ id: "p", type: "prompt", position: { x: 0, y: 0 }, data: { definition: { prompt: "Hi" } } }],
    } as Graph;
    expect(documentToTypeScript(nameless)).toContain('export const _ = definePrompt({\n  prompt: "Hi",\n});');
  });
});

describe("decideCodeEdit", () => {
  it("applies edited code, keeping node ids and positions", () => {
    const edited = source.replace(
      "Plans game assets and delegates each one to the asset subagent.",
      "Edited description.",
    );
    const decision = decideCodeEdit(graph, edited);
    if (decision.kind !== "apply") throw new Error(decision.kind);
    expect(decision.graph.nodes.find((node) => node.id === "agent:orchestrator")?.data).toMatchObject({
      definition: { description: "Edited description." },
    });
    expect(idsAndPositions(decision.graph)).toEqual(idsAndPositions(graph));
  });

  it("keeps the last good canvas on a syntax error and says where it is", () => {
    const lines = source.split("\n");
    lines.splice(3, 0, "const broken = {{;");
    const decision = decideCodeEdit(graph, lines.join("\n"));
    expect(decision.kind).toBe("unreadable");
    expect(decision.diagnostics[0]).toMatchObject({ severity: "error", line: 4 });
  });

  it("records nothing when the code says what the canvas holds (spacing, comments, field order)", () => {
    const reformatted = `// my note\n${source.replace('  type: "ai_human",\n', "").replace('name: "orchestrator",', 'name: "orchestrator",   type: "ai_human",')}`;
    expect(decideCodeEdit(graph, reformatted).kind).toBe("unchanged");
  });

  it("applies code that breaks a spec rule, so the canvas shows the problem", () => {
    const decision = decideCodeEdit(graph, source.replace('model: "orchestrator_model"', 'model: "nope"'));
    if (decision.kind !== "apply") throw new Error(decision.kind);
    expect(compileGraph(decision.graph).diagnostics.map((diagnostic) => diagnostic.path)).toContain(
      "prompts[0].model",
    );
  });

  it("fixes a canvas error from the code", () => {
    const broken = brokenGraph();
    const fixed = documentToTypeScript(broken).replace(
      'model: "missing_model"',
      'model: "orchestrator_model"',
    );
    const decision = decideCodeEdit(broken, fixed);
    if (decision.kind !== "apply") throw new Error(decision.kind);
    expect(compileGraph(decision.graph).valid).toBe(true);
    expect(idsAndPositions(decision.graph)).toEqual(idsAndPositions(broken));
  });

  it("keeps the node of a definition renamed in the code", () => {
    const renamed = source.replaceAll('"asset_style_guide"', '"style_guide"');
    const decision = decideCodeEdit(graph, renamed);
    if (decision.kind !== "apply") throw new Error(decision.kind);
    expect(idsAndPositions(decision.graph)).toEqual(idsAndPositions(graph));
  });

  it("without keepRenamed, decompile still gives a renamed definition a fresh node", () => {
    const bundle = assetTemplate();
    bundle.prompts = bundle.prompts.map((prompt) =>
      prompt.name === "asset_style_guide" ? { ...prompt, name: "style_guide" } : prompt,
    );
    const ids = decompileBundle(bundle, graph).nodes.map((node) => node.id);
    expect(ids).toContain("prompt:style_guide");
    expect(ids).not.toContain("prompt:asset_style_guide");
  });
});

describe("codeMarkers", () => {
  it("places a canvas diagnostic on the line that writes the value", () => {
    const broken = brokenGraph();
    const code = documentToTypeScript(broken);
    const markers = codeMarkers(code, compileGraph(broken).diagnostics);
    expect(markers.length).toBeGreaterThan(0);
    const marker = markers.find((candidate) => candidate.message.includes("missing_model"));
    expect(marker).toBeDefined();
    expect(code.slice(marker!.from, marker!.to)).toBe('model: "missing_model",');
    expect(marker!.severity).toBe("error");
  });

  it("marks a syntax error's line and nothing else", () => {
    const lines = source.split("\n");
    lines.splice(3, 0, "const broken = {{;");
    const code = lines.join("\n");
    const markers = codeMarkers(code, compileGraph(brokenGraph()).diagnostics);
    expect(markers).toHaveLength(1);
    expect(lineOf(code, markers[0]!.from)).toBe(4);
  });

  it("has no markers for a valid canvas's code", () => {
    expect(codeMarkers(source, compileGraph(graph).diagnostics)).toEqual([]);
  });
});

describe("lineRange", () => {
  const text = "ab\ncdef\n\nxyz";
  it("spans from the column to the end of the line", () => {
    expect(lineRange(text, 2, 2)).toEqual({ from: 4, to: 7 });
    expect(lineRange(text, 4, 1)).toEqual({ from: 9, to: 12 });
  });
  it("clamps columns and lines outside the text", () => {
    expect(lineRange(text, 1, 40)).toEqual({ from: 2, to: 2 });
    expect(lineRange(text, 3, 1)).toEqual({ from: 8, to: 8 });
    expect(lineRange(text, 99, 1)).toEqual({ from: 9, to: 12 });
  });
});

describe("minimalChange", () => {
  it("replaces only the differing middle, so a cursor before or after it stays put", () => {
    expect(minimalChange("model: a,\nname", "model: bb,\nname")).toEqual({ from: 7, to: 8, insert: "bb" });
    expect(minimalChange("aaa", "aaaa")).toEqual({ from: 3, to: 3, insert: "a" });
    expect(minimalChange("abc", "ac")).toEqual({ from: 1, to: 2, insert: "" });
    expect(minimalChange("same", "same")).toBeNull();
  });
});

describe("sameJson", () => {
  it("ignores key order and undefined properties, not values", () => {
    expect(sameJson({ a: 1, b: [1, { c: 2 }] }, { b: [1, { c: 2 }], a: 1, d: undefined })).toBe(true);
    expect(sameJson({ a: [1, 2] }, { a: [2, 1] })).toBe(false);
    expect(sameJson({ a: 1 }, { a: "1" })).toBe(false);
    expect(sameJson([], {})).toBe(false);
  });
});

describe("sameDefinitionObjects", () => {
  it("is true for a moved node and false for an edited definition", () => {
    const moved = { ...graph, nodes: graph.nodes.map((node) => ({ ...node, position: { x: 1, y: 2 } })) };
    expect(sameDefinitionObjects(graph, moved as Graph)).toBe(true);
    expect(sameDefinitionObjects(graph, brokenGraph())).toBe(false);
    expect(sameDefinitionObjects(graph, { ...graph, nodes: graph.nodes.slice(1) })).toBe(false);
  });
});
