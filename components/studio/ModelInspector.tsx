"use client";
// Inspector for a model definition: provider, provider model id, endpoint and key variable name.
import { MODEL_PROVIDERS } from "@/lib/spec";
import { renameDefinition } from "@/lib/studio/document-edits";
import { SelectField, TextField } from "./fields";
import { orUndefined, text, useNodeEditor } from "./useNodeEditor";

export function ModelInspector({ nodeId }: { nodeId: string }) {
  const editor = useNodeEditor(nodeId);
  const { definition, errorsAt, setField } = editor;
  return (
    <div className="flex flex-col gap-2">
      <TextField
        label="Name"
        value={text(definition.name)}
        onChange={(name) => editor.edit((document) => renameDefinition(document, nodeId, name), "name")}
        errors={errorsAt(".name")}
      />
      <SelectField
        label="Provider"
        value={text(definition.provider)}
        options={MODEL_PROVIDERS.map((provider) => ({ value: provider, label: provider }))}
        onChange={(value) => setField("provider", value)}
        errors={errorsAt(".provider")}
      />
      <TextField
        label="Provider model id"
        value={text(definition.model)}
        onChange={(value) => setField("model", value)}
        errors={errorsAt(".model")}
      />
      <TextField
        label="Base URL"
        value={text(definition.baseURL)}
        onChange={(value) => setField("baseURL", orUndefined(value))}
        errors={errorsAt(".baseURL")}
      />
      <TextField
        label="API key env variable"
        value={text(definition.apiKeyEnv)}
        onChange={(value) => setField("apiKeyEnv", orUndefined(value))}
        errors={errorsAt(".apiKeyEnv")}
      />
    </div>
  );
}
