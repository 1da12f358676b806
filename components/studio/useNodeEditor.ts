"use client";
// What every inspector needs for one node: its definition, field errors from the live compile and
// setters that record one undo step per field being typed in. The `bind*` helpers give a field
// component its value, its setter and its errors in one spread.
import type { Graph } from "@/lib/graph";
import { fieldMessages } from "@/lib/studio/diagnostic-targets";
import {
  type AgentSideKey,
  type Definition,
  findNode,
  setDefinitionField,
  setSideField,
} from "@/lib/studio/document-edits";
import { useStudioStore } from "./StudioStoreContext";
import { useCompiled } from "./useCompiled";

/** Empty text and `false`-by-default flags are left out of the definition rather than stored. */
export const orUndefined = <Value>(value: Value): Value | undefined =>
  value === "" || value === false ? undefined : value;

/** The live compile's messages for a field path, by severity. */
export interface FieldMessagesAt {
  errorsAt(path: string): string[];
  warningsAt(path: string): string[];
}

/** Value, setter, errors and warnings of one field of an object held at `path` (the definition or a part of it). */
export function fieldBinder(
  object: Definition,
  set: (field: string, value: unknown) => void,
  messages: FieldMessagesAt,
  path = "",
) {
  const bind = <Value>(
    field: string,
    read: (value: unknown) => Value,
    write = (value: Value): unknown => value,
  ) => ({
    value: read(object[field]),
    onChange: (value: Value) => set(field, write(value)),
    errors: messages.errorsAt(`${path}.${field}`),
    warnings: messages.warningsAt(`${path}.${field}`),
  });
  return {
    /** Required text: an empty box stays an empty string (and is diagnosed). */
    text: (field: string) => bind(field, text),
    /** Optional text: an empty box removes the field. */
    optionalText: (field: string) => bind(field, text, orUndefined),
    number: (field: string) => bind(field, whole),
    boolean: (field: string) => bind(field, optionalBoolean),
    list: (field: string) => bind(field, stringList),
    map: (field: string) => bind(field, stringMap),
    json: <Value>(field: string) => bind(field, (value) => value as Value | undefined),
  };
}

export function useNodeEditor(nodeId: string) {
  const store = useStudioStore();
  const { graph, diagnostics } = useCompiled();
  const node = findNode(graph, nodeId);
  const definition: Definition = node && node.type !== "note" ? node.data.definition : {};
  const edit = (change: (document: Graph) => Graph, key: string) =>
    store.getState().edit(change, `${nodeId}:${key}`);
  const errorsAt = (path: string) => fieldMessages(diagnostics, nodeId, path, "error");
  const warningsAt = (path: string) => fieldMessages(diagnostics, nodeId, path, "warning");
  const messages: FieldMessagesAt = { errorsAt, warningsAt };
  const setField = (field: string, value: unknown) =>
    edit((document) => setDefinitionField(document, nodeId, field, value), field);
  return {
    graph,
    definition,
    errorsAt,
    warningsAt,
    edit,
    setField,
    setSideField: (side: AgentSideKey, field: string, value: unknown) =>
      edit((document) => setSideField(document, nodeId, side, field, value), `${side}.${field}`),
    bind: fieldBinder(definition, setField, messages),
    /** Binds the fields of a nested object (`reasoning`, `capabilities`), dropped when left empty. */
    bindNested: (field: string) => {
      const object = asObject(definition[field]) ?? {};
      return fieldBinder(
        object,
        (key, value) => setField(field, patchObject(object, key, value)),
        messages,
        `.${field}`,
      );
    },
  };
}

export type NodeEditor = ReturnType<typeof useNodeEditor>;

export function text(value: unknown): string {
  return typeof value === "string" ? value : "";
}

export function whole(value: unknown): number | undefined {
  return typeof value === "number" ? value : undefined;
}

export function optionalBoolean(value: unknown): boolean | undefined {
  return typeof value === "boolean" ? value : undefined;
}

export function stringList(value: unknown): string[] | undefined {
  return Array.isArray(value) ? value.map(String) : undefined;
}

export function stringMap(value: unknown): Record<string, string> | undefined {
  if (!value || typeof value !== "object" || Array.isArray(value)) return undefined;
  return Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, String(entry)]));
}

/** `object` with `field` set (removed when `undefined`); `undefined` when no field is left. */
export function patchObject(object: Definition, field: string, value: unknown): Definition | undefined {
  const next = Object.fromEntries(
    Object.entries({ ...object, [field]: value }).filter(([, entry]) => entry !== undefined),
  );
  return Object.keys(next).length ? next : undefined;
}

export function asObject(value: unknown): Definition | undefined {
  return value && typeof value === "object" && !Array.isArray(value) ? (value as Definition) : undefined;
}

/** Names of the definitions of one kind, for reference pickers ("" = none). */
export function nameOptions(graph: Graph, kind: "prompt" | "model", none: string) {
  const names = graph.nodes.flatMap((node) => (node.type === kind ? [text(node.data.definition.name)] : []));
  return [{ value: "", label: none }, ...names.filter(Boolean).map((name) => ({ value: name, label: name }))];
}
