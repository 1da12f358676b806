"use client";
// Edits the prompt `tools` entry a drawn edge stands for (subagent, sub-prompt, tool or handoff).
// Fields are set on the entry's object form; an entry left with nothing but its name is written
// back as the bare name, so drawing an edge and undoing every option leaves `"name"`.
import type { GraphEdge } from "@/lib/graph";
import { setToolEntry } from "@/lib/studio/document-edits";
import { subagentEntry } from "./flow-elements";
import { fieldBinder, useNodeEditor } from "./useNodeEditor";

type Entry = Record<string, unknown>;

export function compactEntry(entry: Entry): unknown {
  const fields = Object.entries(entry).filter(([, value]) => value !== undefined);
  return fields.length === 1 && fields[0]?.[0] === "name" ? entry.name : Object.fromEntries(fields);
}

export function useToolEntryEditor(edge: GraphEdge) {
  const editor = useNodeEditor(edge.source);
  const entry = subagentEntry(edge, editor.graph);
  const index = edge.toolIndex ?? 0;
  const path = `.tools[${index}]`;
  const update = (field: string, value: unknown) =>
    editor.edit(
      (document) => setToolEntry(document, edge.source, index, compactEntry({ ...entry, [field]: value })),
      `tools[${index}].${field}`,
    );
  const errorsAt = (field: string) => editor.errorsAt(`${path}.${field}`);
  return { editor, entry, path, update, errorsAt, bind: fieldBinder(entry, update, editor, path) };
}

export type ToolEntryEditor = ReturnType<typeof useToolEntryEditor>;
