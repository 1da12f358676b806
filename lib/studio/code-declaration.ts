// Where a canvas node is declared in the code pane's TypeScript: the lines of its `define*` statement,
// so the pane can scroll to and highlight the selected node. Pure: it reads the source, never runs it.
import { readTypeScriptDefinitions } from "@/lib/codegen/read-typescript";
import { type Graph, isDefinitionNode } from "@/lib/graph";

const COLLECTION = { agent: "agents", prompt: "prompts", model: "models", tool: "tools" } as const;

/** 1-based first and last line of a declaration. */
export interface DeclarationLines {
  from: number;
  to: number;
}

/** The offset just past the bracket that closes the first `(` at or after `start`, skipping strings and comments. */
function endOfCall(source: string, start: number): number {
  let depth = 0;
  let index = source.indexOf("(", start);
  if (index === -1) return source.length;
  for (; index < source.length; index++) {
    const char = source[index];
    if (char === '"' || char === "'" || char === "`") {
      // Skip the string literal (template literals are read as data by the importer: no ${} to follow).
      for (index++; index < source.length && source[index] !== char; index++) {
        if (source[index] === "\\") index++;
      }
    } else if (char === "/" && source[index + 1] === "/") {
      const newline = source.indexOf("\n", index);
      index = newline === -1 ? source.length : newline;
    } else if (char === "/" && source[index + 1] === "*") {
      const close = source.indexOf("*/", index + 2);
      index = close === -1 ? source.length : close + 1;
    } else if (char === "(" || char === "{" || char === "[") {
      depth++;
    } else if (char === ")" || char === "}" || char === "]") {
      depth--;
      if (depth === 0) return index + 1;
    }
  }
  return source.length;
}

function offsetOfLine(source: string, line: number, column: number): number {
  let offset = 0;
  for (let current = 1; current < line; current++) {
    const next = source.indexOf("\n", offset);
    if (next === -1) return source.length;
    offset = next + 1;
  }
  return offset + column - 1;
}

const lineAt = (source: string, offset: number) => source.slice(0, offset).split("\n").length;

// Reading the code of a large canvas takes ~100 ms (300 definitions); selecting another node asks
// again about the same text, so the last read is kept.
let lastRead: { source: string; read: ReturnType<typeof readTypeScriptDefinitions> } | null = null;

/** Reads `source` ahead of the first declarationLines call (the code pane does it while idle). */
export function prepareDeclarations(source: string): void {
  readDefinitions(source);
}

function readDefinitions(source: string): ReturnType<typeof readTypeScriptDefinitions> {
  if (lastRead?.source !== source) lastRead = { source, read: readTypeScriptDefinitions(source) };
  return lastRead.read;
}

/**
 * The lines that declare `nodeId` in `source` (code written by documentToTypeScript, or an edit of it
 * that still reads), or null: a note, a node the code does not hold, or code that cannot be read.
 */
export function declarationLines(source: string, graph: Graph, nodeId: string): DeclarationLines | null {
  const node = graph.nodes.find((candidate) => candidate.id === nodeId);
  if (!node || !isDefinitionNode(node)) return null;
  // The code lists definitions per collection in node order (as compileGraph numbers them).
  const index = graph.nodes.filter((candidate) => candidate.type === node.type).indexOf(node);
  const read = readDefinitions(source);
  if (read.raw === undefined) return null;
  const collection = read.raw[COLLECTION[node.type]] as unknown[];
  if (index < 0 || index >= collection.length) return null;
  const start = read.positionOf(`${COLLECTION[node.type]}[${index}]`);
  const end = endOfCall(source, offsetOfLine(source, start.line, start.column));
  return { from: start.line, to: lineAt(source, end) };
}
