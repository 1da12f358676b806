// The references a definition makes to other definitions by name — exactly the ones the canvas draws
// as edges (side → prompt, prompt → model / callable / include, model → fallback) — and a pure way
// to rewrite them, used when pasted nodes must point at their own copies.
import type { GraphNode } from "@/lib/graph";

/** `callable` names resolve to a tool, then a prompt, then an agent (the spec's Callables). */
export type ReferenceKind = "prompt" | "model" | "callable";
export type ResolveReference = (kind: ReferenceKind, name: string) => string;

type Definition = Record<string, unknown>;

function asDefinition(value: unknown): Definition | undefined {
  return value && typeof value === "object" && !Array.isArray(value) ? (value as Definition) : undefined;
}

function renameString(value: unknown, kind: ReferenceKind, resolve: ResolveReference): unknown {
  return typeof value === "string" && value !== "" ? resolve(kind, value) : value;
}

function rewriteToolEntry(entry: unknown, resolve: ResolveReference): unknown {
  if (typeof entry === "string") return renameString(entry, "callable", resolve);
  const object = asDefinition(entry);
  return object ? { ...object, name: renameString(object.name, "callable", resolve) } : entry;
}

function rewritePromptPart(part: unknown, resolve: ResolveReference): unknown {
  const include = asDefinition(part);
  if (include?.type !== "include") return part;
  return { ...include, prompt: renameString(include.prompt, "prompt", resolve) };
}

/** The node with every by-name reference passed through `resolve`; notes have none. */
export function rewriteReferences(node: GraphNode, resolve: ResolveReference): GraphNode {
  if (node.type === "note") return node;
  const definition: Definition = { ...node.data.definition };
  if (node.type === "agent") {
    for (const side of ["sideA", "sideB"] as const) {
      const current = asDefinition(definition[side]);
      if (current) definition[side] = { ...current, prompt: renameString(current.prompt, "prompt", resolve) };
    }
  }
  if (node.type === "prompt") {
    definition.model = renameString(definition.model, "model", resolve);
    if (Array.isArray(definition.tools)) {
      definition.tools = definition.tools.map((entry) => rewriteToolEntry(entry, resolve));
    }
    if (Array.isArray(definition.prompt)) {
      definition.prompt = definition.prompt.map((part) => rewritePromptPart(part, resolve));
    }
  }
  if (node.type === "model" && Array.isArray(definition.fallbacks)) {
    definition.fallbacks = definition.fallbacks.map((name) => renameString(name, "model", resolve));
  }
  return { ...node, data: { definition } } as GraphNode;
}
