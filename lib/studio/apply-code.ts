// The code pane's pure half: the canvas as TypeScript (even while it has errors), what an edit in the
// code does to the canvas (apply, nothing changed, or a read error that keeps the last good canvas),
// and where the canvas's problems sit in the code. TypeScript is parsed, never executed.
import { bundleToTypeScript, type SourceDiagnostic } from "@/lib/codegen";
import { readTypeScriptDefinitions } from "@/lib/codegen/read-typescript";
import { decompileBundle, type Graph, type GraphDiagnostic, isDefinitionNode } from "@/lib/graph";
import type { Bundle } from "@/lib/standard";

const COLLECTION = { agent: "agents", prompt: "prompts", model: "models", tool: "tools" } as const;

/** The definitions as drawn, in the order compileGraph numbers them (so diagnostic paths match). */
export function documentDefinitions(graph: Graph): Bundle {
  const raw = {
    agents: [] as unknown[],
    prompts: [] as unknown[],
    models: [] as unknown[],
    tools: [] as unknown[],
  };
  for (const node of graph.nodes) {
    if (isDefinitionNode(node)) raw[COLLECTION[node.type]].push(node.data.definition);
  }
  return raw as unknown as Bundle;
}

/** True when both documents hold the very same definition objects in the same order (a drag, a note edit). */
export function sameDefinitionObjects(left: Graph, right: Graph): boolean {
  const definitions = (graph: Graph) =>
    graph.nodes.flatMap((node) =>
      isDefinitionNode(node) ? [[node.type, node.data.definition] as const] : [],
    );
  const a = definitions(left);
  const b = definitions(right);
  return (
    a.length === b.length &&
    a.every(([type, definition], index) => b[index]![0] === type && b[index]![1] === definition)
  );
}

/** The canvas as one TypeScript module, written as drawn: a canvas with errors still has code. */
export function documentToTypeScript(graph: Graph): string {
  try {
    return bundleToTypeScript(documentDefinitions(graph));
  } catch (error) {
    return `// The code could not be written: ${(error as Error).message}\n`;
  }
}

export function formatSourceDiagnostic(diagnostic: SourceDiagnostic): string {
  return `${diagnostic.line}:${diagnostic.column} ${diagnostic.severity}: ${diagnostic.message}`;
}

export type CodeEditDecision =
  /** The code cannot be read (syntax, unsupported code): the canvas keeps its last good state. */
  | { kind: "unreadable"; diagnostics: SourceDiagnostic[] }
  /** The code says what the canvas already holds (formatting, comments): no undo step. */
  | { kind: "unchanged"; diagnostics: SourceDiagnostic[] }
  /** The canvas to record; the spec's own problems show up in Problems like any canvas edit's. */
  | { kind: "apply"; graph: Graph; diagnostics: SourceDiagnostic[] };

/**
 * What an edit in the code pane does to `previous`. Definitions are matched to nodes by kind and
 * name (a renamed one keeps its node), so ids, positions and notes survive.
 */
export function decideCodeEdit(previous: Graph, source: string): CodeEditDecision {
  const read = readTypeScriptDefinitions(source);
  if (read.raw === undefined) return { kind: "unreadable", diagnostics: read.diagnostics };
  if (sameJson(read.raw, documentDefinitions(previous))) {
    return { kind: "unchanged", diagnostics: read.diagnostics };
  }
  const graph = decompileBundle(read.raw as unknown as Bundle, previous, { keepRenamed: true });
  return { kind: "apply", graph, diagnostics: read.diagnostics };
}

/** Deep equality of JSON data, ignoring the order of object keys (the code writes fields in the spec's order). */
export function sameJson(left: unknown, right: unknown): boolean {
  if (left === right) return true;
  if (typeof left !== "object" || typeof right !== "object" || left === null || right === null) return false;
  if (Array.isArray(left) !== Array.isArray(right)) return false;
  if (Array.isArray(left) && Array.isArray(right)) {
    return left.length === right.length && left.every((item, index) => sameJson(item, right[index]));
  }
  const defined = (value: object) => Object.entries(value).filter(([, entry]) => entry !== undefined);
  const leftEntries = defined(left);
  const rightMap = new Map(defined(right));
  return (
    leftEntries.length === rightMap.size &&
    leftEntries.every(([key, value]) => rightMap.has(key) && sameJson(value, rightMap.get(key)))
  );
}

/** A marker in the code: offsets into the source, as an editor's lint diagnostics take them. */
export interface CodeMarker {
  from: number;
  to: number;
  severity: "error" | "warning";
  message: string;
}

/** Offsets for a 1-based line and column: from there to the end of its line (clamped into the text). */
export function lineRange(source: string, line: number, column: number): { from: number; to: number } {
  let start = 0;
  for (let current = 1; current < line; current++) {
    const next = source.indexOf("\n", start);
    if (next === -1) break;
    start = next + 1;
  }
  const end = source.indexOf("\n", start);
  const lineEnd = end === -1 ? source.length : end;
  const from = Math.min(start + Math.max(column - 1, 0), lineEnd);
  return { from, to: Math.max(lineEnd, from) };
}

/**
 * The markers for `source`: its own read problems, and, when it reads, each canvas diagnostic placed
 * at the code that wrote the value (`prompts[1].model` → the `model:` line of the second prompt).
 */
export function codeMarkers(source: string, graphDiagnostics: readonly GraphDiagnostic[]): CodeMarker[] {
  const read = readTypeScriptDefinitions(source);
  const placed = read.diagnostics.map((diagnostic) => ({
    ...lineRange(source, diagnostic.line, diagnostic.column),
    severity: diagnostic.severity,
    message: diagnostic.message,
  }));
  if (read.raw === undefined) return placed;
  for (const diagnostic of graphDiagnostics) {
    // The whole line that writes the value (`model: "missing",`), from its first non-blank character.
    const { line } = read.positionOf(diagnostic.path);
    const range = lineRange(source, line, 1);
    while (range.from < range.to && /\s/.test(source[range.from]!)) range.from++;
    placed.push({
      ...range,
      severity: diagnostic.severity,
      message: diagnostic.message,
    });
  }
  return placed.sort((left, right) => left.from - right.from);
}

/** The smallest single replacement turning `before` into `after` (common prefix and suffix kept), or null. */
export function minimalChange(
  before: string,
  after: string,
): { from: number; to: number; insert: string } | null {
  if (before === after) return null;
  let prefix = 0;
  const shortest = Math.min(before.length, after.length);
  while (prefix < shortest && before[prefix] === after[prefix]) prefix++;
  let suffix = 0;
  while (
    suffix < shortest - prefix &&
    before[before.length - 1 - suffix] === after[after.length - 1 - suffix]
  ) {
    suffix++;
  }
  return { from: prefix, to: before.length - suffix, insert: after.slice(prefix, after.length - suffix) };
}
