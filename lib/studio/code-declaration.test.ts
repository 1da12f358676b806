// The code pane follows the canvas selection: each node maps to the lines of its own declaration.
import { describe, expect, it } from "vitest";
import { documentToTypeScript } from "./apply-code";
import { declarationLines, prepareDeclarations } from "./code-declaration";
import { documentFromBundle } from "./document-layout";
import { assetTemplate } from "./templates";

const graph = documentFromBundle(assetTemplate());
const source = documentToTypeScript(graph);
const lines = source.split("\n");
const text = (range: { from: number; to: number }) => lines.slice(range.from - 1, range.to).join("\n");

describe("declarationLines", () => {
  it("finds every definition node's whole declaration, from `export const` to its closing `});`", () => {
    for (const node of graph.nodes) {
      if (node.type === "note") continue;
      const range = declarationLines(source, graph, node.id);
      expect(range, node.id).not.toBeNull();
      const declared = text(range!);
      const name = node.id.split(":")[1];
      expect(declared.startsWith(`export const ${name} = define`), node.id).toBe(true);
      expect(declared.endsWith("});"), node.id).toBe(true);
      // Exactly one declaration: nothing of the next one is included.
      expect(declared.match(/export const/g), node.id).toHaveLength(1);
    }
  });

  it("ignores brackets inside strings (a prompt's text)", () => {
    const tricky = source.replace(
      "You are a game art director.",
      "You are a game art director ({ not code }) // nor this [",
    );
    const range = declarationLines(tricky, graph, "prompt:orchestrator_chat");
    expect(text(range!).split("\n").at(-1)).toBe("});");
    expect(tricky.split("\n")[range!.to]).toBe("");
  });

  it("reads the code again when it changed (the last read is kept only for the same text)", () => {
    const agent = graph.nodes.find((node) => node.type === "agent")!;
    const before = declarationLines(source, graph, agent.id)!;
    const shifted = `// a comment line\n// and another\n${source}`;
    prepareDeclarations(shifted);
    expect(declarationLines(shifted, graph, agent.id)).toEqual({ from: before.from + 2, to: before.to + 2 });
    expect(declarationLines(source, graph, agent.id)).toEqual(before);
  });

  it("has no declaration for a missing node or unreadable code", () => {
    expect(declarationLines(source, graph, "agent:nobody")).toBeNull();
    expect(declarationLines("export const = ;", graph, "agent:orchestrator")).toBeNull();
  });
});
