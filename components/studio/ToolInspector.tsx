"use client";
// Inspector for a function tool: a built-in filesystem tool or an HTTP call.
import { BUILTIN_TOOLS, HTTP_METHODS } from "@/lib/spec";
import { renameDefinition, replaceDefinition } from "@/lib/studio/document-edits";
import { NumberField, SelectField, TextField } from "./fields";
import { orUndefined, text, useNodeEditor, whole } from "./useNodeEditor";

const KINDS = [
  { value: "builtin", label: "builtin (thread filesystem)" },
  { value: "http", label: "http (call a URL)" },
];

export function ToolInspector({ nodeId }: { nodeId: string }) {
  const editor = useNodeEditor(nodeId);
  const { definition, errorsAt, setField } = editor;
  const kind = text(definition.kind);
  const switchKind = (next: string) =>
    editor.edit((document) => {
      const base = { name: definition.name, description: definition.description, kind: next };
      const settings =
        next === "http" ? { method: "GET", url: "https://example.com/{query}" } : { builtin: "fs_read" };
      return replaceDefinition(document, nodeId, { ...base, ...settings });
    }, "kind");
  return (
    <div className="flex flex-col gap-2">
      <TextField
        label="Name"
        value={text(definition.name)}
        onChange={(name) => editor.edit((document) => renameDefinition(document, nodeId, name), "name")}
        errors={errorsAt(".name")}
      />
      <TextField
        label="Description"
        multiline
        value={text(definition.description)}
        onChange={(value) => setField("description", value)}
        errors={errorsAt(".description")}
      />
      <SelectField
        label="Kind"
        value={kind}
        options={KINDS}
        onChange={switchKind}
        errors={errorsAt(".kind")}
      />
      {kind === "builtin" ? (
        <SelectField
          label="Built-in tool"
          value={text(definition.builtin)}
          options={BUILTIN_TOOLS.map((name) => ({ value: name, label: name }))}
          onChange={(value) => setField("builtin", value)}
          errors={errorsAt(".builtin")}
        />
      ) : null}
      {kind === "http" ? (
        <>
          <SelectField
            label="Method"
            value={text(definition.method)}
            options={HTTP_METHODS.map((method) => ({ value: method, label: method }))}
            onChange={(value) => setField("method", value)}
          />
          <TextField
            label="URL"
            value={text(definition.url)}
            onChange={(value) => setField("url", value)}
            errors={errorsAt(".url")}
          />
          <NumberField
            label="Timeout (ms)"
            value={whole(definition.timeoutMs)}
            onChange={(value) => setField("timeoutMs", orUndefined(value))}
            errors={errorsAt(".timeoutMs")}
          />
        </>
      ) : null}
    </div>
  );
}
